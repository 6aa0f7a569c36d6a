"""swebench.com's leaderboards.json: a bench per leaderboard, written all or
none; entries with per-instance details as full matrix rows, the others
published-only (docs/formats.md)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from formats.sources.instances import percent_precision
from formats.sources.protocol import ImportOptions, SourceError
from formats.sources.registry import detect
from formats.sources.swebench_leaderboards.adapter import ADAPTER
from formats.sources.swebench_leaderboards.entries import read_boards, slugify
from ingest.models import ImportRecord
from leaderboard.models import Bench, Disagreement, Model
from tests.factories import dump, import_path
from tests.formats.leaderboards.fixtures import INSTANCES, leaderboards, write_leaderboards

A, B = "20251124_mini-v1.16.0_model-a", "20251124_mini-v1.16.0_model-b"


def run(path, bench="swe", **options) -> str:
    out = io.StringIO()
    call_command(
        "import_results", str(path), bench=bench, stdout=out, stderr=io.StringIO(), **options
    )
    return out.getvalue()


def refused(path, bench="swe") -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_results", str(path), bench=bench, stdout=io.StringIO(), stderr=err)
    return f"{caught.value}\n{err.getvalue()}"


# -- reading, no database ----------------------------------------------------------------------


def test_it_is_detected_by_content_whatever_the_file_is_called(tmp_path):
    path = write_leaderboards(tmp_path / "in")
    renamed = path.rename(tmp_path / "in" / "board.txt")
    assert detect([renamed]) is ADAPTER
    assert detect([tmp_path / "in"]) is ADAPTER  # a folder holding it
    (tmp_path / "other.json").write_text(json.dumps({"leaderboards": "no"}))
    assert not ADAPTER.detect([tmp_path / "other.json"])


def test_each_leaderboard_is_a_source_named_after_the_prefix():
    boards, problems = read_boards(leaderboards(), "leaderboards.json")
    assert problems == []
    assert [b.slug for b in boards] == ["verified", "lite"]
    ids = [e.id for e in boards[0].entries]
    assert ids[:2] == [A.lower(), B.lower()]
    assert {e.name for e in boards[0].entries if "warp" in e.id} == {"Warp"}
    assert slugify("20250101_<x>") == "20250101_-x"


def test_every_bad_value_is_named_by_file_and_json_path():
    doc = leaderboards()
    doc["leaderboards"][0]["results"][0]["resolved"] = "75%"
    doc["leaderboards"][0]["results"][1]["per_instance_details"][INSTANCES[0]]["resolved"] = "yes"
    doc["leaderboards"][1]["results"][1]["folder"] = doc["leaderboards"][1]["results"][0]["folder"]
    doc["leaderboards"][1]["results"][0]["os_model"] = "maybe"
    _, problems = read_boards(doc, "leaderboards.json")
    assert problems == [
        "leaderboards.json: leaderboards[0].results[0].resolved: "
        "expected a percentage from 0 to 100",
        "leaderboards.json: leaderboards[0].results[1].per_instance_details."
        f"{INSTANCES[0]}.resolved: expected true or false",
        "leaderboards.json: leaderboards[1].results[0].os_model: expected true, false, null or "
        "a note starting so",
        "leaderboards.json: leaderboards[1].results[1].folder: '20250625_experepair' is also "
        "results[0]'s folder (id '20250625_experepair')",
    ]


def test_a_checked_note_reads_as_its_answer_and_is_kept():
    boards, _ = read_boards(leaderboards(), "leaderboards.json")
    noted = boards[1].entries[0]
    assert noted.checked is False and noted.extra["checked_note"] == "false (See README.md)"


def test_the_precision_of_a_published_percentage_is_half_its_last_decimal():
    assert percent_precision(74.4) == pytest.approx(0.0005)
    assert percent_precision(64.93) == pytest.approx(0.00005)
    assert percent_precision(75) == pytest.approx(0.005)


def test_open_refuses_several_leaderboards_and_open_all_gives_one_source_each(tmp_path):
    path = write_leaderboards(tmp_path)
    with pytest.raises(SourceError, match="2 leaderboards make 2 benches"):
        ADAPTER.open([path], options=ImportOptions(bench="swe"))
    sources = ADAPTER.open_all([path], options=ImportOptions(bench="swe"))
    assert [s.bench.id for s in sources] == ["swe-verified", "swe-lite"]
    verified = sources[0]
    assert sorted(verified.tasks) == sorted(slugify(i) for i in INSTANCES)
    attempts = list(verified.attempts())
    assert len(attempts) == 4 + 3
    only = {m.id for m in verified.models.values() if m.published_only}
    assert only == {"20250901_warp", "20250601_warp", "20250101_-x"}
    assert verified.models[A.lower()].published_score == pytest.approx(0.75)


# -- through the import ------------------------------------------------------------------------


@pytest.mark.django_db
def test_one_import_makes_a_bench_per_leaderboard(tmp_path):
    said = run(write_leaderboards(tmp_path))
    assert "imported swe-verified" in said and "imported swe-lite" in said
    verified = Bench.objects.get(slug="swe-verified")
    assert verified.title == "Swe Verified" and verified.is_pass_fail
    lite = Bench.objects.get(slug="swe-lite")
    assert lite.models.count() == 2
    # No attempts: dated by its entries' latest date, not the epoch.
    assert lite.revision == "2025-11-24"
    records = ImportRecord.objects.order_by("pk")
    assert [(r.bench, r.outcome) for r in records] == [
        ("swe-verified", "applied"),
        ("swe-lite", "applied"),
    ]


@pytest.mark.django_db
def test_entries_with_details_are_recomputed_and_the_others_placed_by_their_published_score(
    tmp_path,
):
    run(write_leaderboards(tmp_path))
    bench = Bench.objects.get(slug="swe-verified")
    models = {m.slug: m for m in bench.models.all()}
    a, b = models[A.lower()], models[B.lower()]
    # A: 3 of 4, as published. B: 2 of the 3 it lists, published over 3; the
    # site counts the bench's 4 instances (the fourth failed: no attempt).
    assert (a.score, a.passed, a.tasks) == (0.75, 3, 4)
    assert (b.score, b.passed, b.tasks, b.flagged) == (0.5, 2, 4, 1)
    assert b.published_score == pytest.approx(0.6667)
    found = Disagreement.objects.get(bench=bench)
    assert (found.model_id, found.field, found.recomputed) == (b.pk, "score", 0.5)
    warp = [m for m in models.values() if m.display_name == "Warp"]
    assert sorted(m.score for m in warp) == [pytest.approx(0.502), pytest.approx(0.80)]
    assert all(m.published_only and m.rank_low is None and m.tasks == 0 for m in warp)
    ranked = [m.slug for m in bench.models.ranked()]
    assert ranked[:3] == ["20250901_warp", A.lower(), "20250601_warp"]
    # The published-only rows count in the others' rank ranges: B, alone with
    # A it could rank no worse than 2, falls below rows published at 80%-10%.
    assert b.rank_high >= 4 and a.rank_low == 1


@pytest.mark.django_db
def test_leaderboard_json_rows_carry_the_row_fields(tmp_path, client):
    run(write_leaderboards(tmp_path))
    rows = client.get(reverse("mirror-leaderboard", args=["swe-verified"])).json()["rows"]
    by = {r["model"]: r for r in rows}
    a = by[A.lower()]
    assert (a["passed"], a["trials"], a["tasks"]) == (3, 4, 4)
    assert a["pass_at_k"] == {"1": 0.75}
    assert a["published_score"] == pytest.approx(0.75) and a["published_only"] is False
    assert a["swebench"]["resolved"] == 75.0  # the entry's own figures, as published
    warp = by["20250901_warp"]
    assert warp["published_only"] is True and warp["published_score"] == pytest.approx(0.8)
    assert (warp["passed"], warp["trials"], warp["pass_at_k"]) == (None, None, {})
    matrix = client.get(reverse("mirror-matrix", args=["swe-verified"])).json()
    assert set(matrix["cells"]) == {A.lower(), B.lower()}


@pytest.mark.django_db
def test_entry_metadata_is_shown_filterable_and_in_csv_and_api(tmp_path, client):
    run(write_leaderboards(tmp_path))
    url = reverse("bench", args=["swe-verified"])
    page = client.get(url).content.decode()
    assert "Acme Labs" in page and 'href="https://example.org/agent"' in page
    assert "javascript:alert" not in page  # a site that is not http(s) is not linked
    assert '<script>alert("x")' not in page and "&lt;script&gt;" in page
    shown = client.get(url, {"open_weights": "1"}).content.decode()
    assert "Model B" in shown and "Model A" not in shown
    csv_rows = {
        r["model"]: r
        for r in csv.DictReader(io.StringIO(client.get(url, {"format": "csv"}).content.decode()))
    }
    assert csv_rows[A.lower()]["organisation"] == "Acme Labs"
    assert csv_rows[A.lower()]["results_date"] == "2025-11-24"
    assert csv_rows["20250901_warp"]["verified"] == "False"
    assert csv_rows["20250901_warp"]["published_only"] == "True"
    api = client.get(reverse("api-model-list"), {"bench": "swe-verified"}).json()["results"]
    by = {m["id"]: m for m in api}
    assert by[B.lower()]["open_weights"] is True and by[A.lower()]["open_system"] is True
    assert by[A.lower()]["site"] == "https://example.org/agent"
    assert by["20250601_warp"]["published_only"] is True
    # The home page's top rows give a published-only row its published figure.
    home = client.get(reverse("home")).content.decode()
    assert "80.0% (published)" in home


@pytest.mark.django_db
def test_importing_the_same_file_again_changes_nothing(tmp_path):
    path = write_leaderboards(tmp_path)
    run(path)
    before = dump()
    said = run(path)
    assert said.count("nothing changed") == 2
    assert dump() == before


@pytest.mark.django_db
def test_a_broken_file_is_refused_naming_it_and_nothing_is_written(tmp_path):
    doc = leaderboards()
    doc["leaderboards"][1]["results"][0]["resolved"] = -3
    said = refused(write_leaderboards(tmp_path, doc))
    assert "leaderboards.json: leaderboards[1].results[0].resolved" in said
    assert not Bench.objects.exists()
    (tmp_path / "leaderboards.json").write_bytes(b'{"leaderboards": [{"name": "V\xff"}]}')
    said = refused(tmp_path / "leaderboards.json")
    assert "leaderboards.json: not UTF-8" in said
    assert not Bench.objects.exists()


@pytest.mark.django_db
def test_when_one_bench_is_refused_none_is_written(tmp_path, small_release_dir):
    # A v1 release already holds the bench the second leaderboard would write.
    import_path(small_release_dir)
    doc = leaderboards()
    doc["leaderboards"][1]["name"] = "bench"  # --bench integration: integration-bench
    before = dump()
    said = refused(write_leaderboards(tmp_path, doc), bench="integration")
    assert "integration-bench" in said
    assert dump() == before
    assert not Bench.objects.filter(slug="integration-verified").exists()
    records = ImportRecord.objects.filter(source_name__contains="leaderboards.json")
    outcomes = dict(records.values_list("bench", "outcome"))
    assert outcomes == {"integration-verified": "refused", "integration-bench": "refused"}
    stopped = ImportRecord.objects.get(bench="integration-verified")
    assert "integration-bench of the same import was refused" in stopped.message


@pytest.mark.django_db
def test_a_dry_run_checks_every_bench_and_writes_none(tmp_path):
    said = run(write_leaderboards(tmp_path), dry_run=True)
    assert said.count("dry run: nothing was written") == 2
    assert not Bench.objects.exists() and not Model.objects.exists()
