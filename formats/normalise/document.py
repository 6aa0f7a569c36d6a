"""Shared parts of the normalisers whose transcript is one JSON document
(SWE-agent ``.traj``, mini-swe-agent trajectories, OpenHands histories).

Their ``sources[i]`` are 1-based *positions in the document's list of steps*
(as ATIF's are), not text lines. A document that cannot be read as one gives
no events and every text line in ``unmapped`` with why, as the line formats
do, so the contract "nothing is lost silently" holds for any input.
"""

from __future__ import annotations

from typing import Any

import orjson

from formats.normalise import Normalised
from formats.normalise.lines import Builder, iso_ts, read_lines, split_lines


def load(data: bytes) -> tuple[Any, str | None]:
    """The parsed document, or None and why it could not be read."""
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError as exc:
        return None, f"not one JSON document ({exc})"


def unread(fmt: str, data: bytes, problems: list[str], reason: str | None) -> Normalised:
    """No events: every line of ``data`` unmapped. ``reason`` is for a JSON
    document of the wrong shape (given to each of its lines); without one, each
    line is judged on its own, as the line normalisers judge it."""
    out = Builder(fmt)
    if reason is None:
        for number, _ in read_lines(data, out):
            out.skip(number, f"a JSON line, not a {fmt} document")
    else:
        for number, raw in enumerate(split_lines(data), 1):
            out.skip(number, reason if raw.strip() else "blank line")
    result = out.done()
    result.meta["problems"] = problems
    return result


def text(value: Any) -> str:
    """A message's content: a string, or OpenAI-style parts whose text is joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for part in value:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, dict) and part.get("type") in ("image", "image_url"):
                parts.append("[image]")
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return ""


def utc(value: Any) -> str | None:
    """An ISO stamp; one written without an offset is UTC (OpenHands writes them so)."""
    if not isinstance(value, str) or len(value) < 19:
        return None
    if iso_ts(value):
        return value
    return iso_ts(value + "Z")


def epoch_ts(value: Any) -> str | None:
    """Unix seconds (a float, as mini-swe-agent writes them) as an ISO UTC stamp."""
    from formats.normalise.lines import ms_ts

    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value != value or not 0 <= value < 2**35:  # NaN, or no plausible date
        return None
    return ms_ts(int(round(value * 1000)))


def tokens(usage: Any) -> dict[str, int] | None:
    """``{input, output}`` from an OpenAI-style usage object, where it has both."""
    if not isinstance(usage, dict):
        return None
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if type(prompt) is int and type(completion) is int and prompt >= 0 and completion >= 0:
        return {"input": prompt, "output": completion}
    return None
