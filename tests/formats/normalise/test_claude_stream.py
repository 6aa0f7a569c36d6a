"""Claude Code stream-json: each quirk of harness-formats §1.2/§1.4."""

from __future__ import annotations

import json

from formats.normalise import normalise
from tests.formats.normalise.helpers import check_contract, counts, jsonl

SID = "0b5c-session"


def line(**obj) -> str:
    return json.dumps(obj)


def init(**extra) -> str:
    return line(
        type="system",
        subtype="init",
        session_id=SID,
        cwd="/app",
        model="claude-x",
        tools=["Bash", "Read", "Edit"],
        **extra,
    )


def assistant(*blocks, mid="msg_1", parent=None, usage=None, ts=None, **extra) -> str:
    message = {
        "id": mid,
        "role": "assistant",
        "model": "claude-x",
        "content": list(blocks),
        "usage": usage or {"input_tokens": 10, "output_tokens": 5},
    }
    obj = {
        "type": "assistant",
        "message": message,
        "parent_tool_use_id": parent,
        "session_id": SID,
        **extra,
    }
    if ts:
        obj["timestamp"] = ts
    return json.dumps(obj)


def results(*blocks, parent=None, ts=None, **extra) -> str:
    obj = {
        "type": "user",
        "message": {"role": "user", "content": list(blocks)},
        "parent_tool_use_id": parent,
        "session_id": SID,
        **extra,
    }
    if ts:
        obj["timestamp"] = ts
    return json.dumps(obj)


def use(ident, name="Bash", **inp):
    return {"type": "tool_use", "id": ident, "name": name, "input": inp or {"command": "ls"}}


def answer(ident, content, is_error=False):
    return {"type": "tool_result", "tool_use_id": ident, "content": content, "is_error": is_error}


def run(*lines):
    data = jsonl(*lines)
    result = normalise(data, "claude-stream-json")
    check_contract(result, data)
    return result


def test_init_becomes_the_system_event_with_model_and_tool_count():
    result = run(init(timestamp="2026-11-02T10:00:00.000Z"))
    assert result.events == [
        {
            "index": 0,
            "type": "system",
            "ts": "2026-11-02T10:00:00.000Z",
            "model": "claude-x",
            "tool_count": 3,
            "session_id": SID,
            "cwd": "/app",
        }
    ]


def test_split_lines_of_one_response_count_their_usage_once():
    usage = {"input_tokens": 7, "output_tokens": 40, "cache_read_input_tokens": 900}
    result = run(
        assistant({"type": "text", "text": "Looking."}, usage=usage),
        assistant(use("t1"), usage=usage),
        assistant(use("t2"), usage=usage),
        assistant(
            {"type": "text", "text": "Next."},
            mid="msg_2",
            usage={"input_tokens": 1, "output_tokens": 2},
        ),
    )
    assert [e["type"] for e in result.events] == ["message", "tool_call", "tool_call", "message"]
    assert result.meta["tokens"] == {"input": 8, "output": 42, "cache_read": 900}


def test_batched_results_pair_by_tool_use_id_in_any_order():
    result = run(
        assistant(use("t1", command="one")),
        assistant(use("t2", command="two")),
        results(answer("t2", "second"), answer("t1", "first")),
    )
    one, two = result.events
    assert one["result"]["output"] == "first" and two["result"]["output"] == "second"
    assert result.sources == [[1, 3], [2, 3]]


def test_exit_code_is_parsed_from_the_text_and_is_error_means_not_ok():
    result = run(
        assistant(use("t1", command="pytest")),
        results(answer("t1", "Exit code 2\n1 failed", is_error=True)),
        assistant(use("t2", command="true")),
        results(answer("t2", "")),
        assistant(use("t3", name="Read", file_path="/x")),
        results(answer("t3", "EISDIR: illegal operation on a directory, read", is_error=True)),
    )
    failed, ok, read = (e["result"] for e in result.events)
    assert failed == {"ok": False, "output": "1 failed", "exit_code": 2}
    assert ok == {"ok": True, "output": "", "exit_code": 0}
    assert read == {
        "ok": False,
        "output": "EISDIR: illegal operation on a directory, read",
        "exit_code": None,
    }


def test_tool_result_content_may_be_a_string_or_a_block_list():
    result = run(
        assistant(use("t1")),
        results(
            answer(
                "t1",
                [
                    {"type": "text", "text": "a"},
                    {"type": "image", "source": {}},
                    {"type": "text", "text": "b"},
                ],
            )
        ),
        assistant(use("t2")),
        results(answer("t2", "plain")),
    )
    assert [e["result"]["output"] for e in result.events] == ["a\n[image]\nb", "plain"]


