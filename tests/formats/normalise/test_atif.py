"""The ATIF normaliser, on every Harbor sample and on the converters' conventions."""

from __future__ import annotations

import io
import json

import pytest

from formats.normalise import detect, normalise
from formats.normalise.atif import normalise_atif
from formats.v1.event_schema import check_events
from leaderboard.models import Attempt
from tests.ingest.harbor_trials import FIXTURES, import_harbor, job, trial
from trajectories.models import Event

ATIF_SAMPLES = sorted(
    p.name for p in FIXTURES.glob("*.json") if json.loads(p.read_bytes()).get("schema_version")
)
NOT_ATIF = "harbor_rfc_example_mini-swe-agent-trajectory.json"


def expected_from_file(doc: dict) -> tuple[int, list[tuple[str, str | None]]]:
    """Events and (call id, paired result content) read straight off the ATIF steps."""
    steps = doc["steps"]
    count = 0 if steps[0]["source"] == "system" else 1  # the session start
    pairs = []
    for step in steps:
        results = (step.get("observation") or {}).get("results") or []
        by_id = {r["source_call_id"]: r.get("content") for r in results if r.get("source_call_id")}
        if step["source"] in ("system", "user"):
            count += 1
        else:
            count += bool(step.get("reasoning_content")) + bool(step.get("message"))
            for call in step.get("tool_calls") or []:
                count += 1
                pairs.append((call["tool_call_id"], by_id.get(call["tool_call_id"])))
        count += sum(1 for r in results if not r.get("source_call_id"))
    return count, pairs


def test_every_atif_sample_is_there_and_the_mini_swe_agent_file_is_not_atif():
    assert len(ATIF_SAMPLES) == 3
    assert NOT_ATIF not in ATIF_SAMPLES
    # Not ATIF: mini-swe-agent's own format, which has a normaliser of its own.
    assert detect((FIXTURES / NOT_ATIF).read_bytes()) == "mini-swe-agent"


@pytest.mark.parametrize("name", ATIF_SAMPLES)
def test_each_atif_sample_normalises_to_valid_events_paired_by_call_id(name):
    data = (FIXTURES / name).read_bytes()
    doc = json.loads(data)
    count, pairs = expected_from_file(doc)
    assert detect(data) == "atif"
    got = normalise(data)
    assert got.meta["problems"] == []
    assert check_events(got.events) == []
    assert len(got.events) == count
    calls = [e for e in got.events if e["type"] == "tool_call"]
    assert [(e["call_id"], e["result"] and e["result"]["output"]) for e in calls] == pairs
    # Every step is the source of an event or unmapped with a reason.
    covered = {s for sources in got.sources for s in sources} | {u.line for u in got.unmapped}
    assert covered == set(range(1, len(doc["steps"]) + 1))


@pytest.mark.django_db
@pytest.mark.parametrize("name", ATIF_SAMPLES)
def test_each_atif_sample_imports_wrapped_in_a_trial_folder(tmp_path, name):
    data = (FIXTURES / name).read_bytes()
    count, pairs = expected_from_file(json.loads(data))
    trial(job(tmp_path), "sample_task", trajectory=data)
    import_harbor(tmp_path, stdout=io.StringIO(), stderr=io.StringIO())
    attempt = Attempt.objects.select_related("evidence").get()
    assert attempt.evidence.events_total == count
    assert "atif-invalid" not in attempt.flags
    paired = Event.objects.filter(attempt=attempt, type="tool_call", ok__isnull=False).count()
    assert paired == sum(1 for _, result in pairs if result is not None)


@pytest.mark.django_db
def test_the_mini_swe_agent_file_imports_with_no_events_and_says_why(tmp_path):
    trial(job(tmp_path), "sample_task", trajectory=(FIXTURES / NOT_ATIF).read_bytes())
    import_harbor(tmp_path, stdout=io.StringIO(), stderr=io.StringIO())
    attempt = Attempt.objects.select_related("evidence").get()
    assert attempt.evidence.events_total == 0
    assert "atif-invalid" in attempt.flags
    assert any("not an ATIF trajectory" in n for n in attempt.summary["harbor"]["notes"])


def doc(*steps, **root) -> bytes:
    return json.dumps(
        {"schema_version": "ATIF-v1.7", "agent": {"name": "a"}, "steps": list(steps), **root}
    ).encode()


def agent_step(step_id, calls, results, **extra):
    return {
        "step_id": step_id,
        "source": "agent",
        "message": "",
        "tool_calls": calls,
        "observation": {"results": results},
        **extra,
    }


def call(ident, **extra):
    return {"tool_call_id": ident, "function_name": "Bash", "arguments": {}, **extra}


def result_of(ident, content, **extra):
    return {"source_call_id": ident, "content": content, **extra}


def tool_results(data: bytes) -> list[dict | None]:
    return [e["result"] for e in normalise_atif(data).events if e["type"] == "tool_call"]


