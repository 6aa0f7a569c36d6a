"""Codex CLI: exec --json thread events, legacy events and rollout files (§2)."""

from __future__ import annotations

import json

from formats.normalise import detect, normalise
from tests.formats.normalise.helpers import check_contract, counts, failed_calls, jsonl


def run(fmt, *lines):
    data = jsonl(*(x if isinstance(x, str) else json.dumps(x) for x in lines))
    assert detect(data) == fmt
    result = normalise(data)
    check_contract(result, data)
    return result


def command(ident, phase, status="in_progress", code=None, output=""):
    item = {
        "id": ident,
        "type": "command_execution",
        "command": "bash -lc 'make'",
        "aggregated_output": output,
        "exit_code": code,
        "status": status,
    }
    return {"type": f"item.{phase}", "item": item}


THREAD = {"type": "thread.started", "thread_id": "th-1"}


def test_an_items_lifecycle_is_one_event_with_the_completed_state():
    result = run(
        "codex-exec",
        THREAD,
        command("item_0", "started"),
        command("item_0", "updated", output="partial"),
        command("item_0", "completed", "completed", 0, "done\n"),
    )
    assert result.events == [
        {
            "index": 0,
            "type": "tool_call",
            "tool": "shell",
            "input": {"command": "bash -lc 'make'"},
            "result": {"ok": True, "output": "done\n", "exit_code": 0},
        }
    ]
    assert result.sources == [[2, 3, 4]]


def test_failed_and_declined_commands_are_not_ok():
    result = run(
        "codex-exec",
        THREAD,
        command("item_0", "completed", "failed", 2, "no rule"),
        command("item_1", "completed", "declined", None, ""),
    )
    assert failed_calls(result) == [("shell", 2), ("shell", None)]


def test_a_command_that_never_completed_has_no_result():
    result = run("codex-exec", THREAD, command("item_0", "started"))
    assert result.events[0]["result"] is None


def test_stderr_warnings_and_tracing_lines_are_unmapped():
    result = run(
        "codex-exec",
        "Reading additional input from stdin...",
        THREAD,
        "2026-08-01T10:00:00.123Z ERROR codex_api::client: stream error",
        {"type": "item.completed", "item": {"id": "item_0", "type": "agent_message", "text": "hi"}},
    )
    assert counts(result) == {"message": 1}
    assert [u.line for u in result.unmapped] == [1, 2, 3]


def test_error_items_are_harness_warnings_and_turn_failures_provider_errors():
    result = run(
        "codex-exec",
        THREAD,
        {
            "type": "item.completed",
            "item": {"id": "item_0", "type": "error", "message": "model rerouted"},
        },
        {"type": "error", "message": "Reconnecting... 2/5"},
        {"type": "turn.failed", "error": {"message": "stream disconnected"}},
    )
    assert [(e["source"], e["text"]) for e in result.events] == [
        ("harness", "model rerouted"),
        ("provider", "Reconnecting... 2/5"),
        ("provider", "stream disconnected"),
    ]


def test_item_ids_start_again_with_each_thread():
    message = {
        "type": "item.completed",
        "item": {"id": "item_0", "type": "agent_message", "text": "first"},
    }
    again = {
        "type": "item.completed",
        "item": {"id": "item_0", "type": "agent_message", "text": "second"},
    }
    result = run("codex-exec", THREAD, message, THREAD, again)
    assert [e["text"] for e in result.events] == ["first", "second"]


def legacy(msg, ident="1"):
    return {"id": ident, "msg": msg}


