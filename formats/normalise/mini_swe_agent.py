"""mini-swe-agent trajectories (``trajectory_format: "mini-swe-agent-1.1"``) → v1 events.

One JSON document: ``info`` (``exit_status``, ``submission``: the patch,
``model_stats``, ``config``), ``messages[]`` (OpenAI chat messages with an
``extra`` object) and ``trajectory_format``. ``sources[i]`` are 1-based
positions in ``messages`` (``document``).

Mapping, message by message:

- ``system`` → the session start (``system``: the model of
  ``info.config.model.model_name``, one tool: bash).
- ``assistant`` → ``reasoning`` (``reasoning_content``), ``message`` (its
  content), then one ``tool_call`` per action: ``extra.actions[].command``
  (tool ``bash``), else ``tool_calls[]`` (tool-call models: the function's
  name and arguments), else the ```` ```mswea_bash_command ```` (or
  ```` ```bash ````) block of the content, as mini-swe-agent parses it.
  ``extra.response.usage`` gives ``tokens``; ``extra.timestamp`` ``ts``.
- an observation (``role: "tool"`` naming its ``tool_call_id``, or a user
  message with ``extra.returncode`` or a ``<returncode>`` tag) → the result
  of the oldest call still waiting: ``exit_code`` from the return code,
  ``ok`` when it is 0, ``output`` the ``<output>`` part (the whole content
  when there is none). With no call waiting it is a ``user`` event marked
  ``"observation": true``.
- other ``user`` messages (the task, format errors) → ``user``.
- the closing message (``extra.exit_status``) → an ``error`` event when the
  status is not ``Submitted``; a submission is in ``meta`` (the patch).
"""

from __future__ import annotations

import contextlib
import re
from collections import deque
from typing import Any

import orjson

from formats.normalise import Normalised, register
from formats.normalise.document import epoch_ts, load, text, tokens, unread
from formats.normalise.lines import Builder, Head, event, exit_code_of

FORMAT = "mini-swe-agent"
_MARK = b'"mini-swe-agent'
_RETURNCODE = re.compile(r"<returncode>\s*(-?\d+)\s*</returncode>")
_OUTPUT = re.compile(r"<output>\n?(.*?)\n?</output>", re.DOTALL)
_BLOCK = re.compile(r"```(?:mswea_bash_command|bash)\s*\n(.*?)\n```", re.DOTALL)


def looks_like_mini_swe_agent(head: Head) -> bool:
    """A JSON object whose ``trajectory_format`` is ``mini-swe-agent-…``: the key
    comes last in the files mini-swe-agent writes, so the tail is read too."""
    data = head.data
    if data.lstrip()[:1] != b"{":
        return False
    for part in (data[:4096], data[-4096:]):
        if b'"trajectory_format"' in part and _MARK in part:
            return True
    return False


def _actions(message: dict) -> list[tuple[str, Any, str | None]]:
    """(tool, input, call id) of each action an assistant message asks for."""
    extra = message.get("extra") if isinstance(message.get("extra"), dict) else {}
    actions = extra.get("actions")
    found: list[tuple[str, Any, str | None]] = []
    if isinstance(actions, list) and actions:
        for action in actions:
            if isinstance(action, dict):
                ident = action.get("tool_call_id")
                found.append(("bash", action, ident if isinstance(ident, str) else None))
        return found
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        for call in calls:
            if not isinstance(call, dict):
                continue
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                with contextlib.suppress(orjson.JSONDecodeError):
                    arguments = orjson.loads(arguments)
            ident = call.get("id")
            name = function.get("name") if isinstance(function.get("name"), str) else "unknown"
            found.append((name, arguments, ident if isinstance(ident, str) else None))
        return found
    blocks = _BLOCK.findall(text(message.get("content")))
    return [("bash", {"command": blocks[0]}, None)] if len(blocks) == 1 else []


def _observation(message: dict) -> tuple[str, int | None] | None:
    """(output, exit code) of an observation message, or None if it is none."""
    content = text(message.get("content"))
    extra = message.get("extra") if isinstance(message.get("extra"), dict) else {}
    code = exit_code_of(extra.get("returncode"))
    tagged = _RETURNCODE.search(content) if "<returncode>" in content else None
    if code is None and tagged:
        code = exit_code_of(tagged.group(1))
    if message.get("role") != "tool" and code is None and "returncode" not in extra:
        return None
    found = _OUTPUT.search(content) if "<output>" in content else None
    return (found.group(1) if found else content), code


