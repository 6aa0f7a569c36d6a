"""What every NDJSON normaliser shares: reading lines, building the result.

``read_lines`` turns a transcript's bytes into (line number, object) pairs and
reports every line that is not a JSON object as unmapped, so a format module
only ever sees dicts. ``Builder`` numbers the events and keeps each event's
source lines beside it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import lru_cache
from io import BytesIO
from operator import attrgetter
from typing import Any

import orjson
from orjson import JSONDecodeError, loads

from formats.normalise import Normalised, Unmapped

# A run that was killed mid-write leaves a last line without its newline: it is
# still a line. "\r\n" endings are tolerated.
_CR = b"\r"
_LF = b"\n"


def split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _loads(raw: bytes) -> tuple[Any, str | None]:
    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError as exc:
        message = str(exc)
    if "depth limit" in message or "recursion" in message:
        return None, "JSON nested too deeply to read"
    if "utf-8" in message.lower():
        # A bad byte inside a tool output must not lose the whole event: read
        # the line with U+FFFD in place of the bytes that are not UTF-8.
        try:
            return orjson.loads(raw.decode("utf-8", "replace")), None
        except orjson.JSONDecodeError:
            return None, "invalid UTF-8, not JSON"
    return None, "not JSON (stderr or other text)"


def lines_of(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The transcript's lines with their 1-based numbers, each still ending in "\\n".

    BytesIO hands them out one at a time, found with memchr: cheaper than
    bytes.split (which tests every byte in turn and holds a copy of the whole
    file as line objects). orjson reads the "\\n" as trailing whitespace;
    ``reread`` takes it off the lines it could not read, so they are the same
    lines ``split_lines`` gives.
    """
    return enumerate(BytesIO(data), 1)


# What ``reread`` gives for a line it has put in ``unmapped``.
SKIPPED: Any = object()


def reread(out: Builder, number: int, raw: bytes) -> Any:
    """The JSON of a line orjson could not read as it is, or SKIPPED (with the reason)."""
    if raw.endswith(_LF):
        raw = raw[:-1]
    if raw.endswith(_CR):
        raw = raw[:-1]
    if not raw.strip():
        out.skip(number, "blank line")
        return SKIPPED
    obj, problem = _loads(raw)
    if problem is not None:
        out.skip(number, problem)
        return SKIPPED
    return obj


def read_lines(data: bytes, out: Builder) -> Iterator[tuple[int, dict[str, Any]]]:
    """The transcript's JSON objects with their 1-based line numbers.

    Blank lines, text that is not JSON and JSON that is not an object go to
    ``out.skip`` with the reason; they never stop the reading. The normalisers
    that run per line write this loop out themselves (``lines_of``, ``loads``,
    ``reread``, ``Builder.not_object``), which saves a generator switch a line.
    """
    for number, raw in lines_of(data):
        # The common case first, with nothing in its way: a line orjson reads.
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is dict:
            yield number, obj
        else:
            out.not_object(number, obj)


class Builder:
    """Collects events (numbered in order) and unmapped lines for one transcript."""

    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.events: list[dict[str, Any]] = []
        self.sources: list[list[int]] = []
        self.unmapped: list[Unmapped] = []
        self.meta: dict[str, Any] = {}
        # Lines are read in order, so an event's source lines come ascending;
        # only when one did not is there anything for done() to sort.
        self._unsorted = False

    def add(self, event: dict[str, Any], line: int) -> dict[str, Any]:
        """Append an event (``index`` is set here) and return it for later filling."""
        events = self.events
        event["index"] = len(events)
        events.append(event)
        self.sources.append([line])
        return event

    def source(self, event: dict[str, Any], line: int) -> None:
        """Record one more line an already added event came from."""
        lines = self.sources[event["index"]]
        if line not in lines:
            if line < lines[-1]:
                self._unsorted = True
            lines.append(line)

    def add_text(self, kind: str, ts: str | None, text: str, line: int) -> dict[str, Any]:
        """``add(text_event(kind, ts, text), line)`` in one call: it runs on most lines."""
        events = self.events
        if ts is None:
            event = {"index": len(events), "type": kind, "text": text}
        else:
            event = {"index": len(events), "type": kind, "ts": ts, "text": text}
        events.append(event)
        self.sources.append([line])
        return event

    def skip(self, line: int, reason: str) -> None:
        # Unmapped(line, reason) without the frozen dataclass's __init__, whose
        # two object.__setattr__ calls cost more than reading the line: the
        # fields go into the instance dict, where that __init__ puts them.
        unmapped = _new(Unmapped)
        fields = unmapped.__dict__
        fields["line"] = line
        fields["reason"] = reason
        self.unmapped.append(unmapped)

    def not_object(self, line: int, obj: Any) -> None:
        """Unmapped reason of a line that gave no JSON object (``reread`` has said why)."""
        if obj is not SKIPPED:
            self.skip(line, "JSON but not an object")

    def done(self) -> Normalised:
        if self._unsorted:
            for lines in self.sources:
                if len(lines) > 1:
                    lines.sort()
        self.unmapped.sort(key=_LINE)
        return Normalised(self.format, self.events, self.sources, self.unmapped, self.meta)


