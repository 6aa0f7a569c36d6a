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
from typing import Any

import orjson

from formats.normalise import Normalised, register
from formats.normalise.lines import (
    Builder,
    Head,
    as_text,
    iso_ts,
    read_lines,
    result,
    span_ms,
    ts_ms,
)

FORMAT = "inspect-sample"
_ATTACHMENT = re.compile(r"^attachment://([0-9a-f]{32})$")
_PROBE = 8192


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
    got = usage.get("input_tokens"), usage.get("output_tokens")
    if all(type(v) is int and v >= 0 for v in got):
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


def _model_name(sample: dict, events: list) -> str:
    for event in events:
        if (
            isinstance(event, dict)
            and event.get("event") == "model"
            and type(event.get("model")) is str
        ):
            return event["model"]
    usage = sample.get("model_usage")
    if isinstance(usage, dict) and usage:
        return str(next(iter(usage)))
    output = sample.get("output")
    if isinstance(output, dict) and type(output.get("model")) is str:
        return output["model"]
    return "unknown"


def _tool_count(events: list) -> int:
    for event in events:
        if isinstance(event, dict) and event.get("event") == "model":
            tools = event.get("tools")
            return len(tools) if isinstance(tools, list) else 0
    return 0


def _span_ms(start: Any, end: Any) -> float | None:
    a, b = ts_ms(iso_ts(start)), ts_ms(iso_ts(end))
    return span_ms(a, b) if a is not None and b is not None else None


def _not_a_sample(data: bytes) -> Normalised:
    out = Builder(FORMAT)
    for number, _obj in read_lines(data, out):
        out.skip(number, "not an Inspect sample")
    return out.done()


