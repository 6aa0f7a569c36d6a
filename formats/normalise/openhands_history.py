"""OpenHands evaluation histories → v1 events.

One instance of OpenHands' ``output.jsonl`` (a JSON object with
``instance_id``, ``metadata``, ``history[]``, ``test_result``, ``metrics``),
or a bare ``history`` list. The history is OpenHands' event stream: actions
(``action``: ``system``, ``message``, ``run``, ``read``, ``edit``, ``think``,
``finish``, …, with ``args``) and observations (``observation``, with
``content``, ``extras`` and ``cause``: the id of the action they answer).
Older histories are ``[action, observation]`` pairs. ``sources[i]`` are
1-based positions in ``history`` (``document``).

Mapping:

- ``system`` → the session start (``system``: the model of
  ``metadata.llm_config.model``, the tools of ``args.tools``).
- ``message`` → ``user`` or ``message`` by its ``source``; ``think`` →
  ``reasoning``; ``finish`` → ``message`` (its final thought).
- any other action → ``message`` (its ``thought``, when there is one), then
  ``tool_call``: the tool is ``tool_call_metadata.function_name``
  (``execute_bash``, ``str_replace_editor``, …) or else the action's name;
  the input is ``args``.
- an observation → the result of the action its ``cause`` names (also a
  source of that call): ``exit_code`` from ``extras.metadata.exit_code``,
  ``ok`` when it is 0 (an ``error`` observation is not ok). One that answers
  no call is an ``error`` event (``error`` observations) or a ``user`` event
  marked ``"observation": true``.
- bookkeeping (agent state changes, memory recalls, condensations, null
  observations) gives no event: it is unmapped with the reason.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.document import load, text, tokens, unread, utc
from formats.normalise.lines import Builder, Head, as_text, event, exit_code_of

FORMAT = "openhands-history"
_WINDOW = 1 << 16
_BOOKKEEPING = frozenset(
    {"change_agent_state", "agent_state_changed", "recall", "condensation", "null", "pause"}
)


def looks_like_openhands(head: Head) -> bool:
    """A JSON object with a ``history`` list of OpenHands events, or such a list."""
    start = head.data[:_WINDOW].lstrip()
    if start.startswith(b"{"):
        return b'"history"' in start and b'"action"' in start and b'"source"' in start
    if start.startswith(b"["):
        return b'"action"' in start and b'"source"' in start and b'"args"' in start
    return False


def _entries(history: list) -> list[tuple[int, Any]]:
    """(position, event) of every history event; an old pair is one position."""
    found = []
    for position, item in enumerate(history, 1):
        if isinstance(item, list):
            found += [(position, part) for part in item]
        else:
            found.append((position, item))
    return found


@register(FORMAT, looks_like_openhands)
def normalise_openhands(data: bytes) -> Normalised:
    problems: list[str] = []
    doc, problem = load(data)
    if problem is not None:
        problems.append(problem)
        return unread(FORMAT, data, problems, None)
    history = doc.get("history") if isinstance(doc, dict) else doc
    if not isinstance(history, list):
        problems.append("no history list: not an OpenHands history")
        return unread(FORMAT, data, problems, "JSON, but not an OpenHands history")
    meta = doc if isinstance(doc, dict) else {}
    metadata = meta.get("metadata") if isinstance(meta.get("metadata"), dict) else {}
    llm = metadata.get("llm_config") if isinstance(metadata.get("llm_config"), dict) else {}
    model = llm.get("model") if isinstance(llm.get("model"), str) else ""
    out = Builder(FORMAT)
    out.meta.update(
        {
            "problems": problems,
            "model": model or None,
            "instance_id": meta.get("instance_id"),
            "metrics": meta.get("metrics"),
            "error": meta.get("error"),
        }
    )
    if not history:
        out.skip(1, "an OpenHands history with no events")
        return out.done()
    calls: dict[Any, dict[str, Any]] = {}
    last_call: dict[str, Any] | None = None
    mapped: set[int] = set()
    for position, item in _entries(history):
        before = len(out.events)
        if not isinstance(item, dict):
            problems.append(f"history[{position - 1}] holds a value that is not an event")
        elif "observation" in item:
            answered = _observe(out, item, position, calls, last_call)
            if answered:
                mapped.add(position)
                continue
        elif "action" in item:
            call = _act(out, item, position, model)
            if call is not None:
                last_call = call
                ident = item.get("id")
                if isinstance(ident, int | str) and not isinstance(ident, bool):
                    calls[ident] = call
        if len(out.events) > before:
            mapped.add(position)
    _unmapped(out, history, mapped)
    return out.done()


def _unmapped(out: Builder, history: list, mapped: set[int]) -> None:
    for position, item in enumerate(history, 1):
        if position in mapped:
            continue
        kind = None
        if isinstance(item, dict):
            kind = item.get("observation") or item.get("action")
        if isinstance(kind, str) and kind in _BOOKKEEPING:
            out.skip(position, f"bookkeeping ({kind})")
        elif isinstance(item, dict):
            out.skip(position, f"an event with no content ({as_text(kind)[:40]})")
        else:
            out.skip(position, "not an event object")


def _act(out: Builder, item: dict, position: int, model: str) -> dict[str, Any] | None:
    """The events of one action; returns its tool call, if it is one."""
    action = item.get("action")
    args = item.get("args") if isinstance(item.get("args"), dict) else {}
    ts = utc(item.get("timestamp"))
    source = item.get("source")
    if not isinstance(action, str) or action in _BOOKKEEPING:
        return None
    if action == "system":
        tools = args.get("tools")
        body = text(args.get("content")) or text(item.get("message"))
        count = len(tools) if isinstance(tools, list) else 0
        out.add(event("system", ts=ts, model=model, tool_count=count, text=body), position)
        return None
    if action == "message":
        body = text(args.get("content")) or text(item.get("message"))
        kind = "user" if source == "user" else "message"
        out.add(event(kind, ts=ts, text=body), position)
        return None
    if action == "think":
        out.add(event("reasoning", ts=ts, text=text(args.get("thought"))), position)
        return None
    if action == "finish":
        body = (
            text(args.get("final_thought"))
            or text(args.get("thought"))
            or text(item.get("message"))
        )
        out.add(event("message", ts=ts, text=body or "finished"), position)
        return None
    first = len(out.events)
    thought = args.get("thought")
    if isinstance(thought, str) and thought.strip():
        out.add(event("message", ts=ts, text=thought), position)
    metadata = item.get("tool_call_metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    name = metadata.get("function_name")
    tool = name if isinstance(name, str) and name else action
    call = event("tool_call", ts=ts, tool=tool, input=args, result=None)
    ident = metadata.get("tool_call_id")
    if isinstance(ident, str):
        call["call_id"] = ident
    out.add(call, position)
    response = metadata.get("model_response")
    used = tokens(response.get("usage")) if isinstance(response, dict) else None
    if used is not None:
        out.events[first]["tokens"] = used
    return call


def _observe(out: Builder, item: dict, position: int, calls: dict, last_call: dict | None) -> bool:
    """Map one observation; True when it answered a call (then it is that call's source)."""
    kind = item.get("observation")
    if not isinstance(kind, str) or kind in _BOOKKEEPING:
        return False
    cause = item.get("cause")
    call = (
        calls.get(cause) if isinstance(cause, int | str) and not isinstance(cause, bool) else None
    )
    if (
        call is None
        and "cause" not in item
        and last_call is not None
        and last_call["result"] is None
    ):
        call = last_call  # an old pair: the observation answers the action beside it
    body = text(item.get("content")) or text(item.get("message"))
    extras = item.get("extras") if isinstance(item.get("extras"), dict) else {}
    if call is None or call["result"] is not None:
        ts = utc(item.get("timestamp"))
        if kind == "error":
            out.add(event("error", ts=ts, text=body, source="harness"), position)
        else:
            out.add(event("user", ts=ts, text=body, observation=True), position)
        return False
    metadata = extras.get("metadata") if isinstance(extras.get("metadata"), dict) else {}
    code = exit_code_of(metadata.get("exit_code"))
    if code is None:
        code = exit_code_of(extras.get("exit_code"))
    ok = kind != "error" and (code == 0 if code is not None else True)
    call["result"] = {"ok": ok, "output": body, "exit_code": code}
    out.source(call, position)
    return True
