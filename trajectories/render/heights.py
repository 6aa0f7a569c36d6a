"""Estimated heights of trajectory events, so the attempt page can give every
event and every slice not yet loaded its room before it arrives.

The unit is a line of text as the attempt page shows an event (``event_lines``):
its head, then its text, command, input and output as previewed, wrapped at
``COLUMNS`` characters; a folded part (reasoning, "More fields") counts its
summary line only. The import keeps the sums per block of ``HEIGHT_BLOCK``
events (``Evidence.height_lines``); the page's stylesheet and script turn lines
into pixels (a line's height and an event's padding), scaled to the width.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from trajectories.render.events import event_view

# Events per stored figure: 2,000 figures for 200,000 events, a few KB on the page.
HEIGHT_BLOCK = 100
# The width at which lines are counted; the page scales to its own.
COLUMNS = 100
# An event's class names its height up to this many lines (ev-l1 … ev-l40).
MOST_LINES = 40


def _wrapped(text: str) -> int:
    return sum(max(1, -(-len(line) // COLUMNS)) for line in text.split("\n"))


def event_lines(view: dict[str, Any]) -> int:
    """The lines event ``view`` (from ``events.event_view``) takes on the page."""
    lines = 1  # the head
    if "text" in view:
        if view["kind"] == "reasoning":
            lines += 1  # folded: its summary
        else:
            lines += _wrapped(view["text"]) + (1 if view["text_cut"] else 0)
    for part in ("command", "input"):
        if view.get(part) is not None:
            lines += _wrapped(view[part])
    if view.get("output") is not None:
        lines += _wrapped(view["output"]) + (1 if view["output_cut"] else 0)
    elif view["type"] == "tool_call" and not view["returned"]:
        lines += 1
    if view.get("extra"):
        lines += 1  # folded: "More fields"
    return lines


def split_large(event: dict) -> tuple[dict, str | None, str | None]:
    """An event as it is stored: its ``text`` and its result's ``output`` (the
    large strings, each in a column of its own) apart from the rest."""
    doc = dict(event)
    text = doc.pop("text", None)
    output = None
    result = doc.get("result")
    if isinstance(result, dict) and "output" in result:
        result = dict(result)
        output = result.pop("output")
        doc["result"] = result
    return doc, text, output


def _row(event: dict) -> dict:
    """An imported event as the row ``event_view`` reads (``queries.page_events``)."""
    doc, text, output = split_large(event)
    result = doc.get("result")
    return {
        "index": event["index"],
        "type": event["type"],
        "ts": event.get("ts") or "",
        "tool": event.get("tool") or "",
        "ok": result.get("ok") if isinstance(result, dict) else None,
        "exit_code": result.get("exit_code") if isinstance(result, dict) else None,
        "doc": doc,
        "text_preview": text,
        "text_length": len(text) if text is not None else 0,
        "output_preview": output,
        "output_length": len(output) if output is not None else 0,
    }


def block_lines(events: Iterable[dict], limits: dict) -> list[int]:
    """Lines per block of ``HEIGHT_BLOCK`` events of an imported trajectory (in order)."""
    blocks: list[int] = []
    for position, event in enumerate(events):
        if position % HEIGHT_BLOCK == 0:
            blocks.append(0)
        blocks[-1] += event_lines(event_view(_row(event), start=None, limits=limits))
    return blocks