def test_legacy_events_pair_begin_and_end_by_call_id():
    result = run(
        "codex-legacy",
        {"model": "o3", "sandbox": "read-only", "workdir": "/app"},
        legacy({"type": "agent_reasoning", "text": "look first"}),
        legacy({"type": "exec_command_begin", "call_id": "c1", "command": ["ls"], "cwd": "/app"}),
        legacy({"type": "exec_command_begin", "call_id": "c2", "command": ["false"], "cwd": "/"}),
        legacy({"type": "exec_command_output_delta", "call_id": "c1", "chunk": "YQo="}),
        legacy(
            {
                "type": "exec_command_end",
                "call_id": "c2",
                "exit_code": 1,
                "stdout": "",
                "stderr": "nope",
                "duration": {"secs": 0, "nanos": 5_000_000},
            }
        ),
        legacy(
            {
                "type": "exec_command_end",
                "call_id": "c1",
                "exit_code": 0,
                "aggregated_output": "a\n",
            }
        ),
        legacy({"type": "exec_command_end", "call_id": "c9", "exit_code": 0}),
        legacy({"type": "agent_message", "message": "done"}),
    )
    reasoning, ls, false, message = result.events
    assert ls["result"] == {"ok": True, "output": "a\n", "exit_code": 0}
    assert false["result"] == {"ok": False, "output": "nope", "exit_code": 1}
    assert false["duration_ms"] == 5
    assert result.sources[ls["index"]] == [3, 7] and result.sources[false["index"]] == [4, 6]
    assert message["text"] == "done" and reasoning["type"] == "reasoning"
    assert [u.line for u in result.unmapped] == [1, 5, 8]
    assert result.meta["model"] == "o3"


def rollout(kind, ts="2026-08-03T10:00:00.000Z", **payload):
    return {"timestamp": ts, "type": kind, "payload": payload}


def test_rollout_output_json_strings_carry_the_exit_code():
    wrapped = json.dumps({"output": "1 failed", "metadata": {"exit_code": 1}})
    result = run(
        "codex-rollout",
        rollout("session_meta", id="th-9", cwd="/app", cli_version="0.30.0"),
        rollout("turn_context", model="gpt-5-codex"),
        rollout(
            "response_item",
            type="message",
            role="user",
            content=[
                {"type": "input_text", "text": "<environment_context>cwd</environment_context>"}
            ],
        ),
        rollout(
            "response_item",
            type="message",
            role="user",
            content=[{"type": "input_text", "text": "fix the test"}],
        ),
        rollout(
            "response_item",
            type="function_call",
            name="shell",
            call_id="c1",
            arguments=json.dumps({"command": ["pytest"]}),
        ),
        rollout("response_item", type="function_call_output", call_id="c1", output=wrapped),
    )
    user, call = result.events
    assert user["text"] == "fix the test"
    assert call["input"] == {"command": ["pytest"]}
    assert call["result"] == {"ok": False, "output": "1 failed", "exit_code": 1}
    assert result.meta["model"] == "gpt-5-codex" and result.meta["session_id"] == "th-9"


def test_rollout_exec_command_end_before_the_output_sets_code_and_duration():
    result = run(
        "codex-rollout",
        rollout("response_item", type="custom_tool_call", name="shell", call_id="c1", input="make"),
        rollout(
            "event_msg",
            type="exec_command_end",
            call_id="c1",
            exit_code=2,
            aggregated_output="err",
            duration={"secs": 1, "nanos": 500_000_000},
        ),
        rollout(
            "response_item",
            type="custom_tool_call_output",
            call_id="c1",
            output=[{"type": "input_text", "text": "err"}],
        ),
        rollout("event_msg", type="agent_message", message="dup"),
    )
    call = result.events[0]
    assert call["result"] == {"ok": False, "output": "err", "exit_code": 2}
    assert call["duration_ms"] == 1500
    assert result.sources == [[1, 2, 3]]
    assert result.unmapped[0].reason == "agent_message: copy of a response item"


def test_the_legacy_pre_envelope_rollout_is_read_too():
    result = run(
        "codex-rollout",
        {"id": "sess-1", "timestamp": "2025-06-01T00:00:00Z", "instructions": None},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "think"}]},
        {
            "type": "function_call",
            "name": "shell",
            "call_id": "c1",
            "arguments": '{"command": ["ls"]}',
        },
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": json.dumps({"output": "a", "metadata": {"exit_code": 0}}),
        },
    )
    assert [e["type"] for e in result.events] == ["user", "reasoning", "tool_call"]
    assert result.events[2]["result"] == {"ok": True, "output": "a", "exit_code": 0}
    assert result.meta["session_id"] == "sess-1"
