"""Reading SWE-bench experiments submissions: every results shape, the
trajectories beside them, and what refuses a submission (file and line named)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formats.reader import open_tree
from formats.sources import ImportOptions, SourceError
from formats.sources.registry import ADAPTERS, detect
from formats.sources.swebench_experiments import ExperimentsError, read_systems
from formats.sources.swebench_experiments.held import Held
from formats.sources.swebench_experiments.source import ADAPTER
from tests.formats.swebench_submissions import (
    detail,
    metadata,
    openhands_line,
    submission,
    swe_agent_traj,
)


def systems_of(*paths: Path):
    return read_systems([(open_tree(p), str(p)) for p in paths])


def test_a_split_of_submissions_is_detected_by_content_and_each_folder_is_a_system(tmp_path):
    split = tmp_path / "verified"
    submission(
        split, "20250722_agentless_a", details=[detail("x__y-1", True), detail("x__y-2", False)]
    )
    submission(split, "20250812_agentless_b", details=[detail("x__y-1", False)])
    (split / "notes.txt").write_text("not a submission")
    assert "swebench-experiments" in ADAPTERS
    assert detect([split]) is ADAPTER
    systems, notes = systems_of(split)
    assert [s.id for s in systems] == ["20250722_agentless_a", "20250812_agentless_b"]
    a = systems[0]
    assert a.metadata.name == "Agentless-1.5" and a.date == "2025-07-22" and a.split == "verified"
    assert a.metadata.open_model is False and a.metadata.open_system is True
    first = a.instances["x__y-1"]
    assert first.resolved is True and first.applied is True
    # The patch and the tests are read again when the attempt is built.
    patch, tests = Held().parts(a, first)
    assert tests == {
        "FAIL_TO_PASS": {"success": ["tests/test_a.py::test_new"], "failure": []},
        "PASS_TO_PASS": {"success": ["tests/test_a.py::test_keeps"], "failure": []},
    }
    assert patch.startswith("diff --git")
    assert notes == []


def test_a_folder_without_a_submission_is_not_detected_and_the_error_says_what_was_looked_for(
    tmp_path,
):
    (tmp_path / "metadata.yaml").write_text("info: {name: x}\n")  # no results beside it
    assert not ADAPTER.detect([tmp_path])
    with pytest.raises(SourceError, match="looked for"):
        detect([tmp_path])


def test_results_json_decides_and_reports_give_the_tests(tmp_path):
    report = {
        "django__django-1": {
            "resolved": False,
            "patch_successfully_applied": True,
            "tests_status": {
                "FAIL_TO_PASS": {"success": ["t1"], "failure": []},
                "PASS_TO_PASS": {"success": ["t2"], "failure": ["t3"]},
            },
        }
    }
    path = submission(
        tmp_path,
        "20240620_sweagent_claude3.5sonnet",
        files={
            "results/results.json": {
                "resolved": ["django__django-1"],
                "no_apply": ["django__django-3"],
                "no_generation": ["django__django-2"],
                "unknown_future_key": ["django__django-2"],
            },
            "logs/django__django-1/report.json": report,
            "all_preds.jsonl": json.dumps(
                {"instance_id": "django__django-1", "model_patch": "diff --git a/f b/f\n"}
            )
            + "\n",
            "trajs/django__django-1.traj": swe_agent_traj("django__django-1"),
        },
    )
    (system,), _ = systems_of(path)
    one = system.instances["django__django-1"]
    assert one.resolved is True  # results.json decides, the report disagreeing is noted
    assert any("says resolved False" in n for n in one.notes)
    patch, tests = Held().parts(system, one)
    assert tests["PASS_TO_PASS"] == {"success": ["t2"], "failure": ["t3"]}
    assert patch == "diff --git a/f b/f\n"
    assert one.trajectory.name.endswith("trajs/django__django-1.traj")
    assert system.instances["django__django-3"].applied is False
    assert system.published == {"resolved": 1, "source": "results/results.json"}


def test_openhands_output_jsonl_gives_each_instance_its_line(tmp_path):
    lines = [openhands_line("a__b-1"), openhands_line("a__b-2"), openhands_line("zz__unknown-9")]
    path = submission(
        tmp_path,
        "20250722_openhands_x",
        details=[detail("a__b-1", True), detail("a__b-2", False)],
        files={"trajs/output.jsonl": "".join(json.dumps(x) + "\n" for x in lines)},
    )
    (system,), notes = systems_of(path)
    assert system.instances["a__b-2"].trajectory.line == 2
    assert any("zz__unknown-9 has no result" in n for n in notes)


def test_a_readme_resolved_line_is_the_published_figure(tmp_path):
    path = submission(
        tmp_path,
        "20250722_openhands_y",
        details=[detail("a__b-1", True)],
        files={"README.md": "Applied%: 65.79% (75 / 114)\nResolved% : 15.79% (18 / 114)\n"},
    )
    (system,), _ = systems_of(path)
    assert system.published == {
        "percent": 15.79,
        "resolved": 18,
        "total": 114,
        "source": "README.md",
    }


def test_a_repeated_instance_is_refused_naming_the_file_and_both_lines(tmp_path):
    path = submission(
        tmp_path,
        "20250101_s",
        details=[detail("a__b-1", True), detail("a__b-2", True), detail("a__b-1", False)],
    )
    with pytest.raises(ExperimentsError) as caught:
        systems_of(path)
    assert caught.value.problems == [
        f"{path}/evaluation_details.jsonl: line 3: instance_id 'a__b-1' repeats line 1"
    ]


def test_bad_values_are_each_named_by_file_line_and_field(tmp_path):
    path = submission(tmp_path, "20250101_s", details=[])
    (path / "evaluation_details.jsonl").write_bytes(
        b'{"instance_id": "a__b-1", "resolved": "yes"}\n'
        b"not json \xff\n"
        b'{"instance_id": "a__b-2", "resolved": true, "F2P": {"success": [1]}}\n'
        b'{"resolved": true}\n'
    )
    with pytest.raises(ExperimentsError) as caught:
        systems_of(path)
    problems = caught.value.problems
    where = f"{path}/evaluation_details.jsonl"
    assert problems[0] == f"{where}: line 1: resolved: expected true or false, got 'yes'"
    assert problems[1].startswith(f"{where}: line 2: not JSON")
    assert problems[2] == f"{where}: line 3: F2P.success: expected a list of test names"
    assert problems[3] == f"{where}: line 4: instance_id: expected a string, got None"


def test_metadata_that_is_not_utf8_or_of_the_wrong_type_is_refused(tmp_path):
    bad = submission(tmp_path, "20250101_bad", details=[detail("a__b-1", True)])
    (bad / "metadata.yaml").write_bytes(b"info:\n  name: caf\xe9\n")
    typed = submission(
        tmp_path, "20250101_typed", meta=metadata(checked="yes"), details=[detail("a__b-1", True)]
    )
    with pytest.raises(ExperimentsError) as caught:
        systems_of(tmp_path)
    assert caught.value.problems == [
        f"{bad}/metadata.yaml: not UTF-8 (byte 17)",
        f"{typed}/metadata.yaml: tags.checked: expected true or false, got 'yes'",
    ]


def test_the_same_folder_name_in_two_splits_is_refused(tmp_path):
    for split in ("full", "verified"):
        submission(tmp_path / split, "20250101_same", details=[detail("a__b-1", True)])
    with pytest.raises(ExperimentsError, match="import each split into its own bench"):
        systems_of(tmp_path)


def test_the_adapter_opens_a_source_of_models_tasks_and_attempts(tmp_path):
    path = submission(
        tmp_path,
        "20250722_agentless_a",
        details=[detail("x__y-1", True), detail("x__y-2", False, applied=False, model_patch="")],
        files={"trajs/x__y-1.traj": swe_agent_traj("x__y-1")},
    )
    source = ADAPTER.open([path], options=ImportOptions(bench="nocode"))
    assert source.bench.scoring_rule == "reward-threshold" and source.bench.threshold == 1.0
    assert source.models["20250722_agentless_a"].extra["organisation"] == "Agentless"
    assert sorted(source.tasks) == ["x__y-1", "x__y-2"]
    one, two = source.attempts()
    assert (one.score, one.flags, one.cost_usd) == (1.0, [], 0.25)
    assert (two.score, two.flags) == (0.0, ["no-trajectory", "no-patch", "patch-not-applied"])
    files = one.folder.build()
    assert json.loads(files["trajectory.json"])["events"][2]["type"] == "message"
    assert files["patch.diff"].startswith(b"diff --git")
    assert "patch.diff" not in two.folder.build()
    with pytest.raises(SourceError, match="need the bench id"):
        ADAPTER.open([path], options=ImportOptions())


def test_preds_json_gives_the_patch_of_an_instance_results_json_lists(tmp_path):
    path = submission(
        tmp_path,
        "20250101_mini",
        files={
            "results/results.json": {"resolved": ["a__b-1"], "no_apply": []},
            "preds.json": {
                "a__b-1": {"model_name_or_path": "m", "model_patch": "diff --git a/x b/x\n"},
                "a__b-2": {"model_name_or_path": "m", "model_patch": None},
            },
        },
    )
    (system,), notes = systems_of(path)
    assert Held().parts(system, system.instances["a__b-1"]) == ("diff --git a/x b/x\n", {})
    assert system.instances["a__b-2"].resolved is None  # a prediction without a result
    assert notes == [f"{path}: a__b-2 has a prediction and no result: scored as failed"]
