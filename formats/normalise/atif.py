"""ATIF (Harbor's Agent Trajectory Interchange Format, v1.0-v1.7) → v1 events.

ATIF is one JSON document, not a line log, so ``sources[i]`` holds the
1-based *positions in ``steps``* of the step(s) event ``i`` came from (and
``unmapped`` names steps, by position, that gave no event). Embedded
sub-agent trajectories (``subagent_trajectories``, v1.7) are numbered after
the parent's steps, in document order, so every step has one position.

Mapping, step by step:

- the first event is the session start (``system``: model, tool count,
  session id). A leading ``system`` step is that event, with its message
  as ``text``; without one it is built from the document's ``agent`` and
  sourced to step 1. Later ``system`` steps are ``system`` events too.
- ``user`` steps → ``user``.
- ``agent`` steps → ``reasoning`` (``reasoning_content``), ``message``
  (a non-empty ``message``), then one ``tool_call`` per ``tool_calls`` entry,
  its ``result`` the observation result whose ``source_call_id`` names it
  (``None`` when there is none). The step's token metrics go on its first
  event.
- an observation result with no ``source_call_id`` is what the environment
  fed back to the agent: a ``user`` event marked ``"observation": true``.
- a tool call fails (``ok: false``) only where the converters say so:
  ``extra.tool_result_is_error`` or ``extra.tool_result_metadata.is_error``
  on the result, ``extra.status`` on the call or the result ("error",
  "failed", ...), an ``[error] tool reported failure`` line, or an
  ``[exit_code] N`` line with N ≠ 0 (which also gives ``exit_code``).
  Nothing else is guessed: older ATIF marks no failure, so its calls are ok.
- steps of sub-agents (``extra.is_sidechain: true`` inlined in the parent,
  or an embedded ``subagent_trajectories`` entry) give events marked
  ``"subagent": true`` (embedded ones also carry ``"subagent_id"``).

Input that is no ATIF document at all gives no events and every line in
``unmapped`` (so then ``sources``/``unmapped`` speak of lines, as for the
line formats). Where the document breaks ATIF's own rules (not JSON, no ``steps``, step
ids not 1..N in order, a result naming a call its step does not have), the
events found are still returned and ``meta["problems"]`` lists each break;
callers that need a trustworthy trajectory treat a non-empty list as broken.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from formats.normalise import Normalised, Unmapped, register
from formats.normalise.lines import Builder, Head, exit_code_of, read_lines, split_lines

FORMAT = "atif"
_EXIT_CODE = re.compile(r"^\[exit_code\]\s*(-?\d+)\s*$", re.MULTILINE)
_TOOL_FAILURE = re.compile(r"^\[error\] tool reported failure", re.MULTILINE)
_FAILED = frozenset({"error", "failed", "failure", "errored", "cancelled", "timeout"})
_SUCCEEDED = frozenset({"ok", "success", "succeeded", "completed", "done"})
_OPTIONAL = frozenset({"ts", "session_id", "call_id", "subagent_id"})
_OFFSET = re.compile(r"(Z|[+-]\d\d:?\d\d)$")


def looks_like_atif(head: Head) -> bool:
    """An ATIF document: a JSON object whose ``schema_version`` is "ATIF-v…"."""
    start = head.data[:4096].lstrip()
    return start.startswith(b"{") and b'"schema_version"' in start and b'"ATIF-v' in start


def utc(ts: Any) -> str | None:
    """Harbor writes timestamps without an offset; they are UTC, written with Z."""
    if not isinstance(ts, str) or not ts:
        return None
    if _OFFSET.search(ts):
        return ts[:-6] + "Z" if ts.endswith(("+00:00", "+0000")) else ts
    return ts + "Z"


def text_of(message: Any) -> str:
    """A step message: a string, or ContentPart[] whose text parts are joined."""
    if isinstance(message, str):
        return message
    if isinstance(message, list):
        parts = []
        for part in message:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, dict) and part.get("type") == "image":
                parts.append("[image]")
        return "\n".join(parts)
    return ""


@register(FORMAT, looks_like_atif)
def normalise_atif(data: bytes) -> Normalised:
    out = Normalised(format=FORMAT)
    problems: list[str] = []
    out.meta["problems"] = problems
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        problems.append(f"not JSON ({exc})")
        return _unread(data, problems, None)
    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list) or not doc["steps"]:
        problems.append("no steps: not an ATIF trajectory")
        return _unread(data, problems, "JSON, but not an ATIF trajectory (no steps)")
    agent = doc.get("agent") if isinstance(doc.get("agent"), dict) else {}
    out.meta.update(
        {
            "schema_version": doc.get("schema_version"),
            "session_id": doc.get("session_id"),
            "agent": agent.get("name"),
            "model": agent.get("model_name"),
            "final_metrics": doc.get("final_metrics"),
        }
    )
    builder = _Builder(out, problems)
    steps = doc["steps"]
    builder.session_start(doc, agent, steps)
    builder.steps(steps, subagent=None)
    for i, sub in enumerate(doc.get("subagent_trajectories") or []):
        if isinstance(sub, dict) and isinstance(sub.get("steps"), list):
            ident = sub.get("trajectory_id") or sub.get("session_id") or f"subagent-{i + 1}"
            builder.steps(sub["steps"], subagent=str(ident))
        else:
            problems.append(f"subagent_trajectories[{i}] has no steps")
    return out


def _unread(data: bytes, problems: list[str], reason: str | None) -> Normalised:
    """No events: every line of the input unmapped, with why (the contract's
    "nothing is lost silently", kept even for what is no ATIF at all).

    ``reason`` is for a JSON document that is not ATIF (each of its lines);
    without it, each line is judged on its own, as the line normalisers do."""
    out = Builder(FORMAT)
    if reason is None:
        for number, _ in read_lines(data, out):
            out.skip(number, "a JSON line, not an ATIF document")
    else:
        for number, raw in enumerate(split_lines(data), 1):
            out.skip(number, reason if raw.strip() else "blank line")
    result = out.done()
    result.meta["problems"] = problems
    return result


class _Builder:
    def __init__(self, out: Normalised, problems: list[str]):
        self.out = out
        self.problems = problems
        self.position = 0  # the running step position, over parent and sub-agents
        self.started = False

    def emit(self, event: dict[str, Any], position: int, marks: dict[str, Any]) -> None:
        event = {"index": len(self.out.events), **event, **marks}
        # Optional fields are left out rather than written as null; a tool call's
        # ``result`` stays, as null when the call never returned.
        self.out.events.append(
            {k: v for k, v in event.items() if v is not None or k not in _OPTIONAL}
        )
        self.out.sources.append([position])

    def session_start(self, doc: dict, agent: dict, steps: list) -> None:
        first = steps[0] if isinstance(steps[0], dict) else {}
        model = agent.get("model_name") or _first_model(steps) or ""
        tools = agent.get("tool_definitions")
        head = {
            "type": "system",
            "model": str(model),
            "tool_count": len(tools) if isinstance(tools, list) else 0,
            "session_id": doc.get("session_id") if isinstance(doc.get("session_id"), str) else None,
        }
        if first.get("source") == "system":
            head["text"] = text_of(first.get("message"))
            head["ts"] = utc(first.get("timestamp"))
            self.started = True  # step 1 is this event
        self.emit(head, 1, {})

    def steps(self, steps: list, *, subagent: str | None) -> None:
        where = f"sub-agent {subagent}: " if subagent else ""
        for number, step in enumerate(steps, start=1):
            self.position += 1
            position = self.position
            if not isinstance(step, dict):
                self.problems.append(f"{where}steps[{number - 1}] is not an object")
                self.out.unmapped.append(Unmapped(position, "not a step object"))
                continue
            if step.get("step_id") != number:
                self.problems.append(
                    f"{where}steps[{number - 1}].step_id is {step.get('step_id')!r}, "
                    f"expected {number} (ids run 1..N in order)"
                )
            if self.started and subagent is None and number == 1:
                continue  # the session start made of it
            extra = step.get("extra") if isinstance(step.get("extra"), dict) else {}
            marks: dict[str, Any] = {}
            if subagent is not None:
                marks = {"subagent": True, "subagent_id": subagent}
            elif extra.get("is_sidechain") is True:
                marks = {"subagent": True}
            before = len(self.out.events)
            self.step(step, position, marks, where, number)
            if len(self.out.events) == before:
                self.out.unmapped.append(Unmapped(position, "step with no content"))

    def step(self, step: dict, position: int, marks: dict, where: str, number: int) -> None:
        source = step.get("source")
        ts = utc(step.get("timestamp"))
        text = text_of(step.get("message"))
        if source == "system":
            self.emit(
                {"type": "system", "model": str(step.get("model_name") or ""), "tool_count": 0}
                | {"text": text, "ts": ts},
                position,
                marks,
            )
        elif source == "user":
            self.emit({"type": "user", "text": text, "ts": ts}, position, marks)
        elif source != "agent":
            self.problems.append(f"{where}steps[{number - 1}].source is {source!r}")
            self.out.unmapped.append(Unmapped(position, f"unknown step source {source!r}"))
            return
        tokens = _tokens(step.get("metrics"))
        first = len(self.out.events)
        if source == "agent":
            if isinstance(step.get("reasoning_content"), str) and step["reasoning_content"]:
                self.emit(
                    {"type": "reasoning", "text": step["reasoning_content"], "ts": ts},
                    position,
                    marks,
                )
            if text:
                self.emit({"type": "message", "text": text, "ts": ts}, position, marks)
        results = _results(step)
        calls = step.get("tool_calls") if isinstance(step.get("tool_calls"), list) else []
        ids = set()
        for call in calls:
            if not isinstance(call, dict):
                self.problems.append(
                    f"{where}steps[{number - 1}] has a tool call that is no object"
                )
                continue
            ident = call.get("tool_call_id")
            if ident is not None and type(ident) is not str:
                self.problems.append(
                    f"{where}steps[{number - 1}] has a tool_call_id that is no string"
                )
                ident = None
            ids.add(ident)
            paired = [r for r in results if r.get("source_call_id") == ident]
            result = _tool_result(call, paired[0]) if paired else None
            self.emit(
                {
                    "type": "tool_call",
                    "tool": str(call.get("function_name") or ""),
                    "input": call.get("arguments", {}),
                    "result": result,
                    "ts": ts,
                    "call_id": ident if isinstance(ident, str) else None,
                },
                position,
                marks,
            )
        for r in results:
            ref = r.get("source_call_id")
            if ref is not None and type(ref) is not str:
                self.problems.append(
                    f"{where}steps[{number - 1}] has a source_call_id that is no string"
                )
                continue
            if ref is None:
                self.emit(
                    {"type": "user", "text": _content(r), "observation": True, "ts": ts},
                    position,
                    marks,
                )
            elif ref not in ids:
                self.problems.append(
                    f"{where}steps[{number - 1}]: observation result for {ref!r}, "
                    "a call this step does not make"
                )
        if tokens is not None and len(self.out.events) > first:
            self.out.events[first]["tokens"] = tokens


def _first_model(steps: list) -> str | None:
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("model_name"), str):
            return step["model_name"]
    return None


def _tokens(metrics: Any) -> dict[str, int] | None:
    if not isinstance(metrics, dict):
        return None
    prompt, completion = metrics.get("prompt_tokens"), metrics.get("completion_tokens")
    if isinstance(prompt, int) and isinstance(completion, int):
        return {"input": prompt, "output": completion}
    return None


def _results(step: dict) -> list[dict]:
    observation = step.get("observation")
    if not isinstance(observation, dict) or not isinstance(observation.get("results"), list):
        return []
    return [r for r in observation["results"] if isinstance(r, dict)]


def _content(result: dict) -> str:
    return text_of(result.get("content"))


def _status(extra: Any) -> bool | None:
    """True/False from an ``extra.status`` a converter wrote, None when it says nothing."""
    if not isinstance(extra, dict) or not isinstance(extra.get("status"), str):
        return None
    status = extra["status"].lower()
    if status in _FAILED:
        return False
    if status in _SUCCEEDED:
        return True
    return None


def _tool_result(call: dict, result: dict) -> dict[str, Any]:
    output = _content(result)
    extra = result.get("extra") if isinstance(result.get("extra"), dict) else {}
    metadata = extra.get("tool_result_metadata")
    exit_code = None
    # The substring tests first: a multi-line "^" pattern is tried at every
    # position of the output, most of an import's time on long tool outputs.
    found = _EXIT_CODE.findall(output) if "[exit_code]" in output else None
    if found:
        exit_code = exit_code_of(found[-1])
    ok = True
    if exit_code is not None and exit_code != 0:
        ok = False
    if "[error] tool reported failure" in output and _TOOL_FAILURE.search(output):
        ok = False
    if extra.get("tool_result_is_error") is True:
        ok = False
    if isinstance(metadata, dict) and metadata.get("is_error") is True:
        ok = False
    for said in (_status(call.get("extra")), _status(extra)):
        if said is False:
            ok = False
    return {"ok": ok, "output": output, "exit_code": exit_code}
