"""The builders of the derived documents: the format's fields, counts worked out once."""

import orjson

from formats.v1 import SCHEMA
from formats.v1 import documents as v1
from formats.v1.files import ATTEMPT_FILES, attempt_folder, model_path, task_path


def test_the_manifest_counts_released_tasks_from_its_batches_and_names_the_version():
    doc = v1.manifest_document(
        bench="b",
        title="B",
        revision="01",
        generated_at="2026-01-01T00:00:00Z",
        scoring_rule="all-mandatory",
        models=["m1", "m2"],
        tasks=["t1", "t2", "t3"],
        batches=[v1.manifest_batch(1, "2026-01-01T00:00:00Z", ["t1", "t2"])],
        attempts=4,
    )
    assert doc["schema"] == SCHEMA == "v1"
    assert doc["counts"] == {"models": 2, "tasks": 3, "released_tasks": 2, "attempts": 4}
    assert "exceptions_rule" not in doc
    ruled = v1.manifest_document(**{**_manifest_args(), "exceptions_rule": "count-as-failed"})
    assert list(ruled)[-1] == "exceptions_rule"


def _manifest_args():
    return dict(
        bench="b",
        title="B",
        revision="01",
        generated_at="x",
        scoring_rule="r",
        models=[],
        tasks=[],
        batches=[],
        attempts=0,
    )


def test_a_leaderboard_row_puts_fields_beyond_v1_after_the_aggregate():
    row = v1.leaderboard_row(
        rank=1,
        model="m",
        display_name="M",
        harness="h",
        provider="p",
        aggregate={"score": 0.5, "tasks": 2},
        beyond={"errors": 1},
    )
    assert list(row) == [
        "rank",
        "model",
        "display_name",
        "harness",
        "provider",
        "score",
        "tasks",
        "errors",
    ]


def test_a_matrix_cell_carries_x_trials_only_when_given():
    assert v1.matrix_cell(1.0, ("a",)) == {"score": 1.0, "flags": ["a"]}
    assert v1.matrix_cell(0.0, [], {"n": 2})["x-trials"] == {"n": 2}


def test_model_facts_let_the_four_v1_fields_win_over_extensions():
    facts = v1.model_facts("m", "M", "h", "p", extra={"id": "spoof", "organisation": "o"})
    assert facts == {
        "organisation": "o",
        "id": "m",
        "display_name": "M",
        "harness": "h",
        "provider": "p",
    }


def test_a_task_document_serialises_and_keeps_its_extension_fields_last():
    doc = v1.task_document(
        bench="b",
        task="t",
        title="T",
        surface="s",
        vendors=("v",),
        batch=1,
        ticket="do it",
        checks=[{"name": "c", "level": "test", "mandatory": False}],
        results=[v1.task_result("m", 1.0, {"c": True}, [])],
        extra={"harbor_task_name": "T"},
    )
    assert list(doc)[-1] == "harbor_task_name"
    assert orjson.loads(orjson.dumps(doc))["task"]["vendors"] == ["v"]


def test_paths_and_the_attempt_files():
    assert attempt_folder("m", "t") == "attempts/m/t/"
    assert attempt_folder("m", "t", 3) == "attempts/m/t/trials/3/"
    assert (model_path("m"), task_path("t")) == ("models/m.json", "tasks/t.json")
    assert [n for n, k in ATTEMPT_FILES.items() if k.required] == [
        "summary.json",
        "transcript.jsonl",
        "problem.md",
    ]
