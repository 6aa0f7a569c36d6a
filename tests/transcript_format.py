"""A tiny transcript format for tests, registered only while a test runs.

It lets the import's use of the normalisers be tested on transcripts a test
writes itself, whatever the real formats do: the first line is a header,
each ``{"event": {...}}`` line is one event, any other line gives none.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from formats import normalise
from formats.normalise import Normalised, Unmapped

NAME = "test-lines"
HEADER = b'{"test_lines": 1}'


def _looks_like(head) -> bool:
    return head.data.startswith(HEADER)


def _normalise(data: bytes) -> Normalised:
    out = Normalised(format=NAME)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if number == 1:
            out.unmapped.append(Unmapped(number, "format header"))
            continue
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            out.unmapped.append(Unmapped(number, "not JSON"))
            continue
        if not isinstance(value, dict) or "event" not in value:
            out.unmapped.append(Unmapped(number, "not an event line"))
            continue
        out.events.append({**value["event"], "index": len(out.events)})
        out.sources.append([number])
    return out


def register(monkeypatch) -> str:
    """Register the format first, ahead of the real ones, for one test."""
    monkeypatch.setattr(normalise, "DETECTORS", {NAME: _looks_like, **normalise.DETECTORS})
    monkeypatch.setitem(normalise.NORMALISERS, NAME, _normalise)
    return NAME


def write_transcript(folder: Path, events: list[dict], *, noise: dict[int, str] | None = None):
    """transcript.jsonl in the test format holding ``events``; ``noise`` puts a
    non-event line before the event of that index. Returns each event's line."""
    lines = [HEADER.decode()]
    where = []
    for i, event in enumerate(events):
        if noise and i in noise:
            lines.append(noise[i])
        lines.append(json.dumps({"event": event}))
        where.append(len(lines))
    (folder / "transcript.jsonl").write_text("\n".join(lines) + "\n")
    return where
