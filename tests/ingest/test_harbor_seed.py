"""The seed's ibench table from Harbor jobs, and the Harbor → v1 → import round trip."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from ingest.writing.export import release_export
from leaderboard.models import Attempt, Bench, CheckResult
from samplegen.harbor import MODELS, write_sample_harbor
from tests.ingest.harbor_trials import import_harbor
from tests.ingest.roundtrip import release_differences
from trajectories.models import Blob, Event

pytestmark = pytest.mark.django_db

SEED = [
    ("GPT-6 Astra", "codex", "34.1% (15/44)"),
    ("Claude Opus 5.5", "claude-code", "27.3% (12/44)"),
    ("Gemini 4 Pro", "gemini-cli", "15.9% (7/44)"),
    ("Claude Sonnet 4.5", "opencode", "9.1% (4/44)"),
    ("Qwen 4 Coder", "terminus-2", "6.8% (3/44)"),
    ("Devstral 3", "mini-swe-agent", "4.5% (2/44)"),
]


@pytest.fixture(scope="module")
def seed_jobs(tmp_path_factory):
    root = tmp_path_factory.mktemp("seed") / "jobs"
    write_sample_harbor(root, tasks=44, extra_trials=False)
    return root


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def load(seed_jobs) -> None:
    import_harbor(
        seed_jobs,
        bench="interaction-bench",
        models=str(seed_jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )


def test_the_sample_has_the_seed_pass_counts():
    assert [m[4] for m in MODELS] == [15, 12, 7, 4, 3, 2]


def test_the_seed_table_in_the_page_and_in_leaderboard_json(seed_jobs, client):
    load(seed_jobs)
    html = body(client.get(reverse("bench", args=["interaction-bench"])))
    positions = [html.index(rate) for _, _, rate in SEED]
    assert positions == sorted(positions)  # rows in the seed's order
    rows = re.findall(r"<tr.*?</tr>", html, re.S)
    for name, harness, rate in SEED:
        (row,) = [r for r in rows if rate in r]
        assert name in row and f">{harness}<" in row
    doc = json.loads(body(client.get("/data/v1/interaction-bench/leaderboard.json")))
    got = [(r["display_name"], r["harness"], r["pass_rate"]) for r in doc["rows"]]
    assert got == SEED
    assert [r["rank"] for r in doc["rows"]] == [1, 2, 3, 4, 5, 6]
    assert [(r["passed"], r["tasks"]) for r in doc["rows"]] == [
        (15, 44),
        (12, 44),
        (7, 44),
        (4, 44),
        (3, 44),
        (2, 44),
    ]


def _state() -> dict:
    attempts = {
        (a.model.slug, a.task.slug): (a.score, tuple(a.flags))
        for a in Attempt.objects.select_related("model", "task")
    }
    checks = sorted(
        CheckResult.objects.values_list(
            "attempt__model__slug", "attempt__task__slug", "name", "passed"
        )
    )
    events = sorted(
        Event.objects.values_list(
            "attempt__model__slug", "attempt__task__slug", "index", "type", "ok", "exit_code"
        )
    )
    return {"attempts": attempts, "checks": checks, "events": events}


def test_harbor_then_export_then_import_release_keeps_scores_checks_and_events(seed_jobs, tmp_path):
    load(seed_jobs)
    before = _state()
    first = tmp_path / "first"
    release_export(bench=Bench.objects.get(slug="interaction-bench"), root=first)
    Bench.objects.all().delete()
    Blob.objects.all().delete()
    call_command("import_release", str(first), stdout=io.StringIO(), stderr=io.StringIO())
    assert _state() == before
    second = tmp_path / "second"
    release_export(bench=Bench.objects.get(slug="interaction-bench"), root=second)
    assert release_differences(first, second) == []
