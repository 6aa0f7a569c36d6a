"""Legacy ``codex exec --json`` (before ~0.44): raw protocol events ``{"id", "msg"}``.

``agent_message`` → ``message``; ``agent_reasoning`` → ``reasoning``;
``user_message`` → ``user``; ``exec_command_begin`` / ``exec_command_end``
→ one ``tool_call`` ``shell`` paired by ``call_id`` (ok when the exit code is
0); ``patch_apply_begin`` / ``end`` → ``apply_patch``; ``mcp_tool_call_begin``
/ ``end`` → ``<server>.<tool>``; ``error`` / ``stream_error`` → ``error``
(provider), ``turn_aborted`` → ``error`` (harness). The first line (a config
summary without ``msg``) and streaming deltas, token counts and task markers
are unmapped.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.codex_calls import duration_ms
from formats.normalise.lines import (
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    event,
    lines_of,
    loads,
    reread,
    result,
    tool_call,
)

NAME = "codex-legacy"

_TEXT = {
    "agent_message": ("message", "message"),
    "agent_reasoning": ("reasoning", "text"),
    "user_message": ("user", "message"),
}


def looks_like(head: Head) -> bool:
    return any(
        isinstance(obj.get("msg"), dict) and "type" in obj["msg"] and "id" in obj for obj in head
    )


def _begin(msg: dict[str, Any]) -> tuple[str, Any]:
    kind = msg["type"]
    if kind == "exec_command_begin":
        return "shell", {"command": msg.get("command"), "cwd": msg.get("cwd")}
    if kind == "patch_apply_begin":
        return "apply_patch", {"changes": msg.get("changes")}
    invocation = msg.get("invocation") if isinstance(msg.get("invocation"), dict) else {}
    name = f"{as_text(invocation.get('server'))}.{as_text(invocation.get('tool'))}"
    return name, invocation.get("arguments")


def _end(msg: dict[str, Any]) -> dict[str, Any]:
    kind = msg["type"]
    if kind == "exec_command_end":
        code = msg.get("exit_code")
        output = msg.get("aggregated_output")
        if output is None:
            output = as_text(msg.get("stdout")) + as_text(msg.get("stderr"))
        return result(code == 0, output, code)
    if kind == "patch_apply_end":
        return result(
            bool(msg.get("success")), as_text(msg.get("stdout")) + as_text(msg.get("stderr"))
        )
    outcome = msg.get("result")
    failed = isinstance(outcome, dict) and "Err" in outcome
    return result(
        not failed, outcome.get("Err" if failed else "Ok") if isinstance(outcome, dict) else outcome
    )


@register(NAME, looks_like)
def normalise_legacy(data: bytes) -> Normalised:
    out = Builder(NAME)
    calls: dict[str, dict[str, Any]] = {}
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        msg = obj.get("msg")
        if not isinstance(msg, dict):
            if "model" in obj:
                out.meta.setdefault("model", obj.get("model"))
            out.skip(number, "config summary" if number == 1 else "line without msg")
            continue
        kind = as_text(msg.get("type"))
        ident = msg.get("call_id")
        if kind in _TEXT:
            ours, key = _TEXT[kind]
            out.add_text(ours, None, as_text(msg.get(key)), number)
        elif kind.endswith("_begin") and kind[: -len("_begin")] in (
            "exec_command",
            "patch_apply",
            "mcp_tool_call",
        ):
            name, given = _begin(msg)
            ev = out.add(tool_call(name, given), number)
            if isinstance(ident, str):
                calls[ident] = ev
        elif kind in ("exec_command_end", "patch_apply_end", "mcp_tool_call_end"):
            ev = calls.pop(ident, None) if isinstance(ident, str) else None
            if ev is None:
                out.skip(number, f"{kind} for a call not in the transcript")
                continue
            ev["result"] = _end(msg)
            took = duration_ms(msg.get("duration"))
            if took is not None:
                ev["duration_ms"] = took
            out.source(ev, number)
        elif kind in ("error", "stream_error"):
            out.add(event("error", source="provider", text=as_text(msg.get("message"))), number)
        elif kind == "turn_aborted":
            text = f"turn aborted: {as_text(msg.get('reason'))}"
            out.add(event("error", source="harness", text=text), number)
        elif kind == "token_count":
            out.meta["tokens"] = {k: v for k, v in msg.items() if k != "type"}
            out.skip(number, "token count (in meta)")
        else:
            out.skip(number, f"{kind or 'untyped'} event")
    return out.done()