_LINE = attrgetter("line")
_new = object.__new__


# Fields v1 requires even when null (a call that never returned, a tool with no input).
_KEEP_NULL = frozenset({"result", "input"})


def event(kind: str, **fields: Any) -> dict[str, Any]:
    """A v1 event with ``index`` and ``type`` first (the index is set by Builder.add)."""
    out: dict[str, Any] = {"index": -1, "type": kind}
    for key, value in fields.items():
        if value is not None or key in _KEEP_NULL:
            out[key] = value
    return out


# The helpers below run once or more per line: they build their dicts as
# literals (same keys, same order as ``event`` would) and test exact types
# first, because keyword packing and generic filtering cost more than the
# JSON parsing of the line itself.


def text_event(kind: str, ts: str | None, text: str) -> dict[str, Any]:
    """``event(kind, ts=ts, text=text)`` for a ``text`` that is a string."""
    if ts is None:
        return {"index": -1, "type": kind, "text": text}
    return {"index": -1, "type": kind, "ts": ts, "text": text}


def tool_call(tool: Any, tool_input: Any, ts: str | None = None) -> dict[str, Any]:
    # Cut to the events table's column: a hostile line's name may be a 1,000-level list.
    name = ((tool or "unknown") if type(tool) is str else (as_text(tool) or "unknown"))[:200]
    if ts is None:
        return {"index": -1, "type": "tool_call", "tool": name, "input": tool_input, "result": None}
    return {
        "index": -1,
        "type": "tool_call",
        "ts": ts,
        "tool": name,
        "input": tool_input,
        "result": None,
    }


# Integers an event may carry (exit codes, durations, token counts): what
# every reader of the release format stores, a signed 64-bit integer.
INT_MAX = 2**63 - 1


def whole(value: Any) -> int | None:
    """``value`` if it is an integer (not a bool) a signed 64-bit integer holds, else None."""
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        return value if -INT_MAX - 1 <= value <= INT_MAX else None
    return None


# An exit code is stored in a 32-bit column on every database.
EXIT_CODE_MIN, EXIT_CODE_MAX = -(2**31), 2**31 - 1


def exit_code_of(value: Any) -> int | None:
    """An exit code from an integer or its digits ("-1", "137"); None unless it fits."""
    if isinstance(value, str):
        digits = value[1:] if value[:1] == "-" else value
        # Bounded before int(): 5,000 digits raise ValueError, and none is an exit code.
        if not (0 < len(digits) <= 11 and digits.isdecimal()):
            return None
        value = int(value)
    code = whole(value)
    return code if code is not None and EXIT_CODE_MIN <= code <= EXIT_CODE_MAX else None


def span_ms(start: Any, end: Any) -> int | float | None:
    """``end - start`` when both are numbers and the span is positive and no
    longer than any figure the release format keeps (``number_max_abs``)."""
    if not (isinstance(start, int | float) and isinstance(end, int | float)):
        return None
    if isinstance(start, bool) or isinstance(end, bool):
        return None
    span = end - start
    return span if 0 < span <= _number_max_abs() else None


@lru_cache(maxsize=1)
def _number_max_abs() -> int:
    from django.conf import settings

    return settings.BENCHVIEW_LIMITS["number_max_abs"]


def ident(value: Any) -> str | None:
    """An id the pairings can look up: a string, else None (a list or object
    from a hostile line is no key of a dict or set)."""
    return value if type(value) is str else None


def result(ok: bool, output: Any, exit_code: Any = None) -> dict[str, Any]:
    return {
        "ok": ok if ok is True or ok is False else bool(ok),
        "output": output if type(output) is str else as_text(output),
        "exit_code": None if exit_code is None else exit_code_of(exit_code),
    }


def type_of(obj: dict) -> str | None:
    """A line's or block's ``type``, or None when it is not a string: the
    mappers look types up in sets and dicts, where a list or object from a
    hostile line would raise instead of being recorded as unmapped."""
    kind = obj.get("type")
    return kind if type(kind) is str else None


