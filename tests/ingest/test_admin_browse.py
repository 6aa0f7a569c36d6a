"""Browsing the scoreboard in the admin: staff search and filter, and nothing scored is editable.

Every test only reads the small release (or changes it inside its own rolled-back
transaction), so the module shares one import of it (``bench``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from leaderboard.models import Attempt
from tests.factories import make_user


@pytest.fixture
def superuser_client(db) -> Client:
    client = Client()
    client.force_login(make_user("root", superuser=True))
    return client


BROWSE = [
    ("leaderboard", "bench", "q=integration"),
    ("leaderboard", "batch", "live__exact=1"),
    ("leaderboard", "model", "harness=codex&q=gpt"),
    ("leaderboard", "task", "state=live&q=a"),
    ("leaderboard", "attempt", "has_detail__exact=1&q=claude"),
    ("leaderboard", "disagreement", ""),
    ("trajectories", "evidence", "q=claude"),
    ("trajectories", "event", "type=tool_call&ok__exact=0"),
    ("trajectories", "vendorrequest", "direction=webhook"),
    ("ingest", "importrecord", "action=import"),
    ("ingest", "importlock", ""),
]


@pytest.mark.parametrize(("app", "model", "query"), BROWSE, ids=[m for _, m, _ in BROWSE])
def test_staff_can_search_and_filter_but_not_edit(bench, app, model, query):
    client = Client()
    client.force_login(make_user("stafford"))  # staff, no model permissions
    changelist = client.get(reverse(f"admin:{app}_{model}_changelist") + f"?{query}")
    assert changelist.status_code == 200
    assert "?e=1" not in changelist.get("Location", "")  # an unknown filter redirects
    assert client.get(reverse(f"admin:{app}_{model}_add")).status_code == 403


def test_a_scored_row_is_shown_read_only(bench, superuser_client):
    attempt = Attempt.objects.released().first()
    url = reverse("admin:leaderboard_attempt_change", args=[attempt.pk])
    page = superuser_client.get(url)
    assert page.status_code == 200
    assert 'name="score"' not in page.content.decode()
    superuser_client.post(url, {"score": "1"})
    assert Attempt.objects.get(pk=attempt.pk).score == attempt.score
    delete = reverse("admin:leaderboard_attempt_delete", args=[attempt.pk])
    assert superuser_client.post(delete, {"post": "yes"}).status_code == 403