def test_exit_code_lines_give_the_exit_code_and_a_failure():
    data = doc(
        {"step_id": 1, "source": "user", "message": "go"},
        agent_step(
            2,
            [call("a"), call("b")],
            [result_of("a", "boom\n[exit_code] 2"), result_of("b", "fine\n[exit_code] 0")],
        ),
    )
    assert tool_results(data) == [
        {"ok": False, "output": "boom\n[exit_code] 2", "exit_code": 2},
        {"ok": True, "output": "fine\n[exit_code] 0", "exit_code": 0},
    ]


def test_the_converters_error_marks_fail_the_call_and_nothing_else_is_guessed():
    data = doc(
        {"step_id": 1, "source": "user", "message": "go"},
        agent_step(
            2,
            [call("a"), call("b"), call("c", extra={"status": "error"}), call("d"), call("e")],
            [
                result_of("a", "x", extra={"tool_result_is_error": True}),
                result_of("b", "[error] tool reported failure"),
                result_of("c", "x"),
                result_of("d", "x", extra={"status": "failed"}),
                result_of("e", "Error: looks bad but nothing marks it"),
            ],
        ),
    )
    assert [r["ok"] for r in tool_results(data)] == [False, False, False, False, True]
    assert all(r["exit_code"] is None for r in tool_results(data))


def test_a_call_with_no_result_has_a_null_result():
    data = doc({"step_id": 1, "source": "agent", "message": "", "tool_calls": [call("a")]})
    assert tool_results(data) == [None]


def test_sidechain_steps_and_embedded_subagents_are_kept_and_marked():
    sub = {"trajectory_id": "sub-1", "steps": [{"step_id": 1, "source": "agent", "message": "s"}]}
    data = doc(
        {"step_id": 1, "source": "user", "message": "go"},
        {"step_id": 2, "source": "agent", "message": "side", "extra": {"is_sidechain": True}},
        {"step_id": 3, "source": "agent", "message": "main"},
        subagent_trajectories=[sub],
    )
    got = normalise_atif(data)
    marked = [(e["text"], e.get("subagent"), e.get("subagent_id")) for e in got.events[1:]]
    assert marked == [
        ("go", None, None),
        ("side", True, None),
        ("main", None, None),
        ("s", True, "sub-1"),
    ]
    assert got.sources[-1] == [4]  # numbered after the parent's three steps


def test_rule_breaks_are_reported_and_nothing_raises():
    got = normalise_atif(
        doc(
            {"step_id": 1, "source": "user", "message": "go"},
            {"step_id": 3, "source": "agent", "message": "skipped an id"},
            agent_step(3, [], [result_of("nope", "x")]),
        )
    )
    assert any("step_id is 3, expected 2" in p for p in got.meta["problems"])
    assert any("'nope'" in p for p in got.meta["problems"])
    for bad in (b"{not json", b'{"schema_version": "ATIF-v1.7", "steps": []}', b"[]"):
        assert normalise_atif(bad).meta["problems"]


def test_timestamps_without_an_offset_come_out_with_z():
    got = normalise_atif(
        doc({"step_id": 1, "source": "user", "message": "go", "timestamp": "2025-11-19T14:18:43"})
    )
    assert got.events[1]["ts"] == "2025-11-19T14:18:43Z"


TRANSCRIPTS = FIXTURES.parent / "transcripts"
HELLO_SESSION = "harbor_hello-load-native-trajectory_session_d7d4e19e.jsonl"
HELLO_ATIF = "harbor_atif_v1.7_hello_trajectory_from_session_d7d4e19e.json"


@pytest.mark.django_db
def test_events_come_from_the_raw_agent_log_when_a_normaliser_reads_it(tmp_path):
    raw = (TRANSCRIPTS / HELLO_SESSION).read_bytes()
    expected = normalise(raw)
    assert expected.events and detect(raw) != "atif"
    trial(job(tmp_path), "hello", trajectory=(FIXTURES / HELLO_ATIF).read_bytes(), raw_log=raw)
    import_harbor(tmp_path, stdout=io.StringIO(), stderr=io.StringIO())
    attempt = Attempt.objects.select_related("evidence").get()
    assert attempt.summary["harbor"]["events_from"] == f"raw-log:{expected.format}"
    assert attempt.evidence.events_total == len(expected.events)


@pytest.mark.django_db
def test_events_come_from_atif_when_the_raw_log_is_in_no_known_format(tmp_path):
    data = (FIXTURES / HELLO_ATIF).read_bytes()
    trial(job(tmp_path), "hello", trajectory=data, raw_log=b"plain text, no JSON\n")
    import_harbor(tmp_path, stdout=io.StringIO(), stderr=io.StringIO())
    attempt = Attempt.objects.select_related("evidence").get()
    assert attempt.summary["harbor"]["events_from"] == "atif"
    assert attempt.evidence.events_total == len(normalise_atif(data).events)
