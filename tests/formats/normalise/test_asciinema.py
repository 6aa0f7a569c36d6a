"""asciinema recordings (Terminal-Bench's sessions/agent.cast): keystrokes and screen, in order."""

from __future__ import annotations

import json

from formats.normalise import detect, normalise
from formats.normalise.asciinema import keys_text, screen_text
from formats.tools import tool_family
from tests.formats.normalise.helpers import check_contract, jsonl

HEADER = {"version": 2, "width": 160, "height": 40, "timestamp": 1752278626, "env": {}}


def cast(*events, header=HEADER) -> bytes:
    return jsonl(json.dumps(header), *(json.dumps(e) for e in events))


def run(data: bytes):
    assert detect(data) == "asciinema"
    result = normalise(data)
    check_contract(result, data)
    return result


def test_each_run_of_keystrokes_is_a_terminal_call_with_the_screen_that_followed():
    data = cast(
        [0.003, "o", "\u001b[?2004hroot@box:/app# "],
        [0.97, "i", "ls -la\r"],
        [0.971, "o", "ls -la\r\n\u001b[32mtotal 0\u001b[0m\r\n"],
        [1.5, "o", "root@box:/app# "],
        [2.0, "i", "cat "],
        [2.1, "i", "x.txt\r"],
        [2.2, "o", "hello\r\n"],
    )
    result = run(data)
    system, first, second = result.events
    assert system["type"] == "system" and system["ts"] == "2025-07-12T00:03:46.000Z"
    assert system["screen"] == "root@box:/app# "
    assert first["tool"] == "terminal" and tool_family(first["tool"]) == "bash"
    assert first["input"] == {"keys": "ls -la\n"}
    assert first["result"] == {
        "ok": True,
        "output": "ls -la\ntotal 0\nroot@box:/app# ",
        "exit_code": None,
    }
    assert first["ts"] == "2025-07-12T00:03:46.970Z" and first["duration_ms"] == 530
    assert second["input"] == {"keys": "cat x.txt\n"}  # two chunks typed back to back
    assert result.sources == [[1, 2], [3, 4, 5], [6, 7, 8]]


def test_control_keys_are_shown_and_a_progress_line_shows_what_was_written_last():
    assert keys_text("\u0003") == "^C" and keys_text("\u0004") == "^D"
    assert screen_text("50%\r100%\r\ndone\u0007") == "100%\ndone"
    assert screen_text("\u001b]0;title\u0007plain \u001b[1;31mred\u001b[0m") == "plain red"


def test_markers_resizes_and_broken_lines_are_unmapped_with_a_reason():
    data = (
        cast(
            [0.1, "i", "make\r"],
            [0.2, "m", "checkpoint"],
            [0.3, "r", "80x24"],
            [0.4, "o", "ok\r\n"],
            ["soon", "o", "x"],
            {"an": "object"},
        )
        + b"not json at all\n"
    )
    result = run(data)
    reasons = {u.line: u.reason for u in result.unmapped}
    assert reasons == {
        3: "marker (not an event)",
        4: "terminal resize",
        6: "not an asciicast event ([time, code, data])",
        7: "a JSON object after the header",
        8: "not JSON (stderr or other text)",
    }
    assert result.events[1]["result"]["output"] == "ok\n"


def test_a_recording_cut_off_mid_command_keeps_the_keys_typed():
    data = cast([0.5, "i", "sleep 100\r"])
    result = run(data)
    assert result.events[1]["input"] == {"keys": "sleep 100\n"}
    assert result.events[1]["result"]["output"] == ""


def test_bytes_that_are_not_utf8_keep_the_event():
    data = cast([0.5, "i", "echo\r"]) + b'[0.6, "o", "caf\xe9\\r\\n"]\n'
    result = run(data)
    assert result.events[1]["result"]["output"] == "caf\ufffd\n"


def test_v3_times_are_intervals_and_its_exit_is_unmapped():
    header = {"version": 3, "term": {"cols": 100, "rows": 30}, "timestamp": 1752278626}
    data = cast([0.5, "i", "true\r"], [0.25, "o", "done\r\n"], [1.0, "x", "0"], header=header)
    result = run(data)
    assert result.events[1]["duration_ms"] == 250
    assert result.events[0]["terminal"] == "100x30"
    assert [u.reason for u in result.unmapped] == ["exit status of the recorded shell"]


def test_detected_by_content_not_other_json_lines():
    assert detect(cast([0.1, "o", "x"])) == "asciinema"
    assert detect(jsonl('{"version": 2}', '[0.1, "o", "x"]')) != "asciinema"
    assert detect(jsonl('{"type": "thread.started", "thread_id": "t"}')) != "asciinema"
