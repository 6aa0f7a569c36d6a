"""Hostile values in well-formed transcripts: every normaliser and normalise_transcript
survive them with a valid document that can be written back as JSON.

Each case takes a real capture and replaces, on every line, the values a
normaliser pairs or sums by (ids, usage, durations) or passes through (tool
inputs) with what a red team put there: an object for an id, a string for a
usage, 2^63 for a duration, 300 levels of nesting for a tool's input.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.core.management import CommandError, call_command

from formats.normalise import detect, normalise
from formats.v1.event_schema import check_events
from tests import children
from tests.formats.normalise.helpers import (
    DOCUMENT_FORMATS,
    FIXTURES,
    check_contract,
    check_document_contract,
    numbers_items,
)

HARBOR = FIXTURES.parent / "harbor"
CAPTURES = sorted(FIXTURES.glob("*.jsonl")) + [
    HARBOR / "harbor_atif_v1.7_claude-code_trajectory_pass.json",
    HARBOR / "harbor_atif_v1.7_hello_trajectory_from_session_d7d4e19e.json",
]


def deep(levels: int) -> dict:
    value: dict = {"command": "ls"}
    for _ in range(levels):
        value = {"a": value}
    return value


_ID = re.compile(r"(^|_)id$|Id$|^uuid$|Uuid$")
MUTATIONS: dict[str, tuple[Callable[[str], bool], Any]] = {
    "an object for every id": (lambda key: bool(_ID.search(key)), {"x": 1}),
    "a string for every usage": (lambda key: key in ("usage", "tokens", "metrics"), "x"),
    "2^63 for every duration and time": (
        lambda key: key in ("duration", "duration_ms", "start", "end", "secs", "exit_code"),
        2**63,
    ),
    "300 levels for every tool input": (
        lambda key: key in ("input", "arguments", "args"),
        deep(300),
    ),
}


def mutate(value: Any, hit: Callable[[str], bool], new: Any) -> Any:
    if isinstance(value, dict):
        return {k: new if hit(k) else mutate(v, hit, new) for k, v in value.items()}
    if isinstance(value, list):
        return [mutate(v, hit, new) for v in value]
    return value


def mutated(path: Path, hit: Callable[[str], bool], new: Any) -> bytes:
    data = path.read_bytes()
    if detect(data) in DOCUMENT_FORMATS:  # one JSON document (ATIF, an Inspect sample)
        return json.dumps(mutate(json.loads(data), hit, new)).encode()
    lines = []
    for line in data.split(b"\n"):
        try:
            lines.append(json.dumps(mutate(json.loads(line), hit, new)).encode())
        except ValueError:
            lines.append(line)
    return b"\n".join(lines)


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.stem)
def test_a_hostile_value_gives_a_valid_writable_document(capture, mutation, tmp_path):
    hit, new = MUTATIONS[mutation]
    data = mutated(capture, hit, new)
    fmt = detect(capture.read_bytes())
    result = normalise(data, fmt)
    if numbers_items(fmt, result):
        check_document_contract(result)
    elif fmt not in DOCUMENT_FORMATS:
        check_contract(result, data)
    assert check_events(result.events) == []
    orjson.dumps({"events": result.events})  # what the import and the mirror write

    path = tmp_path / capture.name
    path.write_bytes(data)
    out = io.StringIO()
    call_command(
        "normalise_transcript", str(path), "--format", fmt, stdout=out, stderr=io.StringIO()
    )
    assert json.loads(out.getvalue())["events"] == json.loads(orjson.dumps(result.events))


def test_a_300_level_input_is_kept_as_its_json_text():
    line = {
        "type": "item.completed",
        "item": {
            "id": "i1",
            "type": "mcp_tool_call",
            "server": "s",
            "tool": "t",
            "arguments": deep(300),
            "status": "completed",
        },
    }
    result = normalise(json.dumps(line).encode() + b"\n", "codex-exec")
    (call,) = result.events
    assert isinstance(call["input"], str) and json.loads(call["input"]) == deep(300)


def test_an_atif_tool_call_id_that_is_no_string_is_an_atif_problem():
    doc = json.loads((CAPTURES[-1]).read_bytes())
    doc["steps"][1]["tool_calls"][0]["tool_call_id"] = {"x": 1}
    result = normalise(json.dumps(doc).encode(), "atif")
    assert any("tool_call_id that is no string" in p for p in result.meta["problems"])


def test_dev_zero_and_a_fifo_are_refused_at_once(tmp_path):
    """In a process of its own, held to 1 GiB and 30 s: a reader without bounds
    would fill the memory on /dev/zero and wait for ever on a FIFO."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    code = """
        import resource, sys
        from django.core.management import CommandError, call_command
        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))
        for path in sys.argv[1:]:
            try:
                call_command("normalise_transcript", path)
            except CommandError as exc:
                print(exc, flush=True)
        """
    child = children.start(code, args=["/dev/zero", str(fifo)])
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("normalise_transcript did not return")
    assert child.returncode == 0, err
    assert out.splitlines() == [
        "/dev/zero: not a regular file (a device)",
        f"{fifo}: not a regular file (a FIFO)",
    ]


def test_a_file_over_the_limit_is_refused_by_what_is_read(tmp_path, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "file_max_bytes": 10}
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"{}\n" * 10)
    with pytest.raises(CommandError, match=r"big.jsonl: over the 10-byte limit"):
        call_command("normalise_transcript", str(path), stdout=io.StringIO())