def as_text(value: Any) -> str:
    """Text as the page shows it: strings as they are, anything else as JSON."""
    if type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except (TypeError, orjson.JSONEncodeError):
        pass
    try:
        # Deeper than orjson writes, or an integer beyond 64 bits.
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return "[a value nested too deeply to show]"


def block_text(content: Any) -> str:
    """The text of a content value: a string, or a list of blocks with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        if len(content) == 1:
            # The usual content: one text block, whose text is the answer.
            block = content[0]
            if type(block) is dict:
                text = block.get("text")
                if type(text) is str:
                    return text
        parts = []
        for block in content:
            if isinstance(block, dict):
                text = block.get("text")
                if isinstance(text, str):
                    parts.append(text)
                elif block.get("type") in ("image", "input_image"):
                    parts.append("[image]")
            elif isinstance(block, str):
                parts.append(block)
        return "\n".join(parts)
    return as_text(content)


_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
_ISO_MATCH = _ISO.match
_WHOLE_SECOND = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d").fullmatch
# ".000Z" … ".999Z" → 0 … 999, and back: the tail of the usual stamp, read and
# checked (ASCII digits) in one look-up; int() and isdigit() cost more than
# the line's JSON.
_MILLIS = {f".{n:03d}Z": n for n in range(1000)}
_MILLIS_TAIL = tuple(_MILLIS)

# The stamp functions run on nearly every line. The usual shape,
# "YYYY-MM-DDTHH:MM:SS.mmmZ", is handled by parts: the tail by table, the
# whole seconds through a cache (a run's stamps share their seconds). Every
# other shape takes the general path, so the answers are the same.


def iso_ts(value: Any) -> str | None:
    """``value`` if it is an RFC 3339 timestamp, else None (trimmed or odd stamps)."""
    # The tail is found in the table only when 19 characters come before it.
    if type(value) is str and value[19:] in _MILLIS and _whole_second_ok(value[:19]):
        return value
    if isinstance(value, str) and _ISO_MATCH(value):
        return value
    return None


@lru_cache(maxsize=4096)
def _whole_second_ok(value: str) -> bool:
    return _WHOLE_SECOND(value) is not None


def ms_ts(value: Any) -> str | None:
    """Epoch milliseconds as an RFC 3339 UTC stamp with milliseconds."""
    if type(value) is not int and (not isinstance(value, int) or isinstance(value, bool)):
        return None
    if not 0 <= value < 2**45:
        return None
    # Whole seconds and milliseconds apart (a float of ms / 1000 can round down).
    return _second(value // 1000) + _MILLIS_TAIL[value % 1000]


@lru_cache(maxsize=4096)
def _second(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")


def ts_ms(value: str | None) -> int | None:
    """Milliseconds since the epoch of an RFC 3339 stamp (for durations)."""
    if value is None:
        return None
    ms = _MILLIS.get(value[19:])  # found only when there are 19 characters before
    if ms is not None:
        seconds = _whole_second_ms(value[:19])
        return None if seconds is None else seconds + ms
    return _epoch_ms(value)


@lru_cache(maxsize=4096)
def _whole_second_ms(value: str) -> int | None:
    return _epoch_ms(value + "Z")


@lru_cache(maxsize=4096)
def _epoch_ms(value: str) -> int | None:
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return round(moment.timestamp() * 1000)


def sniff(data: bytes, limit_lines: int = 200, line_max: int = 1 << 20) -> Iterator[dict]:
    """The JSON objects among the first lines, for format detection.

    Lines longer than ``line_max`` are passed over unread (a 10 MB tool
    output says nothing of the format), so the sniff stays cheap.
    """
    start = 0
    for _ in range(limit_lines):
        if start >= len(data):
            return
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        raw = data[start:end] if end - start <= line_max else b""
        start = end + 1
        raw = raw.strip()
        if not raw.startswith(b"{"):
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            yield obj


class Head:
    """A transcript's bytes and its first JSON objects (``sniff``), parsed once
    however many format detectors read them.

    Detection asks up to six formats in turn, and a format that does not match
    may read all 200 lines before it says so: parsed by each, the head of an
    OpenCode run was decoded five times over before its own detector saw it.
    """

    def __init__(self, data: bytes):
        self.data = data
        self._seen: list[dict] = []
        self._rest: Iterator[dict] | None = sniff(data)

    def __iter__(self) -> Iterator[dict]:
        position = 0
        while True:
            if position < len(self._seen):
                yield self._seen[position]
                position += 1
                continue
            following = next(self._rest, None) if self._rest is not None else None
            if following is None:
                self._rest = None
                return
            self._seen.append(following)
