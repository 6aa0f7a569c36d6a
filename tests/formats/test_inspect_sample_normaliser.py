"""The Inspect sample normaliser: messages → events, events add time and errors."""

from __future__ import annotations

import orjson
import pytest

from formats.normalise import detect, normalise
from samplegen.inspect_logs import sample_record
from tests.formats.normalise.helpers import check_contract


def _sample(**overrides) -> dict:
    record = sample_record(3, 1, model="openai/gpt-x", turns=6, value="C", flag="flag{x}")
    record.update(overrides)
    return record


def _run(record: dict):
    data = orjson.dumps(record)
    result = normalise(data)
    check_contract(result, lines=len(record["messages"]) + len(record["events"]))
    return result


def test_a_sample_is_detected_by_its_content_and_gives_the_conversation_in_order():
    record = _sample()
    assert detect(orjson.dumps(record)) == "inspect-sample"
    assert detect(orjson.dumps(record, option=orjson.OPT_INDENT_2)) == "inspect-sample"
    result = _run(record)
    kinds = [e["type"] for e in result.events]
    assert kinds[:2] == ["system", "user"]
    system = result.events[0]
    assert system["model"] == "openai/gpt-x" and system["tool_count"] == 3
    # Each turn: its reasoning, its text where it has one, its call.
    calls = [e for e in result.events if e["type"] == "tool_call"]
    assert [c["tool"] for c in calls] == ["bash", "python"] * 3 + ["submit"]
    assert calls[0]["input"] == {"cmd": "ls -la /ctf/0"}
    assert calls[-1]["result"] == {"ok": True, "output": "flag{x}", "exit_code": None}
    assert kinds.count("reasoning") == 7
    assert result.meta["model"] == "openai/gpt-x"


def test_model_and_tool_events_give_times_durations_and_tokens():
    result = _run(_sample())
    first_turn = [e for e in result.events if e["type"] == "reasoning"][0]
    assert first_turn["ts"].startswith("2026-11-20T09:00:00")
    assert first_turn["tokens"] == {"input": 400, "output": 40}
    call = [e for e in result.events if e["type"] == "tool_call"][0]
    assert call["duration_ms"] == 150
    # Sources: the assistant message, the tool message, and both events.
    assert len(result.sources[call["index"]]) == 3


def test_a_tool_error_fails_the_call_and_says_why():
    result = _run(_sample())
    failed = [e for e in result.events if e["type"] == "tool_call" and not e["result"]["ok"]]
    assert [e["result"]["output"] for e in failed] == ["[timeout] Command timed out after 10s"]


def test_a_limit_and_an_error_end_the_trajectory_as_harness_errors():
    record = _sample(limit={"type": "message", "limit": 12}, error={"message": "boom"})
    result = _run(record)
    assert [(e["type"], e["text"], e["source"]) for e in result.events[-2:]] == [
        ("error", "boom", "harness"),
        ("error", "message limit reached (limit 12)", "harness"),
    ]


def test_bookkeeping_events_are_unmapped_with_their_kind_and_model_inputs_never_matter():
    record = _sample()
    # A model event's input repeating the conversation changes nothing.
    for event in record["events"]:
        if event["event"] == "model":
            event["input"] = record["messages"] * 3
    result = _run(record)
    reasons = {u.reason for u in result.unmapped}
    assert reasons == {"sample_init event", "score event"}
    assert _run(_sample()).events == result.events


def test_attachments_are_resolved_and_images_and_redacted_reasoning_are_named():
    key = "0123456789abcdef0123456789abcdef"
    record = _sample(attachments={key: "the long system prompt"})
    record["messages"][0]["content"] = f"attachment://{key}"
    record["messages"][1]["content"] = [
        {"type": "text", "text": "look:"},
        {"type": "image", "image": "data:image/png;base64,AAAA"},
    ]
    record["messages"][2]["content"] = [{"type": "reasoning", "reasoning": "", "redacted": True}]
    result = _run(record)
    assert result.events[0]["text"] == "the long system prompt"
    assert result.events[1]["text"] == "look:\n[image]"
    assert result.events[2] == {
        **result.events[2],
        "type": "reasoning",
        "text": "[redacted reasoning]",
    }


def test_a_result_without_a_call_and_a_call_without_result():
    record = _sample()
    record["messages"][3]["tool_call_id"] = "nobody"  # the first call's answer, orphaned
    result = _run(record)
    assert "tool result with no call before it" in {u.reason for u in result.unmapped}
    first = [e for e in result.events if e["type"] == "tool_call"][0]
    assert first["result"] is None


def test_hostile_html_is_kept_as_text():
    record = _sample()
    record["messages"][1]["content"] = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    result = _run(record)
    assert result.events[1]["text"] == "<script>alert(1)</script><img src=x onerror=alert(2)>"


def test_bad_bytes_in_a_string_read_as_replacement_characters():
    data = orjson.dumps(_sample()).replace(b"Find the flag", b"Find the \xff\xfe flag")
    result = normalise(data, "inspect-sample")
    assert "Find the \ufffd\ufffd flag" in result.events[1]["text"]


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"{not json", "not JSON (stderr or other text)"),
        (b"[1, 2]", "JSON but not an object"),
        (b'{"id": 1, "epoch": 1}', "not an Inspect sample"),
    ],
)
def test_what_is_no_sample_gives_no_events_and_every_line_unmapped(data, reason):
    result = normalise(data, "inspect-sample")
    assert result.events == []
    assert [(u.line, u.reason) for u in result.unmapped] == [(1, reason)]


def test_inspects_tool_names_join_their_families():
    from formats.tools import tool_family

    assert tool_family("bash_session") == "bash"
    assert tool_family("text_editor") == "edit"
    assert tool_family("python") == "python"
