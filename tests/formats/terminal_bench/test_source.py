"""The Terminal-Bench adapter on its own (no database): runs found by content,
submissions, every results[] entry a trial, and refusals naming file and JSON path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formats.reader import open_tree
from formats.sources.protocol import ImportOptions, SourceError
from formats.sources.terminal_bench.adapter import ADAPTER
from formats.sources.terminal_bench.runs import find_runs
from samplegen.terminal_bench import write_submission

TASKS = ["hello-world", "fix-permissions", "csv-to-parquet"]


def submission(root: Path, folder="20250101_agent_model", **kw) -> Path:
    options = {"runs": 2, "attempts": 1, "folders": True, "tasks": TASKS, **kw}
    write_submission(root, folder, "agent", "vendor/model", **options)
    return root / folder


def opened(*paths: Path, **options):
    return ADAPTER.open(list(paths), options=ImportOptions(bench="tb", **options))


def results_of(path: Path) -> dict:
    return json.loads(path.read_text())


def test_runs_are_found_by_content_whatever_their_file_is_called(tmp_path):
    sub = submission(tmp_path, folders=False)
    names = sorted(p.name for p in sub.iterdir())
    assert all(n.endswith("_results.json") for n in names) and len(names) == 2
    assert ADAPTER.detect([sub])
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "results.json").write_text('{"results": [1, 2]}')
    assert not ADAPTER.detect([tmp_path / "other"])


def test_a_submission_of_runs_is_one_model_and_a_folder_of_them_one_model_each(tmp_path):
    one = submission(tmp_path / "a", "20250101_one_m")
    assert {r.submission for r in find_runs(open_tree(one), "one").runs} == {"one"}
    submission(tmp_path / "a", "20250102_two_m", runs=1, attempts=2)
    source = opened(tmp_path / "a")
    assert sorted(source.models) == ["20250101-one-m", "20250102-two-m"]
    model = source.models["20250101-one-m"]
    assert model.display_name == "agent (vendor/model)" and model.provider == "vendor"
    assert source.trials == 2 * len(TASKS) + 2 * len(TASKS)


def test_every_entry_is_a_trial_with_or_without_its_folder(tmp_path):
    sub = submission(tmp_path)
    run = sorted(p for p in sub.iterdir() if p.is_dir())[0]
    for folder in (run / "hello-world").iterdir():
        for f in sorted(folder.rglob("*"), reverse=True):
            f.unlink() if f.is_file() else f.rmdir()
        folder.rmdir()
    source = opened(sub)
    attempts = list(source.attempts())
    assert len(attempts) == 2 * len(TASKS)
    first = [a for a in attempts if a.task == "hello-world" and a.trial == 0][0]
    assert "no-trajectory" in first.flags
    summary = json.loads(first.folder.build()["summary.json"])
    assert any("no trial folder" in n for n in summary["terminal_bench"]["notes"])


def test_is_resolved_decides_and_the_published_figures_are_carried(tmp_path):
    sub = submission(tmp_path)
    source = opened(sub)
    attempts = list(source.attempts())
    published = source.models["20250101-agent-model"].published
    assert published["passed"] == sum(1 for a in attempts if a.score == 1.0)
    assert published["trials"] == len(attempts)
    assert len(published["runs"]) == 2


def test_a_run_copied_into_another_is_read_once(tmp_path):
    sub = submission(tmp_path)
    runs = sorted(p for p in sub.iterdir() if p.is_dir())
    copy = runs[1] / runs[0].name
    copy.mkdir()
    (copy / "results.json").write_bytes((runs[0] / "results.json").read_bytes())
    (copy / "run_metadata.json").write_bytes((runs[0] / "run_metadata.json").read_bytes())
    source = opened(sub)
    assert source.trials == 2 * len(TASKS)
    assert any("the same run as" in n for n in source.notes)


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("is_resolved", "yes", "results[1].is_resolved: expected true, false or null"),
        ("task_id", "../etc", "results[1].task_id: '../etc' is not a folder name"),
        ("parser_results", ["a"], "results[1].parser_results: expected an object"),
        ("trial_started_at", "yesterday", "results[1].trial_started_at: 'yesterday' is not"),
        ("total_input_tokens", -3, "results[1].total_input_tokens: expected a whole number"),
    ],
)
def test_a_bad_entry_names_the_file_and_json_path(tmp_path, field, value, where):
    sub = submission(tmp_path, runs=1)
    doc = results_of(sub / "results.json")
    doc["results"][1][field] = value
    doc["results"][1]["unknown_field"] = {"kept": "ignored"}
    (sub / "results.json").write_text(json.dumps(doc))
    source = opened(sub)
    assert [p for p in source.problems if where in p]
    assert source.problems[0].startswith(f"{sub.name}/results.json: ")


def test_a_broken_run_file_is_named(tmp_path):
    sub = submission(tmp_path, runs=1)
    (sub / "results.json").write_text('{"results": [], "accuracy": 0.5')
    with pytest.raises(SourceError, match=f"{sub.name}/results.json: not valid JSON"):
        opened(sub)


def test_a_bench_is_needed_and_an_unknown_exceptions_rule_refused(tmp_path):
    sub = submission(tmp_path, runs=1)
    with pytest.raises(SourceError, match="bench id"):
        ADAPTER.open([sub], options=ImportOptions())
    with pytest.raises(SourceError, match="expected one of harbor, fail, terminal-bench"):
        opened(sub, exceptions_rule="maybe")


def test_failure_modes_are_exceptions_the_rules_know(tmp_path):
    sub = submission(tmp_path, runs=1)
    doc = results_of(sub / "results.json")
    doc["results"][0].update(failure_mode="agent_timeout", is_resolved=True)
    doc["results"][1].update(failure_mode="unknown_agent_error", is_resolved=None)
    (sub / "results.json").write_text(json.dumps(doc))
    by_task = {a.task: a for a in opened(sub, exceptions_rule="terminal-bench").attempts()}
    timed_out, broke = by_task[doc["results"][0]["task_id"]], by_task[doc["results"][1]["task_id"]]
    assert timed_out.score == 1.0 and "left-out" not in timed_out.flags
    assert "exception:agent_timeout" in timed_out.flags
    assert "left-out" in broke.flags and "tests-not-run" in broke.flags
    fail = {a.task: a for a in opened(sub, exceptions_rule="fail").attempts()}
    assert fail[timed_out.task].score == 0.0
