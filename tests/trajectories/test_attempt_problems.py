"""The attempt page's first failures and errors: kept at import, read in no query."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leaderboard.models import Attempt
from trajectories.models import Event, Evidence

pytestmark = pytest.mark.django_db


def expected_problems(attempt: Attempt) -> dict:
    """The first failures per tool, calls without a result and errors, from the rows."""
    limits = settings.BENCHVIEW_LIMITS
    cap, cap_errors = limits["attempt_first_failures"], limits["attempt_first_errors"]
    failures: dict[str, list[int]] = {}
    never: dict[str, list[int]] = {}
    for event in Event.objects.filter(attempt=attempt, type="tool_call").order_by("index"):
        if event.ok is True:
            continue
        found = failures if event.ok is False else never
        if len(found.setdefault(event.tool, [])) < cap:
            found[event.tool].append(event.index)
    errors = list(
        Event.objects.filter(attempt=attempt, type="error")
        .order_by("index")
        .values_list("index", flat=True)[:cap_errors]
    )
    return {"failures": failures, "never_returned": never, "errors": errors}


def test_the_import_keeps_each_attempts_first_problems(bench):
    attempts = list(Attempt.objects.filter(evidence__isnull=False).select_related("evidence"))
    with_failures = 0
    for attempt in attempts:
        assert attempt.evidence.problems == expected_problems(attempt), attempt
        with_failures += bool(attempt.evidence.problems["failures"])
    # The check means something only if the release has failures to find.
    assert with_failures > 0


def test_the_page_links_the_kept_problems_without_reading_events_for_them(client, bench):
    live = (
        Attempt.objects.released()
        .filter(task__batch__live=True)
        .select_related("bench", "model", "task", "evidence")
        .order_by("pk")
    )
    attempt = next((a for a in live if a.evidence.problems["failures"]), None)
    assert attempt is not None
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url).content.decode()
    table = html.split('<table class="tools">', 1)[1].split("</table>", 1)[0]
    for indices in attempt.evidence.problems["failures"].values():
        for index in indices:
            assert f'href="#e{index}"' in table
    # The only event reads are the first slice and the first timed event.
    event_reads = [q["sql"] for q in queries if "trajectories_event" in q["sql"]]
    assert not any("error" in sql for sql in event_reads), event_reads


def test_the_migration_fills_attempts_imported_before_it(bench):
    kept = {e.attempt_id: e.problems for e in Evidence.objects.all()}
    Evidence.objects.update(problems={})
    migration = importlib.import_module("trajectories.migrations.0008_evidence_problems")
    migration.fill(apps, None)
    assert {e.attempt_id: e.problems for e in Evidence.objects.all()} == kept
