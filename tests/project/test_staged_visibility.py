"""A staged batch's detail reaches staff only, on every URL family.

The release is imported staged with a marker in every free field of its
tasks/ files and attempt files. As an anonymous visitor, no page, /data/v1/
file or /api/ answer holds the marker; as staff, the detail is there. What
stays public (ids, the matrix's title and surface, scores, aggregates) holds
no marker, since the matrix, the leaderboard and the model files are not marked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leaderboard.models import Attempt, CheckResult, Model, Task
from tests.factories import import_path
from trajectories.documents import ATTEMPT_FILES
from trajectories.models import Event, VendorRequest

MARKER = "zqstagedmarker"
# Ids, references, enumerations and timestamps: not free text.
NOT_FREE = {
    "schema",
    "bench",
    "model",
    "task",
    "id",
    "type",
    "scoring_rule",
    "level",
    "direction",
    "method",
    "ts",
    "started_at",
    "finished_at",
    "requests",
    "event",
    "source",
    "flags",
    "hashes",
    "results",
}


def mark(value, key: str | None = None):
    """Every free string of a JSON value with the marker appended."""
    if key in NOT_FREE and not isinstance(value, dict):
        return value
    if isinstance(value, str):
        return f"{value} {MARKER}"
    if isinstance(value, dict):
        return {k: mark(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [mark(v) for v in value]
    return value


def mark_release(root: Path) -> None:
    for path in [*root.glob("tasks/*.json"), *root.glob("attempts/*/*/*.json")]:
        doc = json.loads(path.read_text())
        marked = mark(doc)
        marked["x_note"] = MARKER  # an unknown field, kept and given back
        if "checks" in doc and path.parent.name != "tasks" and "checks" in marked:
            for check in marked["checks"] if isinstance(marked["checks"], list) else []:
                check["name"] = check["name"].replace(f" {MARKER}", f"-{MARKER}")
        if path.parent.name == "tasks":
            for check in marked["checks"]:
                check["name"] = check["name"].replace(f" {MARKER}", f"-{MARKER}")
            for result in doc["results"]:
                result["checks"] = {f"{k}-{MARKER}": v for k, v in result["checks"].items()}
            marked["results"] = doc["results"]
        path.write_text(json.dumps(marked))
    for path in root.glob("attempts/*/*/problem.md"):
        path.write_text(path.read_text() + f"\n{MARKER}\n")
    for path in root.glob("attempts/*/*/patch.diff"):
        path.write_text(f"{MARKER}\n" + path.read_text())
    for path in root.glob("attempts/*/*/transcript.jsonl"):
        lines = path.read_text().splitlines()
        first = json.loads(lines[0])
        first["x_note"] = MARKER
        path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def addresses(bench) -> list[str]:
    b = bench.slug
    models = list(Model.objects.filter(bench=bench).order_by("slug"))
    tasks = list(Task.objects.filter(bench=bench).order_by("slug"))
    attempts = list(Attempt.objects.released().filter(bench=bench).select_related("model", "task"))
    first = attempts[0]
    other = next(a for a in attempts if a.task_id == first.task_id and a.pk != first.pk)
    found = [
        reverse("home"),
        reverse("bench", args=[b]),
        reverse("matrix", args=[b]),
        reverse("matrix", args=[b]) + "?released=1",
        reverse("analysis-tool-failures", args=[b]),
        reverse("analysis-protocol", args=[b]),
        reverse("compare", args=[b, first.task.slug, first.model.slug, other.model.slug]),
        reverse("task-compare-pick", args=[b, first.task.slug]),
        reverse("attempt-event", args=[b, first.model.slug, first.task.slug, 1]),
        reverse("mirror-manifest", args=[b]),
        reverse("mirror-leaderboard", args=[b]),
        reverse("mirror-matrix", args=[b]),
    ]
    for m in models:
        found += [reverse("model", args=[b, m.slug]), reverse("mirror-model", args=[b, m.slug])]
    for t in tasks:
        found += [reverse("task", args=[b, t.slug]), reverse("mirror-task", args=[b, t.slug])]
    for a in attempts:
        args = [b, a.model.slug, a.task.slug]
        found.append(reverse("attempt", args=args) + f"?q={MARKER}")
        found += [reverse("mirror-attempt-file", args=[*args, name]) for name in ATTEMPT_FILES]
    for resource in ("benches", "models", "tasks", "attempts", "checks", "events", "requests"):
        found += [f"/api/{resource}/", f"/api/{resource}/?bench={b}&page_size=1000"]
    found += [
        f"/api/analysis/tool-failures/?bench={b}",
        f"/api/analysis/protocol/?bench={b}",
        f"/api/attempts/{first.pk}/",
        f"/api/checks/{CheckResult.objects.filter(attempt=first).first().pk}/",
        f"/api/events/{Event.objects.filter(attempt=first).first().pk}/",
        f"/api/requests/{VendorRequest.objects.filter(attempt__in=attempts).first().pk}/",
        f"/api/events/?bench={b}&task={first.task.slug}&model={first.model.slug}",
    ]
    return found


@pytest.fixture
def staged_bench(db, release_copy):
    mark_release(release_copy)
    return import_path(release_copy, staged=True).bench


@pytest.mark.django_db
def test_an_anonymous_visitor_sees_no_detail_of_a_staged_batch(client, staged_bench):
    assert Task.objects.released().filter(bench=staged_bench).exists()
    assert not Task.objects.public().filter(bench=staged_bench).exists()
    leaks = []
    statuses = set()
    for address in addresses(staged_bench):
        response = client.get(address)
        statuses.add(response.status_code)
        assert response.status_code in (200, 302, 404), address
        if MARKER in body(response):
            leaks.append(address)
    assert leaks == []
    assert 200 in statuses and 404 in statuses


@pytest.mark.django_db
def test_staff_see_the_detail_of_a_staged_batch(client, staged_bench):
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    b = staged_bench.slug
    attempt = (
        Attempt.objects.released().filter(bench=staged_bench).select_related("model", "task")[0]
    )
    args = [b, attempt.model.slug, attempt.task.slug]
    seen = [
        reverse("task", args=[b, attempt.task.slug]),
        reverse("mirror-task", args=[b, attempt.task.slug]),
        reverse("mirror-model", args=[b, attempt.model.slug]),
        reverse("attempt", args=args),
        f"/api/tasks/?bench={b}",
        f"/api/events/?bench={b}&task={attempt.task.slug}&model={attempt.model.slug}",
        *(reverse("mirror-attempt-file", args=[*args, name]) for name in ATTEMPT_FILES),
    ]
    for address in seen:
        response = client.get(address)
        assert response.status_code == 200, address
        text = body(response)
        if address == reverse("mirror-model", args=[b, attempt.model.slug]):
            # Staff get the staged attempts' rows, which anonymous visitors do not.
            assert json.loads(text)["attempts"], address
        else:
            assert MARKER in text, address
