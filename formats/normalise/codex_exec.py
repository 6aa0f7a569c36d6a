"""Codex CLI ``codex exec --json`` thread events (since ~0.44).

An item (``item_N``) is emitted one to three times (started, updated,
completed); the completed one holds the final state. Each item becomes one
event placed where the item first appears, its source lines being all of its
lines; an item that never completes (killed run) keeps its last state, and a
command that never completed has ``result: null``. ``command_execution`` →
``tool_call`` ``shell`` (ok only when ``status`` is completed and the exit code
0; ``failed`` and ``declined`` are not ok); ``file_change`` → ``apply_patch``;
``mcp_tool_call`` → ``<server>.<tool>``; ``web_search`` → ``web_search``;
``todo_list`` → ``todo_list``; ``collab_tool_call`` → its ``tool``;
``agent_message`` → ``message``; ``reasoning`` → ``reasoning``; ``error`` items
(warnings) → ``error`` (harness); top-level ``error`` and ``turn.failed`` →
``error`` (provider). The stream has no timestamps, no model and no prompt:
there is no ``system`` or ``user`` event. Non-JSON lines (stderr, tracing) are
unmapped.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
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
    type_of,
    whole,
)

NAME = "codex-exec"

_ITEM_LINES = frozenset({"item.started", "item.updated", "item.completed"})
_THREAD = frozenset({"thread.started", "turn.started", "turn.completed", "turn.failed"})


def looks_like(head: Head) -> bool:
    return any(type_of(obj) in _ITEM_LINES | _THREAD for obj in head)


def _changes(changes: Any) -> str:
    if not isinstance(changes, list):
        return ""
    return "\n".join(
        f"{as_text(c.get('kind'))} {as_text(c.get('path'))}" for c in changes if isinstance(c, dict)
    )


def _todo(items: Any) -> str:
    if not isinstance(items, list):
        return ""
    return "\n".join(
        f"[{'x' if i.get('completed') else ' '}] {as_text(i.get('text'))}"
        for i in items
        if isinstance(i, dict)
    )


def fill(ev: dict[str, Any], item: dict[str, Any], done: bool) -> bool:
    """Set ``ev`` from the item's latest state; False for an item type we do not map."""
    kind = type_of(item)
    if kind == "agent_message" or kind == "reasoning":
        ev.pop("result", None)
        ev["type"] = "message" if kind == "agent_message" else "reasoning"
        text = item.get("text")
        ev["text"] = text if type(text) is str else as_text(text)
        return True
    if kind == "error":
        ev.pop("result", None)
        ev.update(type="error", source="harness", text=as_text(item.get("message")))
        return True
    status = item.get("status")
    ev["type"] = "tool_call"
    if kind == "command_execution":
        ev["tool"] = "shell"
        ev["input"] = {"command": item.get("command")}
        code = item.get("exit_code")
        ok = status == "completed" and code == 0
        ev["result"] = result(ok, item.get("aggregated_output"), code) if done else None
    elif kind == "file_change":
        ev.update(tool="apply_patch", input={"changes": item.get("changes")})
        ev["result"] = (
            result(status == "completed", _changes(item.get("changes"))) if done else None
        )
    elif kind == "mcp_tool_call":
        ev.update(
            tool=f"{as_text(item.get('server'))}.{as_text(item.get('tool'))}",
            input=item.get("arguments"),
        )
        error = item.get("error")
        outcome = item.get("result")
        if isinstance(error, dict):
            output = as_text(error.get("message"))
        elif isinstance(outcome, dict):
            content = outcome.get("content")
            output = "\n".join(
                as_text(c.get("text", c))
                for c in (content if isinstance(content, list) else [])
                if isinstance(c, dict)
            )
        else:
            output = ""
        ok = status == "completed" and not error
        ev["result"] = result(ok, output) if done else None
    elif kind == "web_search":
        ev.update(tool="web_search", input={"query": item.get("query")})
        ev["result"] = result(True, "") if done else None
    elif kind == "todo_list":
        ev.update(tool="todo_list", input={"items": item.get("items")})
        ev["result"] = result(True, _todo(item.get("items"))) if done else None
    elif kind == "collab_tool_call":
        ev.update(tool=as_text(item.get("tool")) or "collab", input={"prompt": item.get("prompt")})
        states = item.get("agents_states")
        ev["result"] = result(status == "completed", as_text(states)) if done else None
    else:
        return False
    return True


@register(NAME, looks_like)
def normalise_exec(data: bytes) -> Normalised:
    out = Builder(NAME)
    items: dict[str, dict[str, Any]] = {}
    unknown: dict[str, list[int]] = {}
    usage: dict[str, int] = {}
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        kind = type_of(obj)
        if kind in _ITEM_LINES:
            item = obj.get("item")
            ident = item.get("id") if isinstance(item, dict) else None
            if not isinstance(ident, str):
                out.skip(number, "item line without an item id")
                continue
            ev = items.get(ident)
            if ev is None and ident in unknown:
                unknown[ident].append(number)
                out.skip(number, f"unknown item type {as_text(item.get('type'))[:60]!r}")
                continue
            fresh = ev is None
            if fresh:
                ev = {
                    "index": -1,
                    "type": "tool_call",
                    "result": None,
                }  # event("tool_call", result=None)
            if not fill(ev, item, kind == "item.completed"):
                unknown[ident] = [number]
                out.skip(number, f"unknown item type {as_text(item.get('type'))[:60]!r}")
                continue
            if fresh:
                items[ident] = out.add(ev, number)
            else:
                out.source(ev, number)
        elif kind == "thread.started":
            # item ids restart with each exec process: a new thread is a new namespace.
            items.clear()
            out.meta.setdefault("session_id", obj.get("thread_id"))
            out.skip(number, "thread start (id in meta; the stream names no model)")
        elif kind == "turn.started":
            out.skip(number, "turn start")
        elif kind == "turn.completed":
            said = obj.get("usage")
            if not isinstance(said, dict):
                out.skip(number, "turn end (its usage is not an object)")
                continue
            for ours, theirs in (
                ("input", "input_tokens"),
                ("cache_read", "cached_input_tokens"),
                ("output", "output_tokens"),
            ):
                value = whole(said.get(theirs))
                if value is not None:
                    # Cumulative for the thread: the last one is the total.
                    usage[ours] = value
            out.skip(number, "turn end (usage in meta)")
        elif kind == "turn.failed":
            error = obj.get("error")
            text = as_text(error.get("message") if isinstance(error, dict) else error)
            out.add(event("error", source="provider", text=text or "turn failed"), number)
        elif kind == "error":
            out.add(event("error", source="provider", text=as_text(obj.get("message"))), number)
        else:
            out.skip(number, f"unknown line type {as_text(kind)[:60]!r}")
    if usage:
        out.meta["tokens"] = usage
    return out.done()
