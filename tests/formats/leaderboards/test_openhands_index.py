"""OpenHands' index results: one folder feeds a bench per benchmark;
instance_results are attempts, a score without them a published-only row
(docs/formats.md)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from formats.sources.openhands_index.adapter import ADAPTER
from formats.sources.openhands_index.folders import model_id
from formats.sources.protocol import ImportOptions
from formats.sources.registry import detect
from leaderboard.models import Attempt, Bench, Disagreement
from tests.factories import dump
from tests.formats.leaderboards.fixtures import write_index


def run(path, bench="oh", **options) -> str:
    out = io.StringIO()
    call_command(
        "import_results", str(path), bench=bench, stdout=out, stderr=io.StringIO(), **options
    )
    return out.getvalue()


def test_it_is_detected_by_content_and_gives_a_source_per_benchmark(tmp_path):
    root = write_index(tmp_path / "index")
    assert detect([root]) is ADAPTER
    assert detect([root / "results"]) is ADAPTER
    sources = ADAPTER.open_all([root], options=ImportOptions(bench="oh"))
    assert [s.bench.id for s in sources] == ["oh-gaia", "oh-swe-bench"]
    gaia, swe = sources
    assert set(swe.models) == {"model-x", "open-model-y", "acp-codex-model-x"}
    assert gaia.models["open-model-y"].published_only is True
    assert gaia.models["model-x"].published_only is False
    assert swe.models["acp-codex-model-x"].display_name == "Model-X (acp-codex)"
    assert model_id("results/GPT-5.4/") == "gpt-5.4"


@pytest.mark.django_db
def test_one_folder_feeds_a_bench_per_benchmark_with_the_published_scores(tmp_path, client):
    run(write_index(tmp_path / "index"))
    swe = Bench.objects.get(slug="oh-swe-bench")
    models = {m.slug: m for m in swe.models.all()}
    assert (models["model-x"].score, models["model-x"].passed) == (0.75, 3)
    assert models["open-model-y"].score == 0.5
    # The alternative agent lists 3 of the 4 instances: 1 of 4 on the site,
    # which is its published 25.0 (published over the full set too).
    alt = models["acp-codex-model-x"]
    assert (alt.score, alt.tasks, alt.flagged) == (0.25, 4, 1)
    assert not Disagreement.objects.filter(bench=swe).exists()
    gaia = Bench.objects.get(slug="oh-gaia")
    x, y = gaia.models.get(slug="model-x"), gaia.models.get(slug="open-model-y")
    # 2 of 3 (one outcome unknown: no verdict, flagged), published 66.7: within its rounding.
    assert (x.score, x.flagged) == (pytest.approx(2 / 3), 1)
    assert not Disagreement.objects.filter(bench=gaia).exists()
    unknown = Attempt.objects.get(model=x, task__slug="023e9d44-96ae")
    assert unknown.verdict is None and "missing-verdict" in unknown.flags
    assert y.published_only and y.score == pytest.approx(0.333) and y.rank == 2
    rows = client.get(reverse("mirror-leaderboard", args=["oh-gaia"])).json()["rows"]
    by = {r["model"]: r for r in rows}
    assert by["open-model-y"]["published_only"] is True
    assert by["model-x"]["openhands_index"]["metric"] == "accuracy"
    api = client.get(reverse("api-model-list"), {"bench": "oh-swe-bench"}).json()["results"]
    facts = {m["id"]: (m["open_weights"], m["results_date"]) for m in api}
    assert facts["open-model-y"] == (True, "2026-04-22")
    assert facts["model-x"] == (False, "2026-04-22")


@pytest.mark.django_db
def test_a_difference_beyond_the_published_rounding_is_shown(tmp_path):
    root = write_index(tmp_path / "index")
    scores = root / "results" / "Model-X" / "scores.json"
    doc = json.loads(scores.read_text())
    doc[0]["score"] = 80.0  # the instances say 75.0
    scores.write_text(json.dumps(doc))
    run(root)
    found = Disagreement.objects.get(bench__slug="oh-swe-bench")
    assert (found.model.slug, found.published, found.recomputed) == ("model-x", 0.8, 0.75)


@pytest.mark.django_db
def test_a_broken_instance_file_is_refused_naming_it_and_nothing_is_written(tmp_path):
    root = write_index(tmp_path / "index")
    broken = root / "results" / "open-model-y" / "instance_results" / "swe-bench.json"
    broken.write_text(json.dumps({"django__django-2": {"resolved": "yes", "cost": 1}}))
    (root / "results" / "Model-X" / "instance_results" / "gaia.json").write_bytes(b"{\xff}")
    before = dump()
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(root), bench="oh", stdout=io.StringIO(), stderr=err)
    said = str(caught.value)
    assert "results/open-model-y/instance_results/swe-bench.json: django__django-2.resolved" in said
    assert "results/Model-X/instance_results/gaia.json: not UTF-8" in said
    assert dump() == before


@pytest.mark.django_db
def test_importing_the_same_folder_again_changes_nothing(tmp_path):
    root = write_index(tmp_path / "index")
    run(root)
    before = dump()
    assert run(root).count("nothing changed") == 2
    assert dump() == before
