"""OpenCode run --format json (§3.2, §3.4)."""

from __future__ import annotations

import json

from formats.normalise import detect, normalise
from tests.formats.normalise.helpers import check_contract, failed_calls, jsonl

SID = "ses_abc"


def envelope(kind, at=1_767_000_000_000, **rest):
    return json.dumps({"type": kind, "timestamp": at, "sessionID": SID, **rest})


def tool(name, state, at=1_767_000_000_000):
    part = {
        "id": "prt_1",
        "sessionID": SID,
        "messageID": "msg_1",
        "type": "tool",
        "callID": "c1",
        "tool": name,
        "state": state,
    }
    return envelope("tool_use", at, part=part)


def finish(tokens_in, tokens_out):
    part = {
        "type": "step-finish",
        "reason": "stop",
        "cost": 0.01,
        "tokens": {
            "input": tokens_in,
            "output": tokens_out,
            "reasoning": 0,
            "cache": {"read": 0, "write": 0},
        },
    }
    return envelope("step_finish", part=part)


def run(*lines):
    data = jsonl(*lines)
    assert detect(data) == "opencode-run"
    result = normalise(data)
    check_contract(result, data)
    return result


def test_a_failing_bash_completes_but_its_exit_code_makes_it_not_ok():
    state = {
        "status": "completed",
        "input": {"command": "go build"},
        "output": "undefined: x",
        "metadata": {"exit": 1},
        "time": {"start": 5, "end": 9},
    }
    result = run(tool("bash", state))
    assert failed_calls(result) == [("bash", 1)]
    assert result.events[0]["duration_ms"] == 4


def test_an_error_state_is_not_ok_and_carries_the_error_text():
    state = {
        "status": "error",
        "input": {"filePath": "/x"},
        "error": "File not found",
        "time": {"start": 5, "end": 5},
    }
    result = run(tool("read", state))
    assert result.events[0]["result"] == {
        "ok": False,
        "output": "File not found",
        "exit_code": None,
    }
    assert "duration_ms" not in result.events[0]  # 0 ms is left out


def test_a_step_s_tokens_go_on_its_last_event():
    text = {"type": "text", "text": "one", "time": {"start": 1_767_000_000_500}}
    reasoning = {"type": "reasoning", "text": "two", "time": {"start": 1_767_000_000_600}}
    result = run(
        envelope("step_start", part={"type": "step-start"}),
        envelope("reasoning", part=reasoning),
        envelope("text", part=text),
        finish(100, 7),
        envelope("step_start", part={"type": "step-start"}),
        finish(3, 1),
        envelope("done", reason="idle", rejected=[]),
    )
    first, second = result.events
    assert "tokens" not in first and second["tokens"] == {"input": 100, "output": 7}
    assert first["ts"] == "2025-12-29T09:20:00.600Z"
    assert result.sources == [[2], [3, 4]]
    assert [u.reason for u in result.unmapped] == [
        "step start",
        "step start",
        "step end (no part to carry its tokens)",
        "end of run",
    ]
    assert result.meta["totals"] == {"cost_usd": 0.02, "input": 103, "output": 8}


def test_provider_and_harness_errors_are_told_apart_by_name():
    result = run(
        envelope("step_start", part={"type": "step-start"}),
        envelope("error", error={"name": "APIError", "data": {"message": "429"}}),
        envelope("error", error={"name": "UnknownError", "data": {"message": "boom"}}),
    )
    assert [(e["source"], e["text"]) for e in result.events] == [
        ("provider", "429"),
        ("harness", "boom"),
    ]
