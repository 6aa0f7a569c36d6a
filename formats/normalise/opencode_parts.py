"""OpenCode message parts → events, shared by ``run --format json`` and storage."""

from __future__ import annotations

from typing import Any

from formats.normalise.lines import (
    as_text,
    event,
    ident,
    ms_ts,
    result,
    span_ms,
    text_event,
    tool_call,
    type_of,
)

# Error names that mean the model provider failed, not OpenCode itself.
PROVIDER_ERRORS = frozenset(
    {"APIError", "ProviderAuthError", "ContextOverflowError", "MessageOutputLengthError"}
)


def _exit(metadata: Any) -> int | None:
    if not isinstance(metadata, dict):
        return None
    code = metadata.get("exit", metadata.get("exitCode"))  # hand-edited captures say exitCode
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def part_event(part: dict[str, Any], fallback_ms: Any = None) -> dict[str, Any] | None:
    """The event of a text, reasoning or tool part; None for any other part."""
    kind = type_of(part)
    if kind == "text" or kind == "reasoning":
        times = part.get("time")
        start = times.get("start") if isinstance(times, dict) else None
        ts = ms_ts(start) or ms_ts(fallback_ms)
        return text_event(
            "message" if kind == "text" else "reasoning", ts, as_text(part.get("text"))
        )
    if kind != "tool":
        return None
    state = part.get("state")
    if not isinstance(state, dict):
        state = {}
    spent = state.get("time")
    if not isinstance(spent, dict):
        spent = {}
    ev = tool_call(
        part.get("tool"), state.get("input"), ms_ts(spent.get("start")) or ms_ts(fallback_ms)
    )
    status = state.get("status")
    code = _exit(state.get("metadata"))
    if status == "completed":
        # A failing bash command still "completes": its exit code tells.
        ev["result"] = result(code is None or code == 0, state.get("output"), code)
    elif status == "error":
        ev["result"] = result(False, state.get("error"), code)
    start, end = spent.get("start"), spent.get("end")
    took = span_ms(start, end) if isinstance(start, int) and isinstance(end, int) else None
    if took is not None:
        ev["duration_ms"] = took
    return ev


def step_tokens(part: dict[str, Any]) -> dict[str, int] | None:
    tokens = part.get("tokens")
    if not isinstance(tokens, dict):
        return None
    given, made = tokens.get("input"), tokens.get("output")
    if _count(given) and _count(made):
        return {"input": given, "output": made}
    return None


def _count(value: Any) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def error_event(error: Any, ts: str | None) -> dict[str, Any]:
    name = error.get("name") if isinstance(error, dict) else None
    data = error.get("data") if isinstance(error, dict) else None
    text = as_text(data.get("message")) if isinstance(data, dict) else ""
    source = "provider" if ident(name) in PROVIDER_ERRORS else "harness"
    return event("error", ts=ts, source=source, text=text or as_text(name) or as_text(error))
