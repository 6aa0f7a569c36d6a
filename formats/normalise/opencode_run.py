"""OpenCode ``opencode run --format json``.

``text`` / ``reasoning`` → ``message`` / ``reasoning``; ``tool_use`` (emitted
once, finished) → ``tool_call``: ``completed`` is ok unless bash's
``metadata.exit`` is non-zero, ``error`` is not ok; ``ts`` is the part's start
and ``duration_ms`` its end minus start (left out when 0). One step is one
model call: ``step_finish``'s ``tokens`` (input, output) go on the step's last
event, and cost and token totals into meta. ``error`` → ``error`` (provider
for APIError and the other provider errors, else harness). ``step_start``
and ``done`` lines, and steps with no part, are unmapped. The stream has no
session, prompt or model line: no ``system`` or ``user`` event.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.lines import (
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    lines_of,
    loads,
    ms_ts,
    reread,
    type_of,
)
from formats.normalise.opencode_parts import error_event, part_event, step_tokens

NAME = "opencode-run"
_TYPES = frozenset({"step_start", "step_finish", "tool_use", "text", "reasoning"})


def looks_like(head: Head) -> bool:
    return any(type_of(obj) in _TYPES and "sessionID" in obj and "part" in obj for obj in head)


@register(NAME, looks_like)
def normalise_run(data: bytes) -> Normalised:
    out = Builder(NAME)
    step: list[dict[str, Any]] = []
    totals: dict[str, Any] = {"cost_usd": 0.0, "input": 0, "output": 0}
    meta = out.meta
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        kind = type_of(obj)
        part = obj.get("part")
        if not isinstance(part, dict):
            part = {}
        if "session_id" not in meta:
            session = obj.get("sessionID")
            if isinstance(session, str):
                meta["session_id"] = session
        if kind == "tool_use" or kind == "text" or kind == "reasoning":
            ev = part_event(part, obj.get("timestamp"))
            if ev is None:
                out.skip(number, f"{kind} line without a {kind} part")
                continue
            step.append(out.add(ev, number))
        elif kind == "step_start":
            step = []
            out.skip(number, "step start")
        elif kind == "step_finish":
            tokens = step_tokens(part)
            cost = part.get("cost")
            if isinstance(cost, int | float):
                totals["cost_usd"] += cost
            if tokens:
                totals["input"] += tokens["input"]
                totals["output"] += tokens["output"]
            if step and tokens:
                step[-1]["tokens"] = tokens
                out.source(step[-1], number)
            else:
                out.skip(number, "step end (no part to carry its tokens)")
            step = []
        elif kind == "error":
            out.add(error_event(obj.get("error"), ms_ts(obj.get("timestamp"))), number)
        elif kind == "done":
            out.skip(number, "end of run")
        else:
            out.skip(number, f"unknown line type {as_text(kind)[:60]!r}")
    out.meta["totals"] = totals
    return out.done()
