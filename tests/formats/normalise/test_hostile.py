"""Hostile transcripts never crash a normaliser and lose no line."""

from __future__ import annotations

import json
import random

import pytest

from formats.normalise import NORMALISERS, UnknownFormat, detect, normalise
from tests.formats.normalise.helpers import (
    FIXTURES,
    check_contract,
    check_document_contract,
    jsonl,
    numbers_items,
)

HUGE = "x" * (10 * 1024 * 1024)
DEEP = b"[" * 100_000 + b"]" * 100_000  # far past orjson's nesting limit


def hostile_lines() -> list[bytes]:
    return [
        json.dumps({"type": "assistant", "blob": HUGE}).encode(),  # a 10 MB line
        b'{"type": "user", "text": "bad \xff\xfe bytes"}',  # invalid UTF-8 inside JSON
        b"\xff\xfe\x00\x00 not even json",
        b'{"type": "user", "nul": "a\x00b"}',  # a raw NUL is not valid JSON
        json.dumps({"type": "user", "nul": "a\u0000b <script>alert(1)</script>"}).encode(),
        DEEP,
        b'{"deep": ' + b'{"a":' * 2000 + b"1" + b"}" * 2000 + b"}",
        b"",
        b"   ",
        b"[1, 2, 3]",
        b'{"type": 42, "payload": [], "item": "no", "msg": null, "part": 7}',
        # Types that cannot be looked up in a set or dict (unhashable).
        b'{"type": [], "payload": {"type": {}}, "item": {"type": []}, "part": {"type": []}}',
        b'{"type": {"a": 1}, "msg": {"type": []}}',
        json.dumps(
            {
                "type": "assistant",
                "message": {"content": [{"type": []}, {"type": {}, "text": "x"}]},
            }
        ).encode(),
    ]


@pytest.mark.parametrize("fmt", sorted(NORMALISERS))
def test_every_normaliser_survives_hostile_lines(fmt):
    data = b"\n".join(hostile_lines()) + b"\n"
    result = normalise(data, fmt)
    check_contract(result, data)
    reasons = {u.line: u.reason for u in result.unmapped}
    assert reasons[6] == "JSON nested too deeply to read"
    assert reasons[8] == "blank line" and reasons[9] == "blank line"
    assert reasons[3] == "invalid UTF-8, not JSON"
    assert reasons[4] == "not JSON (stderr or other text)"


FORMAT_LINES = {
    "claude-stream-json": (
        {
            "type": "assistant",
            "session_id": "s",
            "parent_tool_use_id": None,
            "message": {
                "id": "m1",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "x"}}
                ],
            },
        },
        {
            "type": "user",
            "session_id": "s",
            "parent_tool_use_id": None,
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "ghost", "content": "\ufffd <b>bold</b>"}
                ]
            },
        },
    ),
    "codex-exec": (
        {
            "type": "item.started",
            "item": {
                "id": "item_0",
                "type": "command_execution",
                "command": "x",
                "status": "in_progress",
            },
        },
        {"type": "item.completed", "item": {"id": "ghost", "type": "bogus"}},
    ),
    "opencode-run": (
        {
            "type": "tool_use",
            "sessionID": "s",
            "part": {"type": "tool", "tool": "bash", "state": {"status": "pending"}},
        },
        {"type": "step_finish", "sessionID": "s", "part": {"tokens": "lots"}},
    ),
}


UNHASHABLE_INNER_TYPES = [
    {"type": "response_item", "payload": {"type": [], "content": []}},
    {"type": "event_msg", "payload": {"type": {}}},
    {"type": "item.completed", "item": {"id": "i", "type": {}}},
    {"type": "text", "sessionID": "s", "part": {"type": []}},
    {"type": "user", "uuid": "u", "parentUuid": None, "message": {"content": [{"type": []}]}},
]


@pytest.mark.parametrize("fmt", sorted(set(NORMALISERS) - {"atif"}))
def test_a_type_that_is_a_list_or_object_is_unmapped_not_a_crash(fmt):
    data = b"".join(json.dumps(line).encode() + b"\n" for line in UNHASHABLE_INNER_TYPES)
    check_contract(normalise(data, fmt), data)


@pytest.mark.parametrize("fmt", sorted(FORMAT_LINES))
def test_a_call_without_result_and_a_result_without_call(fmt):
    call, orphan = (json.dumps(x).encode() for x in FORMAT_LINES[fmt])
    data = b"\n".join([call, *hostile_lines(), orphan])
    assert detect(data) == fmt
    result = normalise(data)
    check_contract(result, data)
    assert result.events[0]["type"] == "tool_call" and result.events[0]["result"] is None
    assert result.unmapped[-1].line == len(hostile_lines()) + 2


def test_invalid_utf8_inside_a_json_string_keeps_the_event_with_replacement_characters():
    data = (
        b'{"type": "item.completed", "item": {"id": "i", "type": "agent_message", '
        b'"text": "caf\xe9 \xff"}}\n'
    )
    result = normalise(data, "codex-exec")
    assert result.events[0]["text"] == "caf\ufffd \ufffd"


def test_content_of_no_known_format_is_refused_clearly():
    assert detect(b"hello\nworld\n") is None
    with pytest.raises(UnknownFormat):
        normalise(b"hello\n")
    with pytest.raises(UnknownFormat, match="unknown transcript format 'nope'"):
        normalise(b"{}\n", "nope")


def mutations(data: bytes, rng):
    """Damaged copies of a transcript: cut short, bytes flipped, values retyped."""
    yield data[: rng.randrange(len(data))]
    flipped = bytearray(data)
    for _ in range(20):
        flipped[rng.randrange(len(flipped))] = rng.randrange(256)
    yield bytes(flipped)
    text = data.decode("utf-8", "replace")
    for needle, swap in (
        ('"', "'"),
        ("{", "["),
        ('": "', '": 7, "x": "'),
        ('"id"', '"di"'),
        ('":', '": null, "y":'),
        ("true", '{"a": [1]}'),
    ):
        yield text.replace(needle, swap, rng.randrange(1, 40)).encode()


@pytest.mark.parametrize("sample", sorted(p.name for p in FIXTURES.glob("*.jsonl")))
def test_damaged_samples_never_raise_in_any_normaliser(sample):
    rng = random.Random(sample)
    data = (FIXTURES / sample).read_bytes()
    for damaged in mutations(data, rng):
        for fmt in NORMALISERS:
            result = normalise(damaged, fmt)
            if numbers_items(fmt, result):
                check_document_contract(result)
            else:
                check_contract(result, damaged)
        detect(damaged)


def test_a_huge_first_line_does_not_hide_the_format():
    big = {
        "type": "assistant",
        "session_id": "s",
        "parent_tool_use_id": None,
        "message": {"id": "m", "content": [{"type": "text", "text": HUGE}]},
    }
    init = {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": []}
    data = jsonl(json.dumps(big), json.dumps(init))
    assert detect(data) == "claude-stream-json"
    result = normalise(data)
    assert [e["type"] for e in result.events] == ["message", "system"]
    assert len(result.events[0]["text"]) == len(HUGE)
