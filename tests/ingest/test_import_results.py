"""import_results: every registered format through one door, detected by content.

Terminal-Bench runs are the format it adds; a release and Harbor jobs go
through the same door with the format fixed or detected."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from core import jsonsafe
from ingest.models import ImportRecord
from leaderboard.extras import item_key
from leaderboard.models import Attempt, Bench, Disagreement
from samplegen.terminal_bench import write_submission

pytestmark = pytest.mark.django_db

TASKS = ["hello-world", "fix-permissions", "csv-to-parquet", "git-multibranch"]


def submission(root: Path, folder="20250101_agent_model", **kw) -> Path:
    options = {"runs": 2, "attempts": 1, "folders": True, "tasks": TASKS, **kw}
    write_submission(root, folder, "agent", "vendor/model", **options)
    return root / folder


def run(*paths, bench="tb", **options) -> str:
    out = io.StringIO()
    call_command(
        "import_results", *map(str, paths), bench=bench, stdout=out, stderr=io.StringIO(), **options
    )
    return out.getvalue()


def refused(*paths, bench="tb", **options) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "import_results",
            *map(str, paths),
            bench=bench,
            stdout=io.StringIO(),
            stderr=err,
            **options,
        )
    return f"{caught.value}\n{err.getvalue()}"


def row(bench: Bench, model: str) -> dict:
    rows = bench.extras["leaderboard.json"]["rows"]["__items__"]
    return jsonsafe.unpack(rows[item_key(model)]["__extra__"])


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_terminal_bench_runs_are_detected_and_scored_from_is_resolved(tmp_path):
    sub = submission(tmp_path)
    out = run(sub)
    assert "format: terminal-bench (detected)" in out
    bench = Bench.objects.get(slug="tb")
    assert bench.scoring_rule == "reward-threshold"
    attempts = Attempt.all_trials.filter(bench=bench)
    assert attempts.count() == 2 * len(TASKS)
    runs = [json.loads(p.read_text()) for p in sorted(sub.glob("*/results.json"))]
    entries = [e for r in runs for e in r["results"]]
    assert attempts.filter(score=1.0).count() == sum(1 for e in entries if e["is_resolved"])
    extra = row(bench, "20250101-agent-model")
    accuracy = sum(r["accuracy"] for r in runs) / len(runs)
    published = extra["x-harbor-result"]
    assert published["accuracy"] == pytest.approx(accuracy)
    assert published["passed"] == sum(r["n_resolved"] for r in runs)
    assert [r["accuracy"] for r in published["runs"]] == [r["accuracy"] for r in runs]
    assert not Disagreement.objects.filter(bench=bench).exists()


def test_a_published_figure_that_differs_is_stored_as_a_disagreement(tmp_path):
    sub = submission(tmp_path, runs=1)
    doc = json.loads((sub / "results.json").read_text())
    doc["n_resolved"] += 1  # the run says one more than its trials do
    (sub / "results.json").write_text(json.dumps(doc))
    run(sub)
    found = Disagreement.objects.filter(bench__slug="tb")
    assert found.exists()


def test_the_runs_mean_accuracy_is_the_published_score_and_a_difference_is_stored(tmp_path):
    sub = submission(tmp_path)
    files = sorted(sub.glob("*/results.json"))
    docs = [json.loads(p.read_text()) for p in files]
    run(sub)
    bench = Bench.objects.get(slug="tb")
    mean = sum(d["accuracy"] for d in docs) / len(docs)
    assert row(bench, "20250101-agent-model")["published_score"] == pytest.approx(mean)
    assert not Disagreement.objects.filter(bench=bench, field="score").exists()

    # Only the accuracy is changed: the counts agree, the score does not.
    docs[0]["accuracy"] = 1.0
    files[0].write_text(json.dumps(docs[0]))
    run(sub)
    found = Disagreement.objects.get(bench=bench)
    assert (found.model.slug, found.task, found.field) == ("20250101-agent-model", None, "score")
    assert found.published == pytest.approx((1.0 + docs[1]["accuracy"]) / 2)
    assert found.recomputed == pytest.approx(bench.models.get().score)


def test_importing_the_same_runs_again_changes_nothing(tmp_path):
    sub = submission(tmp_path)
    run(sub)
    assert "nothing changed" in run(sub)


def test_the_trajectory_shows_what_was_typed_and_links_the_recording(tmp_path, client):
    sub = submission(tmp_path, runs=1)
    doc = json.loads((sub / "results.json").read_text())
    doc["results"][0]["instruction"] = "<script>alert(1)</script> fix it"
    (sub / "results.json").write_text(json.dumps(doc))
    run(sub)
    task = doc["results"][0]["task_id"]
    attempt = Attempt.objects.get(task__slug=task)
    tools = list(attempt.events.filter(type="tool_call").values_list("tool", flat=True))
    assert tools and set(tools) == {"terminal"}
    html = body(client.get(reverse("attempt", args=["tb", attempt.model.slug, task])))
    assert "bash run.sh" in html
    assert "<script>alert(1)</script>" not in html
    transcript = reverse("attempt-transcript", args=["tb", attempt.model.slug, task])
    assert transcript in html


def test_results_files_only_import_with_scores_and_no_events(tmp_path):
    sub = submission(tmp_path, folders=False)
    run(sub)
    attempts = Attempt.all_trials.filter(bench__slug="tb")
    assert attempts.count() == 2 * len(TASKS)
    assert not any(a.events.exists() for a in attempts)
    assert all("no-trajectory" in a.flags for a in attempts)


def test_home_paths_in_a_recording_are_scrubbed_by_default_and_refused_without(tmp_path):
    sub = submission(tmp_path, runs=1)
    cast = next(sub.rglob("agent.cast"))
    cast.write_bytes(cast.read_bytes() + b'[9.0, "o", "/home/alice/secret\\r\\n"]\n')
    text = refused(sub, scrub=False)
    assert "/home/alice/" in text and "nothing was written" in text
    assert not Bench.objects.filter(slug="tb").exists()
    out = run(sub)
    assert "scrubbed" in out
    transcripts = [
        a.evidence.transcript.read()
        for a in Attempt.all_trials.filter(bench__slug="tb").select_related("evidence__transcript")
    ]
    assert any(b"secret" in t for t in transcripts)
    assert not any(b"/home/alice/" in t for t in transcripts)


def test_options_a_format_does_not_take_are_refused_by_name(tmp_path):
    sub = submission(tmp_path, runs=1)
    text = refused(sub, pass_threshold=0.5)
    assert "terminal-bench: does not take threshold" in text
    assert not Bench.objects.filter(slug="tb").exists()


def test_a_path_of_no_known_format_lists_what_was_looked_for(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    text = refused(tmp_path)
    assert "not a format Benchview reads; looked for:" in text
    for name in ("release:", "harbor:", "terminal-bench:"):
        assert name in text


def test_a_broken_entry_refuses_the_import_naming_file_and_path(tmp_path):
    sub = submission(tmp_path, runs=1)
    doc = json.loads((sub / "results.json").read_text())
    doc["results"][2]["is_resolved"] = "true"
    (sub / "results.json").write_text(json.dumps(doc))
    text = refused(sub)
    assert f"{sub.name}/results.json: results[2].is_resolved: expected true, false or null" in text
    assert not Bench.objects.filter(slug="tb").exists()
    assert ImportRecord.objects.get().outcome == ImportRecord.Outcome.REFUSED


def test_format_forces_one_and_a_release_goes_through_the_same_door(tmp_path, small_release_dir):
    sub = submission(tmp_path, runs=1)
    text = refused(sub, format="harbor")
    assert "nothing was written" in text
    manifest = json.loads((small_release_dir / "manifest.json").read_text())
    assert "this release is of bench" in refused(small_release_dir, bench="another")
    out = run(small_release_dir, bench=manifest["bench"])
    assert "format: release (detected)" in out
    assert Bench.objects.filter(slug=manifest["bench"]).exists()


def test_dry_run_writes_nothing(tmp_path):
    sub = submission(tmp_path, runs=1)
    out = run(sub, dry_run=True)
    assert "dry run: nothing was written" in out
    assert not Bench.objects.filter(slug="tb").exists()


def test_a_second_submission_keeps_the_first(tmp_path):
    run(submission(tmp_path, "20250101_one_m"))
    run(submission(tmp_path, "20250102_two_m", runs=1, attempts=2))
    bench = Bench.objects.get(slug="tb")
    assert sorted(bench.models.values_list("slug", flat=True)) == [
        "20250101-one-m",
        "20250102-two-m",
    ]
    assert row(bench, "20250101-one-m")["x-harbor-result"]["trials"] == 2 * len(TASKS)
    assert row(bench, "20250102-two-m")["x-harbor-result"]["pass_at_k"]


def test_benchview_view_and_import_take_terminal_bench_runs(tmp_path):
    from benchview.cli.imports import import_paths

    import_paths([submission(tmp_path, runs=1)], bench="tb")
    assert Attempt.objects.filter(bench__slug="tb").count() == len(TASKS)
