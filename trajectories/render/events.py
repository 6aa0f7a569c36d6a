"""Trajectory events as view dicts for the attempt page: previews, never whole bodies.

This runs once per event of trajectories with tens of thousands of them, so it
does plain dict work and no per-event queries, lexing or template lookups of
model attributes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from django.conf import settings

from core import formatting, jsonsafe
from trajectories.render.json import pretty_preview
from trajectories.render.text import cut, visible

# Event types of release format v1; anything else is shown as given, styled as "other".
KNOWN_TYPES = ("system", "user", "message", "reasoning", "tool_call", "error")
# Keys shown by the event's own layout; any other key is listed under "more".
_SHOWN_KEYS = {
    "index",
    "type",
    "ts",
    "tool",
    "input",
    "result",
    "text",
    "tokens",
    "duration_ms",
    "source",
}


def _parse_ts(ts: str) -> datetime | None:
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None


def type_class(event_type: str) -> str:
    return event_type if event_type in KNOWN_TYPES else "other"


def _command(value: Any) -> tuple[str | None, dict]:
    """A shell command (``{"command": …}``) and the input's other keys."""
    if isinstance(value, dict) and isinstance(value.get("command"), str):
        rest = {k: v for k, v in value.items() if k != "command"}
        return value["command"], rest
    if isinstance(value, dict) and isinstance(value.get("cmd"), list | str):
        cmd = value["cmd"]
        joined = " ".join(str(part) for part in cmd) if isinstance(cmd, list) else cmd
        return joined, {k: v for k, v in value.items() if k != "cmd"}
    return None, {}


def event_view(row: dict, *, start: datetime | None, limits: dict) -> dict[str, Any]:
    """One event row (from ``queries.page_events``) as what the template shows."""
    preview = limits["event_preview_chars"]
    input_preview = limits["event_input_preview_chars"]
    doc = row["doc"]
    if jsonsafe.RAW_KEY in doc:
        # Stored packed because it held a NUL; the text columns are already cut.
        doc = jsonsafe.unpack(doc)
    event_type = row["type"]
    view: dict[str, Any] = {
        "index": row["index"],
        "type": event_type,
        "kind": type_class(event_type),
        "ts": row["ts"],
        "clock": row["ts"][11:19],
        "elapsed": "",
        "tokens": doc.get("tokens") if isinstance(doc.get("tokens"), dict) else None,
        "duration_ms": doc.get("duration_ms"),
        "problem": False,
        "lines": row.get("lines"),
    }
    if start is not None and row["ts"]:
        moment = _parse_ts(row["ts"])
        if moment is not None:
            view["elapsed"] = formatting.offset((moment - start).total_seconds())
    text = row["text_preview"]
    if text is not None:
        view["text"] = visible(text[:preview])
        view["text_cut"] = row["text_length"] > preview
        view["text_length"] = row["text_length"]
    if event_type == "tool_call":
        _tool_call(view, row, doc, preview, input_preview)
    elif event_type == "error":
        view["source"] = doc.get("source")
        view["problem"] = True
    extra = {k: v for k, v in doc.items() if k not in _SHOWN_KEYS}
    if extra:
        view["extra"], view["extra_cut"] = pretty_preview(extra, input_preview)
    return view


def _tool_call(view: dict, row: dict, doc: dict, preview: int, input_preview: int) -> None:
    view["tool"] = row["tool"]
    value = doc.get("input")
    command, rest = _command(value)
    if command is not None:
        view["command"], view["command_cut"] = cut(visible(command), input_preview)
        if rest:
            view["input"], view["input_cut"] = pretty_preview(rest, input_preview)
    elif value is not None:
        view["input"], view["input_cut"] = pretty_preview(value, input_preview)
    result = doc.get("result")
    view["returned"] = isinstance(result, dict)
    if not view["returned"]:
        view["problem"] = True
        return
    view["ok"] = row["ok"]
    view["exit_code"] = row["exit_code"]
    view["problem"] = row["ok"] is False
    output = row["output_preview"]
    if output is not None:
        view["output"] = visible(output[:preview])
        view["output_cut"] = row["output_length"] > preview
        view["output_length"] = row["output_length"]


def event_views(
    rows: Iterable[dict], limits: dict, first_ts: str | None = None
) -> Iterator[dict[str, Any]]:
    """Views of ``rows`` as they come (the page streams them); elapsed time counts
    from ``first_ts`` (a slice's: the whole trajectory's first time), else from
    the first event that has a time."""
    start = _parse_ts(first_ts) if first_ts else None
    for row in rows:
        if start is None and row["ts"]:
            start = _parse_ts(row["ts"])
        yield event_view(row, start=start, limits=limits)


def tool_summary(
    problems: dict[str, Any],
    calls: dict[str, int],
    failed: dict[str, int],
) -> list[dict[str, Any]]:
    """Per tool: calls, failed calls and the first few failures' indices (most calls first).

    ``problems`` is ``Evidence.problems``, kept at import.
    """
    first_failures = settings.BENCHVIEW_LIMITS["attempt_first_failures"]
    firsts = problems.get("failures", {})
    never = problems.get("never_returned", {})
    return [
        {
            "tool": tool,
            "calls": count,
            "failed": failed.get(tool, 0),
            "first_failures": firsts.get(tool, [])[:first_failures],
            "never_returned": never.get(tool, [])[:first_failures],
        }
        for tool, count in sorted(calls.items(), key=lambda item: (-item[1], item[0]))
    ]


def type_toggles(by_type: dict[str, int]) -> list[dict[str, Any]]:
    """One show/hide switch per styled kind (unknown types share "other"), in spec order."""
    kinds: dict[str, dict[str, Any]] = {}
    for event_type, n in by_type.items():
        kind = type_class(event_type)
        entry = kinds.setdefault(kind, {"kind": kind, "types": [], "count": 0})
        entry["types"].append(event_type)
        entry["count"] += n
    order = (*KNOWN_TYPES, "other")
    return sorted(kinds.values(), key=lambda e: order.index(e["kind"]))