def test_subagent_traffic_is_kept_and_marked_with_the_task_call_id():
    result = run(
        assistant(use("task1", name="Task", prompt="find it")),
        results({"type": "text", "text": "find it"}, parent="task1"),
        assistant(use("sub1", command="grep -r x"), mid="msg_sub", parent="task1"),
        results(answer("sub1", "hit"), parent="task1"),
        results(answer("task1", "found it")),
    )
    task, prompt, grep = result.events
    assert "subagent" not in task and task["result"]["output"] == "found it"
    assert prompt == {"index": 1, "type": "user", "text": "find it", "subagent": "task1"}
    assert grep["subagent"] == "task1" and grep["result"]["ok"] is True


def test_stderr_between_json_lines_is_unmapped_not_fatal():
    result = run(
        init(),
        "node:internal/process/promises:288",
        "    at async Promise.all (index 0)",
        assistant({"type": "text", "text": "still here"}),
    )
    assert counts(result) == {"system": 1, "message": 1}
    assert [(u.line, u.reason) for u in result.unmapped] == [
        (2, "not JSON (stderr or other text)"),
        (3, "not JSON (stderr or other text)"),
    ]


def test_a_killed_run_has_no_result_line_and_its_open_call_no_result():
    result = run(init(), assistant(use("t1", command="sleep 999")))
    assert result.events[1]["result"] is None
    assert result.meta["complete"] is False


def test_a_result_with_is_error_is_an_error_event():
    result = run(
        init(),
        line(
            type="result",
            subtype="success",
            is_error=True,
            api_error_status=529,
            result="API Error: 529 overloaded",
            session_id=SID,
        ),
        line(type="result", subtype="error_max_turns", is_error=True, errors=[], session_id=SID),
    )
    provider, harness = result.events[1:]
    assert provider["source"] == "provider" and provider["text"] == "API Error: 529 overloaded"
    assert harness["source"] == "harness" and harness["text"] == "error_max_turns"
    assert result.meta["complete"] is True


def test_a_successful_result_is_run_metadata():
    result = run(
        line(
            type="result",
            subtype="success",
            is_error=False,
            total_cost_usd=0.5,
            num_turns=3,
            session_id=SID,
        )
    )
    assert result.events == []
    assert result.unmapped[0].reason == "run summary (totals in meta)"
    assert result.meta["cost_usd"] == 0.5 and result.meta["num_turns"] == 3


def test_an_assistant_error_line_is_a_provider_error():
    result = run(
        assistant({"type": "text", "text": "API Error: Rate limit reached"}, error="rate_limit")
    )
    assert result.events == [
        {"index": 0, "type": "error", "source": "provider", "text": "API Error: Rate limit reached"}
    ]


def test_thinking_and_redacted_thinking_are_reasoning():
    result = run(
        assistant({"type": "thinking", "thinking": "Hmm.", "signature": "sig"}),
        assistant({"type": "redacted_thinking", "data": "opaque"}),
        assistant({"type": "thinking", "thinking": "", "signature": "sig-only"}),
    )
    assert [(e["type"], e["text"]) for e in result.events] == [
        ("reasoning", "Hmm."),
        ("reasoning", "[redacted thinking]"),
    ]
    assert result.unmapped[0].line == 3  # a signature with no text says nothing


def test_hook_rate_limit_partial_and_control_lines_are_unmapped_with_a_reason():
    result = run(
        line(type="system", subtype="hook_started", hook_id="h1"),
        line(type="rate_limit_event", rate_limit_info={"status": "allowed"}),
        line(type="stream_event", event={"type": "content_block_delta"}),
        line(type="control_request", request={"subtype": "can_use_tool"}),
        line(type="brand_new_thing"),
    )
    assert result.events == []
    reasons = [u.reason for u in result.unmapped]
    assert reasons[0] == "system notice (hook_started)"
    assert reasons[1].startswith("rate_limit_event")
    assert reasons[2].startswith("stream_event")
    assert reasons[3].startswith("control_request")
    assert reasons[4] == "unknown line type 'brand_new_thing'"


def test_a_tool_duration_comes_from_the_two_lines_timestamps():
    result = run(
        assistant(use("t1"), ts="2026-11-02T10:00:00.000Z"),
        results(answer("t1", "ok"), ts="2026-11-02T10:00:01.250Z"),
    )
    assert result.events[0]["ts"] == "2026-11-02T10:00:00.000Z"
    assert result.events[0]["duration_ms"] == 1250


def test_a_result_for_no_known_call_is_unmapped():
    result = run(results(answer("ghost", "boo")))
    assert result.events == []
    assert result.unmapped[0].reason == "tool result for a call not in the transcript"
