"""An Inspect AI sample (``samples/<id>_epoch_<n>.json`` of a log) → v1 events.

A sample is one JSON document, not a line log. Its *items* are numbered for
``sources`` and ``unmapped`` like ATIF's steps: the ``messages`` first (1..M,
in order), then the ``events`` (M+1..M+E). The conversation comes from
``messages`` (what the model saw, each turn once); the ``events`` add what
messages do not say (when, how long, which model call, errors). A model
event's ``input`` repeats the whole conversation at every turn (what makes
Inspect's own viewer slow on long samples) and is never read.

- ``system`` message → ``system`` (``model``: the sample's model; ``tool_count``:
  the tools its first model call offered; ``text``: the prompt).
- ``user`` message → ``user``.
- ``assistant`` message → ``reasoning`` (each reasoning part; a redacted one as
  ``[redacted reasoning]``), ``message`` (its text, when not empty), then one
  ``tool_call`` per ``tool_calls`` entry (``tool``: the function, ``input``:
  its arguments). The model event whose output is that message (by message
  id, else by its first tool call id) gives ``ts`` and ``tokens``.
- ``tool`` message → the ``result`` of the call it answers (``tool_call_id``):
  ``ok`` unless it has an ``error`` (then the error's type and message follow
  the output); no exit code (Inspect's tools report none). The ``tool`` event
  of the same id gives the call's ``ts`` and ``duration_ms``.
- ``error`` events, model events that failed, the sample's ``error`` and its
  ``limit`` (a token, message or time limit that ended it) → ``error``
  (``provider`` for a model call, else ``harness``), after the conversation.
- Text parts are joined; an image part shows as ``[image]``;
  ``attachment://<hash>`` references are resolved from ``attachments``.

Every other event (state, store, step, span, sandbox, score, sample_init,
…) is unmapped with its kind as the reason. Input that is not an Inspect
sample gives no events and every line unmapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.json_walk import Document, NotAnObject
from formats.normalise.lines import (
    Builder,
    Head,
    as_text,
    iso_ts,
    read_lines,
    result,
    span_ms,
    ts_ms,
    whole,
)

FORMAT = "inspect-sample"
_ATTACHMENT = re.compile(r"^attachment://([0-9a-f]{32})$")
_PROBE = 8192
TOOL_NAME_MAX = 200  # the events table's column (trajectories.models.Event.tool)


def looks_like_inspect_sample(head: Head) -> bool:
    """One JSON object whose first keys are an Inspect sample's: ``id`` and
    ``epoch`` near the start, and ``messages`` or ``events`` somewhere."""
    start = head.data[:_PROBE].lstrip()
    if not start.startswith(b"{"):
        return False
    return (
        b'"epoch"' in start
        and b'"id"' in start
        and (b'"messages"' in head.data or b'"events"' in head.data)
        and b'"schema_version"' not in start
    )


class _Text:
    """Text of message content, attachments resolved."""

    def __init__(self, attachments: Any):
        self.attachments = attachments if isinstance(attachments, dict) else {}

    def resolve(self, value: Any) -> Any:
        if type(value) is str and value.startswith("attachment://"):
            found = _ATTACHMENT.match(value)
            if found:
                text = self.attachments.get(found.group(1))
                if type(text) is str:
                    return text
        return value

    def deep(self, value: Any) -> Any:
        """A tool call's arguments with their attachment references resolved."""
        if isinstance(value, dict):
            return {k: self.deep(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.deep(v) for v in value]
        return self.resolve(value)

    def parts(self, content: Any) -> tuple[str, list[str]]:
        """(text, reasoning texts) of a message's ``content``."""
        if type(content) is str:
            return self.resolve(content), []
        if not isinstance(content, list):
            return as_text(content), []
        texts: list[str] = []
        reasoning: list[str] = []
        for part in content:
            if not isinstance(part, dict):
                texts.append(as_text(part))
                continue
            kind = part.get("type")
            if kind == "text":
                texts.append(as_text(self.resolve(part.get("text"))))
            elif kind == "reasoning":
                if part.get("redacted"):
                    reasoning.append("[redacted reasoning]")
                else:
                    said = as_text(self.resolve(part.get("reasoning")))
                    if said:
                        reasoning.append(said)
            elif kind == "image":
                texts.append("[image]")
            elif kind in ("audio", "video", "document"):
                texts.append(f"[{kind}]")
            else:
                texts.append(as_text(part))
        return "\n".join(t for t in texts if t), reasoning


def _tokens(usage: Any) -> dict[str, int] | None:
    if not isinstance(usage, dict):
        return None
    got = whole(usage.get("input_tokens")), whole(usage.get("output_tokens"))
    if all(v is not None and v >= 0 for v in got):
        return {"input": got[0], "output": got[1]}
    return None


def _output_message(event: dict) -> dict | None:
    output = event.get("output")
    choices = output.get("choices") if isinstance(output, dict) else None
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message")
        return message if isinstance(message, dict) else None
    return None


def _first_call_id(message: dict) -> str | None:
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls and isinstance(calls[0], dict):
        call_id = calls[0].get("id")
        return call_id if type(call_id) is str else None
    return None


@dataclass
class _Facts:
    """What the events say that messages do not, kept small: the events are
    walked once and dropped, so a long sample is never held parsed."""

    # Per event, in order: (kind, ts, detail): a model event's tokens and
    # error, a tool event's duration, an error event's text.
    events: list[tuple[str | None, str | None, Any]] = field(default_factory=list)
    model_by_message: dict[str, int] = field(default_factory=dict)  # message/call id -> event
    tool_by_call: dict[str, int] = field(default_factory=dict)  # tool call id -> event
    model: str | None = None
    tool_count: int = 0

    def add(self, event: Any) -> None:
        i = len(self.events)
        if not isinstance(event, dict):
            self.events.append((None, None, None))
            return
        kind = event.get("event")
        kind = kind if type(kind) is str else None
        ts = iso_ts(event.get("timestamp"))
        detail: Any = None
        if kind == "model":
            if self.model is None and type(event.get("model")) is str:
                self.model = event["model"]
                tools = event.get("tools")
                self.tool_count = len(tools) if isinstance(tools, list) else 0
            said = _output_message(event)
            if said is not None:
                for key in (said.get("id"), _first_call_id(said)):
                    if type(key) is str:
                        self.model_by_message.setdefault(key, i)
            output = event.get("output")
            tokens = _tokens(output.get("usage") if isinstance(output, dict) else None)
            error = as_text(event["error"]) if event.get("error") else None
            detail = (tokens, error)
        elif kind == "tool":
            if type(event.get("id")) is str:
                self.tool_by_call.setdefault(event["id"], i)
            detail = _span_ms(event.get("timestamp"), event.get("completed"))
        elif kind == "error" and isinstance(event.get("error"), dict):
            detail = as_text(event["error"].get("message")) or "error"
        self.events.append((kind, ts, detail))


def _model_name(values: dict, facts: _Facts) -> str:
    if facts.model:
        return facts.model
    usage = values.get("model_usage")
    if isinstance(usage, dict) and usage:
        return str(next(iter(usage)))
    output = values.get("output")
    if isinstance(output, dict) and type(output.get("model")) is str:
        return output["model"]
    return "unknown"


def _span_ms(start: Any, end: Any) -> float | None:
    a, b = ts_ms(iso_ts(start)), ts_ms(iso_ts(end))
    return span_ms(a, b) if a is not None and b is not None else None


def _not_a_sample(data: bytes) -> Normalised:
    out = Builder(FORMAT)
    for number, _obj in read_lines(data, out):
        out.skip(number, "not an Inspect sample")
    return out.done()


# The sample's keys whose values can grow with its length: walked, never held.
_LARGE = ("messages", "events", "message_pool", "call_pool")


@register(FORMAT, looks_like_inspect_sample)
def normalise_inspect_sample(data: bytes) -> Normalised:
    # Bad bytes in a string (a tool printed Latin-1) read as U+FFFD, as the
    # line formats read them.
    try:
        doc = Document(data.decode("utf-8", "replace"), _LARGE)
    except NotAnObject:
        return _not_a_sample(data)
    if "messages" not in doc.arrays:
        return _not_a_sample(data)
    facts = _Facts()
    try:
        doc.walk("events", facts.add)
        out = _Mapper(doc, facts).run()
    except NotAnObject:
        return _not_a_sample(data)
    return out.done()


class _Mapper:
    """The messages, walked one at a time, to events; then what the events add."""

    def __init__(self, doc: Document, facts: _Facts):
        self.doc = doc
        self.facts = facts
        self.text = _Text(doc.values.get("attachments"))
        self.out = Builder(FORMAT)
        self.model = _model_name(doc.values, facts)
        self.n = 0  # the message being read (1-based)
        self.calls: dict[str, dict] = {}  # open tool calls by id
        self.used: set[int] = set()  # events (0-based) that are some event's source
        # (event, event position) pairs, sourced once the number of messages is known.
        self.later: list[tuple[dict, int]] = []

    def run(self) -> Builder:
        out, facts, values = self.out, self.facts, self.doc.values
        self.doc.walk("messages", self.message)
        m = self.n
        for ev, at in self.later:
            out.source(ev, m + at + 1)
        out.meta.update(
            {
                "sample_id": values.get("id"),
                "epoch": values.get("epoch"),
                "model": self.model,
                "messages": m,
                "events": len(facts.events),
            }
        )
        if isinstance(values.get("model_usage"), dict):
            out.meta["model_usage"] = values["model_usage"]
        for i, (kind, ts, detail) in enumerate(facts.events):
            if i in self.used:
                continue
            item = m + i + 1
            if kind == "error" and detail is not None:
                ev = {"index": -1, "type": "error", "text": detail, "source": "harness"}
            elif kind == "model" and detail[1]:
                ev = {"index": -1, "type": "error", "text": detail[1], "source": "provider"}
            elif kind == "model":
                out.skip(item, "model event (its output is not among the messages)")
                continue
            elif kind is None and ts is None and detail is None:
                out.skip(item, "event is not an object or has no kind")
                continue
            else:
                out.skip(item, f"{kind} event")
                continue
            if ts:
                ev["ts"] = ts
            out.add(ev, item)
        self._ending(m + len(facts.events))
        return out

    def _ending(self, last: int) -> None:
        """The sample's own error and limit have no item of their own: they are
        sourced to its last item, where the run ended (no longer unmapped then)."""
        out, values = self.out, self.doc.values
        ending = []
        error = values.get("error")
        if isinstance(error, dict):
            ending.append(as_text(error.get("message")) or "the sample raised")
        limit = values.get("limit")
        if isinstance(limit, dict):
            said = f"{as_text(limit.get('type')) or 'a'} limit reached"
            if limit.get("limit") is not None:
                said += f" (limit {as_text(limit.get('limit'))})"
            ending.append(said)
        if ending and last:
            out.unmapped = [u for u in out.unmapped if u.line != last]
            for said in ending:
                out.add({"index": -1, "type": "error", "text": said, "source": "harness"}, last)

    def message(self, message: Any) -> None:
        self.n += 1
        n, out = self.n, self.out
        if not isinstance(message, dict):
            out.skip(n, "message is not an object")
            return
        role = message.get("role")
        content, reasoning = self.text.parts(message.get("content"))
        ts = iso_ts(message.get("timestamp"))
        if role == "system":
            ev = {"index": -1, "type": "system", "model": self.model}
            ev["tool_count"] = self.facts.tool_count
            if ts:
                ev["ts"] = ts
            ev["text"] = content
            out.add(ev, n)
        elif role == "user":
            out.add_text("user", ts, content, n)
        elif role == "assistant":
            self._assistant(message, content, reasoning, ts)
        elif role == "tool":
            self._tool(message, content)
        else:
            out.skip(n, f"message role {as_text(role)!r}")

    def _assistant(self, message: dict, content: str, reasoning: list[str], ts: str | None):
        n, out, facts = self.n, self.out, self.facts
        call_list = message.get("tool_calls")
        call_list = call_list if isinstance(call_list, list) else []
        key = message.get("id") if type(message.get("id")) is str else None
        found = facts.model_by_message.get(key) if key else None
        if found is None and _first_call_id(message):
            found = facts.model_by_message.get(_first_call_id(message))
        if found is not None and ts is None:
            ts = facts.events[found][1]
        made: list[dict] = []
        for said in reasoning:
            made.append(out.add_text("reasoning", ts, said, n))
        if content:
            made.append(out.add_text("message", ts, content, n))
        for call in call_list:
            if not isinstance(call, dict):
                continue
            name = call.get("function")
            ev: dict[str, Any] = {"index": -1, "type": "tool_call"}
            if ts:
                ev["ts"] = ts
            ev["tool"] = (name if type(name) is str and name else "unknown")[:TOOL_NAME_MAX]
            ev["input"] = self.text.deep(call.get("arguments"))
            ev["result"] = None
            if call.get("parse_error"):
                ev["parse_error"] = as_text(call.get("parse_error"))
            out.add(ev, n)
            made.append(ev)
            call_id = call.get("id")
            if type(call_id) is str:
                self.calls[call_id] = ev
                at = facts.tool_by_call.get(call_id)
                if at is not None and at not in self.used:
                    _, tool_ts, spent = facts.events[at]
                    if tool_ts:
                        ev["ts"] = tool_ts
                    if spent is not None:
                        ev["duration_ms"] = spent
                    self.later.append((ev, at))
                    self.used.add(at)
        if not made:
            out.skip(n, "assistant message with no text and no tool call")
            return
        if found is not None and found not in self.used:
            tokens = facts.events[found][2][0]
            if tokens:
                made[0]["tokens"] = tokens
            self.later.append((made[0], found))
            self.used.add(found)

    def _tool(self, message: dict, content: str) -> None:
        n, out = self.n, self.out
        call_id = message.get("tool_call_id")
        ev = self.calls.pop(call_id, None) if type(call_id) is str else None
        if ev is None:
            out.skip(n, "tool result with no call before it")
            return
        error = message.get("error")
        output = content
        if isinstance(error, dict):
            said = as_text(self.text.resolve(error.get("message")))
            kind = as_text(error.get("type")) or "error"
            output = f"{output}\n[{kind}] {said}" if output else f"[{kind}] {said}"
        ev["result"] = result(not error, output)
        out.source(ev, n)
