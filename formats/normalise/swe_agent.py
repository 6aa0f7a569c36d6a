"""SWE-agent ``.traj`` files → v1 events.

A ``.traj`` is one JSON document: ``trajectory[]`` (one step per model turn:
``thought``, ``action``, ``observation``, ``execution_time``, ``state``),
``history[]`` (the chat the model saw), ``info`` (``submission``: the patch,
``exit_status``, ``model_stats``) and ``replay_config`` (a JSON string of the
run's configuration). ``sources[i]`` are 1-based positions in ``trajectory``
(``document``).

Mapping:

- the first events are the session start (``system``: the model of
  ``replay_config``, the system prompt of ``history`` as its text) and the
  task (``user``: the first user message of ``history``), both sourced to
  step 1: the steps carry neither.
- each step → ``message`` (its ``thought``), then ``tool_call`` (its
  ``action``): the tool is the SWE-agent command the action starts with
  (``open``, ``edit``, ``str_replace_editor``, ``submit``, …) or ``bash`` for
  a shell command; the input is ``{"command": action}``; the result is the
  ``observation``, ``ok`` (SWE-agent records no exit codes, so nothing else
  is guessed). ``execution_time`` gives ``duration_ms``.
- an ``exit_status`` other than ``submitted`` (a cost limit, a format error,
  an early exit) → a final ``error`` event sourced to the last step.
"""

from __future__ import annotations

from typing import Any

import orjson

from formats.normalise import Normalised, register
from formats.normalise.codex_calls import duration_ms
from formats.normalise.document import load, text, unread
from formats.normalise.lines import Builder, Head, as_text, event

FORMAT = "swe-agent-traj"

# Commands SWE-agent's tool bundles define; any other first word is a shell command.
COMMANDS = frozenset(
    {
        "open",
        "goto",
        "scroll_up",
        "scroll_down",
        "create",
        "edit",
        "insert",
        "append",
        "find_file",
        "search_file",
        "search_dir",
        "str_replace_editor",
        "submit",
        "filemap",
        "view_image",
        "exit_forfeit",
        "exit_cost",
        "exit_context",
        "exit_format",
        "exit_api",
        "exit_error",
    }
)
_WINDOW = 1 << 20


def looks_like_swe_agent(head: Head) -> bool:
    """A JSON object whose ``trajectory`` steps have ``action`` and ``observation``."""
    start = head.data[:_WINDOW].lstrip()
    return (
        start.startswith(b"{")
        and b'"trajectory"' in start
        and b'"action"' in start
        and b'"observation"' in start
        and b'"trajectory_format"' not in head.data[-4096:]
    )


def tool_of(action: str) -> str:
    """The SWE-agent command an action runs, or ``bash`` for a shell command."""
    words = action.strip().split(None, 1)
    first = words[0] if words else ""
    return first if first in COMMANDS else "bash"


def _model(doc: dict) -> str:
    config = doc.get("replay_config")
    if isinstance(config, str):
        try:
            config = orjson.loads(config)
        except orjson.JSONDecodeError:
            config = None
    if isinstance(config, dict):
        agent = config.get("agent")
        model = agent.get("model") if isinstance(agent, dict) else None
        if isinstance(model, dict) and isinstance(model.get("name"), str):
            return model["name"]
        if isinstance(model, dict) and isinstance(model.get("model_name"), str):
            return model["model_name"]
    return ""


def _preamble(history: Any) -> tuple[str | None, str | None]:
    """The system prompt and the first user message of ``history``."""
    system = user = None
    for message in history if isinstance(history, list) else []:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "system" and system is None:
            system = text(message.get("content"))
        elif role == "user" and user is None:
            user = text(message.get("content"))
            break
    return system, user


@register(FORMAT, looks_like_swe_agent)
def normalise_swe_agent(data: bytes) -> Normalised:
    problems: list[str] = []
    doc, problem = load(data)
    if problem is not None:
        problems.append(problem)
        return unread(FORMAT, data, problems, None)
    if not isinstance(doc, dict) or not isinstance(doc.get("trajectory"), list):
        problems.append("no trajectory list: not a SWE-agent .traj")
        return unread(FORMAT, data, problems, "JSON, but not a SWE-agent .traj (no trajectory)")
    steps = doc["trajectory"]
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    out = Builder(FORMAT)
    out.meta.update(
        {
            "problems": problems,
            "model": _model(doc) or None,
            "exit_status": info.get("exit_status"),
            "model_stats": info.get("model_stats"),
            "submission": info.get("submission")
            if isinstance(info.get("submission"), str)
            else None,
        }
    )
    if not steps:
        problems.append("trajectory is empty")
        return _empty(out, data)
    system, user = _preamble(doc.get("history"))
    head = event("system", model=_model(doc), tool_count=0, text=system)
    out.add(head, 1)
    if user is not None:
        out.add(event("user", text=user), 1)
    for position, step in enumerate(steps, 1):
        if not isinstance(step, dict):
            problems.append(f"trajectory[{position - 1}] is not an object")
            if position > 1:  # position 1 is already the system event's source
                out.skip(position, "not a step object")
            continue
        before = len(out.events)
        thought = step.get("thought")
        if isinstance(thought, str) and thought.strip():
            out.add(event("message", text=thought), position)
        action = step.get("action")
        if isinstance(action, str) and action.strip():
            call = event("tool_call", tool=tool_of(action), input={"command": action}, result=None)
            observation = step.get("observation")
            if observation is not None:
                call["result"] = {"ok": True, "output": as_text(observation), "exit_code": None}
            # Bounded like every other harness's durations (a figure the release keeps).
            took = duration_ms(step.get("execution_time"))
            if took is not None:
                call["duration_ms"] = round(took, 3)
            out.add(call, position)
        if len(out.events) == before and position > 1:
            out.skip(position, "step with no thought or action")
    status = info.get("exit_status")
    if isinstance(status, str) and status and status.lower() != "submitted":
        out.add(event("error", text=f"exit status: {status}", source="harness"), len(steps))
    return out.done()


def _empty(out: Builder, data: bytes) -> Normalised:
    # No steps to source anything to: the document is one unmapped position.
    out.skip(1, "a SWE-agent .traj with no steps")
    return out.done()
