"""The Inspect logs adapter through the registry: detected by content, the
options it takes, and its source's models, tasks and trials."""

from __future__ import annotations

import json
import shutil

import pytest

from formats.sources.inspect_logs.scores import reward_of
from formats.sources.protocol import ImportOptions, SourceError
from formats.sources.registry import ADAPTERS, detect, open_source, refuse_options
from samplegen.inspect_logs import header, sample_record, write_eval, write_sample_inspect


def test_it_is_registered_and_detected_by_content_never_by_name(tmp_path):
    write_sample_inspect(tmp_path / "logs")
    assert "inspect-logs" in ADAPTERS
    assert detect([tmp_path / "logs"]).name == "inspect-logs"
    one = sorted((tmp_path / "logs").iterdir())[0]
    renamed = tmp_path / "results.bin"
    shutil.copy(one, renamed)
    assert detect([renamed]).name == "inspect-logs"
    (tmp_path / "other.eval").write_text('{"hello": "world"}')
    assert not ADAPTERS["inspect-logs"].detect([tmp_path / "other.eval"])
    assert "Inspect AI logs: .eval zips holding header.json" in ADAPTERS["inspect-logs"].looks_for


def test_a_json_log_is_detected_too(tmp_path):
    records = [sample_record(1, 1, model="openai/m", turns=1, value="C", flag="f")]
    path = tmp_path / "log"
    path.write_text(json.dumps({**header("openai/m", records), "samples": records}))
    assert detect([path]).name == "inspect-logs"


def test_options_it_does_not_take_are_refused_by_name():
    adapter = ADAPTERS["inspect-logs"]
    refuse_options(adapter, ImportOptions(bench="b", threshold=0.5, scrub=False))
    with pytest.raises(SourceError) as refused:
        refuse_options(
            adapter, ImportOptions(bench="b", exceptions_rule="fail", allow_partial=True)
        )
    assert "inspect-logs: does not take exceptions_rule, allow_partial" in str(refused.value)


def test_the_source_gives_models_tasks_and_each_trial_with_a_folder_built_on_demand(tmp_path):
    write_sample_inspect(tmp_path)
    source = open_source([tmp_path], ImportOptions(bench="ctf"))
    assert source.bench.id == "ctf" and source.bench.scoring_rule == "reward-threshold"
    assert sorted(source.models) == [
        "anthropic-claude-opus-5-5",
        "google-gemini-4-pro",
        "openai-gpt-6-astra",
    ]
    gpt = source.models["openai-gpt-6-astra"]
    assert (gpt.display_name, gpt.provider, gpt.harness) == (
        "openai/gpt-6-astra",
        "openai",
        "basic_agent",
    )
    assert gpt.published["score"] == 0.75 and gpt.published["scorer"] == "includes"
    # Inspect's accuracy counts a partial answer as half; the site's pass rate does not.
    assert source.models["anthropic-claude-opus-5-5"].published["score"] == 0.65625
    assert any("1 of 16 sample(s) have a summary only" in n for n in source.notes)
    assert sorted(source.tasks) == [str(n) for n in range(1, 9)]
    entries = list(source.attempts())
    assert len(entries) == 48
    assert {e.trial for e in entries} == {0, 1}
    first = entries[0]
    files = first.folder.build()
    assert set(files) == {"summary.json", "verdict.json", "problem.md", "transcript.jsonl"}
    assert files["transcript.jsonl"].startswith(b"{")
    assert [c.name for c in first.checks] == ["includes"]
    limited = [e for e in entries if "limit:message" in e.flags]
    assert [(e.model, e.task, e.trial) for e in limited] == [("google-gemini-4-pro", "4", 0)]


def test_a_bench_id_comes_from_the_task_when_none_is_given(tmp_path):
    records = [sample_record(1, 1, model="openai/m", turns=1, value="C", flag="f")]
    write_eval(tmp_path / "a.eval", header("openai/m", records, task="evals/My_Task"), records)
    source = open_source([tmp_path / "a.eval"], ImportOptions())
    assert (source.bench.id, source.bench.title) == ("my-task", "evals/My_Task")


@pytest.mark.parametrize(
    "value, reward",
    [
        ("C", 1.0),
        ("I", 0.0),
        ("P", 0.5),
        ("N", 0.0),
        (True, 1.0),
        (False, 0.0),
        (0.7, 0.7),
        ("0.25", 0.25),
        ("yes", 1.0),
        ({"a": 1}, None),
        ("maybe", None),
        (float("nan"), None),
    ],
)
def test_scorer_values_read_as_inspect_reads_them(value, reward):
    assert reward_of(value) == reward