@register(FORMAT, looks_like_mini_swe_agent)
def normalise_mini_swe_agent(data: bytes) -> Normalised:
    problems: list[str] = []
    doc, problem = load(data)
    if problem is not None:
        problems.append(problem)
        return unread(FORMAT, data, problems, None)
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        problems.append("no messages list: not a mini-swe-agent trajectory")
        return unread(FORMAT, data, problems, "JSON, but not a mini-swe-agent trajectory")
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    config = info.get("config") if isinstance(info.get("config"), dict) else {}
    model_config = config.get("model") if isinstance(config.get("model"), dict) else {}
    model = (
        model_config.get("model_name") if isinstance(model_config.get("model_name"), str) else ""
    )
    out = Builder(FORMAT)
    out.meta.update(
        {
            "problems": problems,
            "trajectory_format": doc.get("trajectory_format"),
            "model": model or None,
            "exit_status": info.get("exit_status"),
            "model_stats": info.get("model_stats"),
            "mini_version": info.get("mini_version"),
            "submission": info.get("submission")
            if isinstance(info.get("submission"), str)
            else None,
        }
    )
    waiting: deque[dict[str, Any]] = deque()
    by_id: dict[str, dict[str, Any]] = {}
    messages = doc["messages"]
    if not messages:
        out.skip(1, "a mini-swe-agent trajectory with no messages")
        return out.done()
    for position, message in enumerate(messages, 1):
        if not isinstance(message, dict):
            problems.append(f"messages[{position - 1}] is not an object")
            out.skip(position, "not a message object")
            continue
        extra = message.get("extra") if isinstance(message.get("extra"), dict) else {}
        ts = epoch_ts(extra.get("timestamp"))
        role = message.get("role")
        if role == "system":
            head = event(
                "system", ts=ts, model=model, tool_count=1, text=text(message.get("content"))
            )
            out.add(head, position)
            continue
        if role == "assistant":
            _assistant(out, message, extra, ts, position, waiting, by_id)
            continue
        seen = _observation(message) if role in ("user", "tool") else None
        if seen is not None:
            output, code = seen
            ident = message.get("tool_call_id")
            call = by_id.pop(ident, None) if isinstance(ident, str) else None
            if call is not None:
                _drop(waiting, call)
            elif waiting:
                call = waiting.popleft()
            if call is None:
                out.add(event("user", ts=ts, text=output, observation=True), position)
                continue
            ok = code == 0 if code is not None else True
            call["result"] = {"ok": ok, "output": output, "exit_code": code}
            out.source(call, position)
            continue
        status = extra.get("exit_status")
        if isinstance(status, str) and status:
            if status.lower() != "submitted":
                out.add(
                    event("error", ts=ts, text=f"exit status: {status}", source="harness"), position
                )
            else:
                out.skip(position, "exit status Submitted (the submission is in meta)")
            continue
        if role == "user":
            out.add(event("user", ts=ts, text=text(message.get("content"))), position)
            continue
        problems.append(f"messages[{position - 1}].role is {role!r}")
        out.skip(position, f"unknown role {role!r}")
    return out.done()


def _assistant(
    out: Builder,
    message: dict,
    extra: dict,
    ts: str | None,
    position: int,
    waiting: deque,
    by_id: dict,
) -> None:
    response = extra.get("response") if isinstance(extra.get("response"), dict) else {}
    used = tokens(response.get("usage"))
    first = len(out.events)
    reasoning = message.get("reasoning_content")
    if isinstance(reasoning, str) and reasoning.strip():
        out.add(event("reasoning", ts=ts, text=reasoning), position)
    content = text(message.get("content"))
    if content.strip():
        out.add(event("message", ts=ts, text=content), position)
    for tool, tool_input, ident in _actions(message):
        call = event("tool_call", ts=ts, tool=tool, input=tool_input, result=None)
        if ident is not None:
            call["call_id"] = ident
            by_id[ident] = call
        out.add(call, position)
        waiting.append(call)
    if len(out.events) == first:
        out.skip(position, "assistant message with no content or action")
    elif used is not None:
        out.events[first]["tokens"] = used


def _drop(waiting: deque, call: dict) -> None:
    """Take ``call`` itself out of ``waiting`` (by identity: two calls may be equal)."""
    for i, held in enumerate(waiting):
        if held is call:
            del waiting[i]
            return