@register(FORMAT, looks_like_inspect_sample)
def normalise_inspect_sample(data: bytes) -> Normalised:
    try:
        sample = orjson.loads(data)
    except orjson.JSONDecodeError:
        # Bad bytes in a string (a tool printed Latin-1) read as U+FFFD, as
        # the line formats read them; anything else is no sample.
        try:
            sample = orjson.loads(data.decode("utf-8", "replace"))
        except orjson.JSONDecodeError:
            return _not_a_sample(data)
    if not isinstance(sample, dict) or not isinstance(sample.get("messages"), list):
        return _not_a_sample(data)
    messages: list = sample["messages"]
    events = sample.get("events") if isinstance(sample.get("events"), list) else []
    m = len(messages)
    text = _Text(sample.get("attachments"))
    out = Builder(FORMAT)
    out.meta.update(
        {
            "sample_id": sample.get("id"),
            "epoch": sample.get("epoch"),
            "model": _model_name(sample, events),
            "messages": m,
            "events": len(events),
        }
    )
    if isinstance(sample.get("model_usage"), dict):
        out.meta["model_usage"] = sample["model_usage"]

    # What events add to messages, found in one pass over the events.
    model_by_message: dict[str, int] = {}  # message id or first tool call id -> item
    tool_by_call: dict[str, int] = {}  # tool call id -> item
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            continue
        kind = event.get("event")
        if kind == "model":
            said = _output_message(event)
            if said is not None:
                for key in (said.get("id"), _first_call_id(said)):
                    if type(key) is str:
                        model_by_message.setdefault(key, i)
        elif kind == "tool" and type(event.get("id")) is str:
            tool_by_call.setdefault(event["id"], i)

    used: set[int] = set()  # event positions (0-based) that are some event's source
    calls: dict[str, dict] = {}  # open tool calls by id
    model = out.meta["model"]
    tool_count = _tool_count(events)
    for n, message in enumerate(messages, start=1):
        if not isinstance(message, dict):
            out.skip(n, "message is not an object")
            continue
        role = message.get("role")
        content, reasoning = text.parts(message.get("content"))
        ts = iso_ts(message.get("timestamp"))
        if role == "system":
            ev = {"index": -1, "type": "system", "model": model, "tool_count": tool_count}
            if ts:
                ev["ts"] = ts
            ev["text"] = content
            out.add(ev, n)
        elif role == "user":
            out.add_text("user", ts, content, n)
        elif role == "assistant":
            call_list = message.get("tool_calls")
            call_list = call_list if isinstance(call_list, list) else []
            key = message.get("id") if type(message.get("id")) is str else None
            found = model_by_message.get(key) if key else None
            if found is None and _first_call_id(message):
                found = model_by_message.get(_first_call_id(message))
            model_event = events[found] if found is not None else None
            if model_event is not None and ts is None:
                ts = iso_ts(model_event.get("timestamp"))
            made: list[dict] = []
            for said in reasoning:
                made.append(out.add_text("reasoning", ts, said, n))
            if content:
                made.append(out.add_text("message", ts, content, n))
            for call in call_list:
                if not isinstance(call, dict):
                    continue
                name = call.get("function")
                ev = {"index": -1, "type": "tool_call"}
                if ts:
                    ev["ts"] = ts
                ev["tool"] = name if type(name) is str and name else "unknown"
                ev["input"] = text.deep(call.get("arguments"))
                ev["result"] = None
                if call.get("parse_error"):
                    ev["parse_error"] = as_text(call.get("parse_error"))
                out.add(ev, n)
                made.append(ev)
                call_id = call.get("id")
                if type(call_id) is str:
                    calls[call_id] = ev
                    at = tool_by_call.get(call_id)
                    if at is not None:
                        tool_event = events[at]
                        if iso_ts(tool_event.get("timestamp")):
                            ev["ts"] = iso_ts(tool_event.get("timestamp"))
                        spent = _span_ms(tool_event.get("timestamp"), tool_event.get("completed"))
                        if spent is not None:
                            ev["duration_ms"] = spent
                        out.source(ev, m + at + 1)
                        used.add(at)
            if not made:
                out.skip(n, "assistant message with no text and no tool call")
                continue
            if model_event is not None:
                tokens = _tokens((model_event.get("output") or {}).get("usage"))
                if tokens:
                    made[0]["tokens"] = tokens
                out.source(made[0], m + found + 1)
                used.add(found)
        elif role == "tool":
            call_id = message.get("tool_call_id")
            ev = calls.pop(call_id, None) if type(call_id) is str else None
            if ev is None:
                out.skip(n, "tool result with no call before it")
                continue
            error = message.get("error")
            output = content
            if isinstance(error, dict):
                said = as_text(text.resolve(error.get("message")))
                kind = as_text(error.get("type")) or "error"
                output = f"{output}\n[{kind}] {said}" if output else f"[{kind}] {said}"
            ev["result"] = result(not error, output)
            out.source(ev, n)
        else:
            out.skip(n, f"message role {as_text(role)!r}")

    for i, event in enumerate(events):
        if i in used:
            continue
        item = m + i + 1
        if not isinstance(event, dict):
            out.skip(item, "event is not an object")
            continue
        kind = event.get("event")
        ts = iso_ts(event.get("timestamp"))
        if kind == "error" and isinstance(event.get("error"), dict):
            said = as_text(event["error"].get("message")) or "error"
            ev = {"index": -1, "type": "error", "text": said, "source": "harness"}
            if ts:
                ev["ts"] = ts
            out.add(ev, item)
        elif kind == "model" and event.get("error"):
            ev = {
                "index": -1,
                "type": "error",
                "text": as_text(event["error"]),
                "source": "provider",
            }
            if ts:
                ev["ts"] = ts
            out.add(ev, item)
        elif kind == "model":
            out.skip(item, "model event (its output is not among the messages)")
        else:
            out.skip(item, f"{as_text(kind) or 'unknown'} event")

    # The sample's own error and limit have no item of their own: they are
    # sourced to its last item, where the run ended (no longer unmapped then).
    last = m + len(events)
    ending = []
    error = sample.get("error")
    if isinstance(error, dict):
        ending.append(as_text(error.get("message")) or "the sample raised")
    limit = sample.get("limit")
    if isinstance(limit, dict):
        said = f"{as_text(limit.get('type')) or 'a'} limit reached"
        if limit.get("limit") is not None:
            said += f" (limit {as_text(limit.get('limit'))})"
        ending.append(said)
    if ending and last:
        out.unmapped = [u for u in out.unmapped if u.line != last]
        for said in ending:
            out.add({"index": -1, "type": "error", "text": said, "source": "harness"}, last)
    return out.done()
