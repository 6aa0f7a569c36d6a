"""export_release after import_release gives the release back (docs/release-format.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from ingest.writing.export import ExportRefused, release_export
from leaderboard import documents
from leaderboard.models import Bench
from leaderboard.services import batch_publish
from samplegen.release import generate_release
from tests.factories import edit_json, import_path
from tests.ingest.roundtrip import json_differences, release_differences
from trajectories.models import Blob

pytestmark = pytest.mark.django_db


def _export(bench: Bench, root: Path) -> Path:
    release_export(bench=Bench.objects.get(pk=bench.pk), root=root)
    return root


def _fresh_database() -> None:
    """What a new database holds of leaderboard and trajectories: nothing."""
    Bench.objects.all().delete()
    Blob.objects.all().delete()


def test_export_after_import_gives_back_every_file_of_the_sample_release(
    small_release_dir, tmp_path
):
    bench = import_path(small_release_dir).bench
    exported = _export(bench, tmp_path / "export")
    assert release_differences(small_release_dir, exported) == []


def test_an_export_imported_into_a_fresh_database_exports_the_same_files(
    small_release_dir, tmp_path
):
    first = _export(import_path(small_release_dir).bench, tmp_path / "first")
    _fresh_database()
    second = _export(import_path(first).bench, tmp_path / "second")
    assert release_differences(first, second) == []


def _attempt_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "attempts").glob("*/*") if p.is_dir())


def _make_edge_cases(root: Path) -> None:
    """Unknown fields at several depths, null beside absent, no vendor log, no
    patch, Unicode and a NUL in a tool output and a ticket; scores are left as
    they are."""

    def manifest(doc):
        doc["x_top"] = {"nested": [1, {"deep": None}]}
        doc["batches"][0]["x_batch_note"] = "first batch"
        doc["counts"]["x_events"] = 12345

    def leaderboard(doc):
        doc["x_generated_by"] = "hand"
        row = doc["rows"][0]
        row["x_row"] = [True, False, None]
        next(iter(row["by_surface"].values()))["x_surface"] = "ünïcödé"

    def matrix(doc):
        doc["x_matrix"] = 1.5
        doc["tasks"][0]["x_entry"] = {"a": "b"}

    edit_json(root / "manifest.json", manifest)
    edit_json(root / "leaderboard.json", leaderboard)
    edit_json(root / "matrix.json", matrix)
    model_file = sorted((root / "models").glob("*.json"))[0]

    def model(doc):
        doc["model"]["x_family"] = "test"
        doc["aggregate"]["x_note"] = None
        if doc["attempts"]:
            doc["attempts"][0]["x_row"] = {"k": [1, 2]}

    edit_json(model_file, model)
    task_file = sorted((root / "tasks").glob("*.json"))[0]

    def task(doc):
        doc["task"]["x_owner"] = "team ü"
        doc["ticket"] += "\n\nA NUL \u0000 pasted from a log."
        doc["checks"][0]["x_weight"] = 2
        if doc["results"]:
            doc["results"][0]["x_result"] = "kept"

    edit_json(task_file, task)

    folders = _attempt_dirs(root)
    with_verdict = [f for f in folders if (f / "verdict.json").exists()]
    first, second, third = with_verdict[0], with_verdict[1], with_verdict[2]

    def summary(doc):
        doc["x_summary"] = {"deep": {"deeper": [None]}}
        doc["cost"]["cache_read_tokens"] = None  # null stays null
        doc["cost"].pop("cache_write_tokens", None)  # absent stays absent
        doc["provenance"]["run_id"] = None
        doc["timing"]["x_tz"] = "UTC"

    edit_json(first / "summary.json", summary)

    def verdict(doc):
        doc["x_verdict"] = True
        doc["grader"]["x_build"] = "abc"
        doc["checks"][0]["x_check"] = {"why": "日本語"}
        doc["checks"][-1]["detail"] = None

    edit_json(first / "verdict.json", verdict)

    def trajectory(doc):
        doc["x_trajectory"] = "kept"
        for event in doc["events"]:
            if event["type"] == "tool_call" and event["result"] is not None:
                event["result"]["output"] = "bad byte \u0000 then naïve — 日本語 🙂"
                event["result"]["x_result"] = None
                break
        doc["events"][0]["x_event"] = {"nul": "a\u0000b"}
        for event in doc["events"]:
            if event["type"] == "message":
                event["text"] = "Unicode: 🙂 ünïcödé, emoji and \u2028 separators"
                break

    edit_json(first / "trajectory.json", trajectory)

    def vendor_log(doc):
        doc["x_log"] = 1
        vendor = next(iter(doc["vendors"]))
        if doc["vendors"][vendor]:
            doc["vendors"][vendor][0]["x_entry"] = {"h": None}
            doc["vendors"][vendor][0]["query"] = None

    if (first / "vendor-requests.json").exists():
        edit_json(first / "vendor-requests.json", vendor_log)
    (first / "problem.md").write_bytes("# Ticket ü\n\nno trailing newline 🙂".encode())
    (first / "transcript.jsonl").write_bytes(b'{"a": "\\u0000"}\r\n{"b": "\xc3\xbc"}\n\n')

    # No vendor log: drop the file and the verdict's references to it.
    (second / "vendor-requests.json").unlink(missing_ok=True)

    def no_refs(doc):
        for check in doc["checks"]:
            check.pop("requests", None)

    edit_json(second / "verdict.json", no_refs)
    # No patch: an optional file the attempt may lack.
    (third / "patch.diff").unlink(missing_ok=True)

    def no_patch_hash(doc):
        doc["hashes"].pop("patch", None)

    edit_json(third / "summary.json", no_patch_hash)


def test_the_round_trip_keeps_hand_made_edge_cases(release_copy, tmp_path):
    _make_edge_cases(release_copy)
    assert any(not (f / "verdict.json").exists() for f in _attempt_dirs(release_copy))
    first = _export(import_path(release_copy).bench, tmp_path / "first")
    assert release_differences(release_copy, first) == []
    _fresh_database()
    second = _export(import_path(first).bench, tmp_path / "second")
    assert release_differences(first, second) == []


def test_the_comparison_notices_a_changed_number_a_missing_key_and_a_changed_byte(tmp_path):
    # The round-trip tests are only as good as the comparison they rely on.
    assert json_differences({"a": 1.0}, {"a": 1.0 + 1e-12}) == []
    assert json_differences({"a": 1.0}, {"a": 1.001}) != []
    assert json_differences({"a": None}, {}) != []
    assert json_differences([1, 2], [2, 1]) != []
    assert json_differences({"a": True}, {"a": 1}) != []
    # A key the site adds may be in the rebuilt document alone, never the other way.
    assert json_differences({}, {"rank_low": 1}, added=frozenset({"rank_low"})) == []
    assert json_differences({"rank_low": 1}, {}, added=frozenset({"rank_low"})) != []
    one, two = tmp_path / "one", tmp_path / "two"
    for root, text in ((one, b"x\n"), (two, b"x\r\n")):
        root.mkdir()
        (root / "patch.diff").write_bytes(text)
    assert release_differences(one, two) == ["patch.diff: bytes differ"]


@pytest.fixture(scope="module")
def two_batch_release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("two-batches") / "release"
    generate_release(root, models=3, tasks=14, released=12, seed=11)
    return root


def test_export_leaves_out_staged_batches_as_if_never_released(two_batch_release, tmp_path):
    bench = import_path(two_batch_release).bench
    staged = bench.batches.get(number=2)
    batch_publish(batch=staged, live=False)
    staged_tasks = set(staged.tasks.values_list("slug", flat=True))
    assert staged_tasks

    exported = _export(bench, tmp_path / "export")

    manifest = json.loads((exported / "manifest.json").read_text())
    assert [b["id"] for b in manifest["batches"]] == [1]
    live_attempts = len(list((exported / "attempts").glob("*/*")))
    assert manifest["counts"]["released_tasks"] == 10
    assert manifest["counts"]["attempts"] == live_attempts
    matrix = json.loads((exported / "matrix.json").read_text())
    assert {t["id"] for t in matrix["tasks"] if not t["released"]} >= staged_tasks
    assert not any((exported / "tasks" / f"{t}.json").exists() for t in staged_tasks)
    assert not any(p.name in staged_tasks for p in (exported / "attempts").glob("*/*"))
    for path in (exported / "models").glob("*.json"):
        doc = json.loads(path.read_text())
        assert not {row["task"] for row in doc["attempts"]} & staged_tasks
        assert doc["aggregate"]["cost_usd"] == pytest.approx(
            sum(row["cost_usd"] for row in doc["attempts"])
        )

    # The export is a release of its own: it imports cleanly and agrees with itself.
    _fresh_database()
    reimported = import_path(exported).bench
    assert not reimported.disagreements.exists()
    assert release_differences(exported, _export(reimported, tmp_path / "again")) == []


def test_live_only_documents_equal_the_normal_ones_for_a_fully_live_bench(imported):
    for build in (
        documents.manifest_document,
        documents.leaderboard_document,
        documents.matrix_document,
        documents.model_documents,
    ):
        assert build(imported, live_only=True) == build(imported)


def test_export_release_refuses_a_folder_that_is_not_empty(imported, tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(ExportRefused):
        release_export(bench=imported, root=tmp_path)
    assert (tmp_path / "keep.txt").exists()


def test_the_export_release_command_writes_an_importable_release(imported, tmp_path):
    target = tmp_path / "out"
    call_command("export_release", imported.slug, str(target))
    assert (target / "manifest.json").exists()
    # Same release as JSON, so re-importing it over itself changes no figure.
    result = import_path(target)
    assert result.plan.ok
    assert not result.bench.disagreements.exists()
