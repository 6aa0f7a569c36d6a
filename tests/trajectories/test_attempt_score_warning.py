"""The attempt page of a release whose published score differs from the recomputed one
(a fresh import of an edited copy, so not in test_attempt_page's shared import)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leaderboard.models import Attempt
from tests.factories import body_of, edit_json, import_path

pytestmark = pytest.mark.django_db


def page_url(attempt: Attempt) -> str:
    return reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])


def test_a_score_that_differs_from_the_published_one_is_warned_about(client, release_copy, db):
    summary = next((release_copy / "attempts").glob("*/*/summary.json"))
    edit_json(summary, lambda s: s.update(score=0.123456))
    import_path(release_copy)
    attempt = Attempt.objects.get(
        model__slug=summary.parent.parent.name, task__slug=summary.parent.name
    )
    html = body_of(client.get(page_url(attempt)))
    assert "Scores differ." in html
    assert "0.123" in html
