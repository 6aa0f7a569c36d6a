"""Claude Code ``claude -p --output-format stream-json --verbose``.

Mapping (docs/transcripts.md): ``system/init`` → ``system``; assistant
blocks → ``message`` / ``reasoning`` / ``tool_call``; ``tool_result`` blocks
in later user lines → the call's ``result`` (paired by ``tool_use_id``); user
text → ``user``; an assistant line with ``error`` → ``error`` (provider); a
``result`` with ``is_error`` → ``error``. Sub-agent traffic (non-null
``parent_tool_use_id``) is kept and its events carry ``"subagent": <the Task
call's tool_use id>``. Everything else is an unmapped line with its reason.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.claude_blocks import Calls
from formats.normalise.lines import (
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    event,
    iso_ts,
    lines_of,
    loads,
    reread,
    type_of,
)

NAME = "claude-stream-json"

_DROPPED = {
    "stream_event": "partial-message delta (the complete assistant line follows)",
    "rate_limit_event": "rate-limit notice",
    "control_request": "control protocol line",
    "control_response": "control protocol line",
    "control_cancel_request": "control protocol line",
    "keep_alive": "keep-alive",
    "conversation_reset": "conversation reset notice",
}


def looks_like(head: Head) -> bool:
    for obj in head:
        kind = type_of(obj)
        if "parentUuid" in obj or "sessionId" in obj:
            return False  # session file
        if kind == "system" and obj.get("subtype") == "init" and "session_id" in obj:
            return True
        if kind in ("assistant", "user") and "session_id" in obj and "message" in obj:
            return True
        if kind == "result" and "session_id" in obj and "is_error" in obj:
            return True
    return False


def _init(out: Builder, number: int, obj: dict[str, Any], ts: str | None) -> None:
    tools = obj.get("tools")
    model = obj.get("model")
    out.add(
        event(
            "system",
            ts=ts,
            model=model if isinstance(model, str) else "",
            tool_count=len(tools) if isinstance(tools, list) else 0,
            session_id=obj["session_id"] if isinstance(obj.get("session_id"), str) else None,
            cwd=obj["cwd"] if isinstance(obj.get("cwd"), str) else None,
        ),
        number,
    )
    out.meta.setdefault("session_id", obj.get("session_id"))
    out.meta.setdefault("model", model)
    if isinstance(obj.get("claude_code_version"), str):
        out.meta.setdefault("harness_version", obj["claude_code_version"])


def _result(out: Builder, number: int, obj: dict[str, Any], ts: str | None) -> None:
    out.meta["complete"] = True
    for key in ("total_cost_usd", "cost_usd"):  # renamed across versions
        if isinstance(obj.get(key), int | float):
            out.meta["cost_usd"] = obj[key]
            break
    for key in ("duration_ms", "duration_api_ms", "num_turns", "subtype", "stop_reason"):
        if key in obj:
            out.meta[key] = obj[key]
    if isinstance(obj.get("usage"), dict):
        out.meta["result_usage"] = obj["usage"]
    if not obj.get("is_error"):
        out.skip(number, "run summary (totals in meta)")
        return
    errors = obj.get("errors")
    text = as_text(obj.get("result")) or (
        "; ".join(as_text(e) for e in errors) if isinstance(errors, list) else ""
    )
    source = "provider" if obj.get("api_error_status") is not None else "harness"
    out.add(event("error", ts=ts, source=source, text=text or as_text(obj.get("subtype"))), number)


@register(NAME, looks_like)
def normalise_stream(data: bytes) -> Normalised:
    out = Builder(NAME)
    calls = Calls(out)
    out.meta["complete"] = False  # a killed run has no result line
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        kind = type_of(obj)
        stamp = obj.get("timestamp")
        ts = None if stamp is None else iso_ts(stamp)
        parent = obj.get("parent_tool_use_id")
        subagent = parent if parent and isinstance(parent, str) else None
        if kind == "assistant":
            calls.assistant(number, obj.get("message"), ts, subagent, obj.get("error"))
        elif kind == "user":
            calls.user(number, obj.get("message"), ts, subagent, False, obj.get("tool_use_result"))
        elif kind == "system" and obj.get("subtype") == "init":
            _init(out, number, obj, ts)
        elif kind == "system":
            out.skip(number, f"system notice ({as_text(obj.get('subtype')) or 'no subtype'})")
        elif kind == "result":
            _result(out, number, obj, ts)
        elif kind in _DROPPED:
            out.skip(number, f"{kind}: {_DROPPED[kind]}")
        else:
            out.skip(number, f"unknown line type {as_text(kind)[:60]!r}")
    if calls.usage:
        out.meta["tokens"] = calls.usage
    return out.done()
