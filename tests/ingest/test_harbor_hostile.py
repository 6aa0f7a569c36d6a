"""One malformed trajectory in a Harbor job costs its own attempt its events, never the import."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from leaderboard.models import Attempt
from tests.ingest.harbor_trials import atif, job, trial

pytestmark = pytest.mark.django_db

CODEX_LOG = [
    {"type": "thread.started", "thread_id": "t-1"},
    {"type": "turn.started"},
    {
        "type": "item.completed",
        "item": {"id": "item_0", "type": "agent_message", "text": "done"},
    },
    {"type": "turn.completed", "usage": "x"},
]


def harbor(*paths, **options) -> str:
    out = io.StringIO()
    call_command(
        "import_harbor", *map(str, paths), bench="hb", stdout=out, stderr=io.StringIO(), **options
    )
    return out.getvalue()


def bad_ids_atif() -> dict:
    doc = atif()
    doc["steps"][1]["tool_calls"][0]["tool_call_id"] = {"x": 1}
    return doc


def test_an_atif_tool_call_id_that_is_an_object_only_flags_its_attempt(tmp_path):
    j = job(tmp_path)
    trial(j, "t1", trajectory=bad_ids_atif())
    trial(j, "t2")
    for dry_run in (True, False):
        harbor(tmp_path, dry_run=dry_run)
    flags = dict(Attempt.objects.values_list("task__slug", "flags"))
    assert "atif-invalid" in flags["t1"] and "atif-invalid" not in flags["t2"]


def test_a_codex_log_whose_usage_is_no_object_imports(tmp_path):
    log = "".join(json.dumps(line) + "\n" for line in CODEX_LOG).encode()
    trial(job(tmp_path), "t1", agent="codex", model="gpt-5", raw_log=log)
    harbor(tmp_path)
    attempt = Attempt.objects.select_related("evidence").get()
    assert attempt.evidence.events_total >= 1
