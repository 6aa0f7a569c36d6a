"""Claude Code's message content, shared by stream-json and session files.

Both formats carry the Anthropic ``message`` object: assistant lines hold
text / thinking / tool_use blocks (often one block per line, the lines sharing
``message.id``), and the results come back in later ``user`` lines as
``tool_result`` blocks, possibly several in one line (parallel calls).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trajectories.normalise.lines import (
    Builder,
    as_text,
    block_text,
    event,
    result,
    text_event,
    tool_call,
    ts_ms,
)

# Bash failures are text: "Exit code 2\n<stdout+stderr>"; there is no field.
_EXIT_PREFIX = "Exit code "
# User "turns" that are the CLI talking to itself, not the person.
_WRAPPERS = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
)
_SHELL_TOOLS = frozenset({"Bash", "bash"})


@dataclass
class Calls:
    """Tool calls waiting for their result, and token accounting by message id."""

    pending: dict[str, tuple[dict[str, Any], int | None]] = field(default_factory=dict)
    usage_seen: set[str] = field(default_factory=set)
    usage: dict[str, int] = field(default_factory=dict)

    def count_usage(self, message: dict[str, Any]) -> None:
        # Split lines repeat the response's usage: count each message id once.
        ident = message.get("id")
        if not isinstance(ident, str) or ident in self.usage_seen:
            return
        usage = message.get("usage")
        if not isinstance(usage, dict):
            return
        self.usage_seen.add(ident)
        for ours, theirs in (
            ("input", "input_tokens"),
            ("output", "output_tokens"),
            ("cache_read", "cache_read_input_tokens"),
            ("cache_write", "cache_creation_input_tokens"),
        ):
            value = usage.get(theirs)
            if isinstance(value, int) and not isinstance(value, bool):
                self.usage[ours] = self.usage.get(ours, 0) + value


def _mark(ev: dict[str, Any], subagent: str | None) -> dict[str, Any]:
    if subagent:
        ev["subagent"] = subagent
    return ev


def assistant_line(
    out: Builder,
    calls: Calls,
    number: int,
    message: Any,
    *,
    ts: str | None,
    subagent: str | None,
    error: Any = None,
) -> None:
    """Events of one assistant line (one or more content blocks)."""
    if not isinstance(message, dict):
        out.skip(number, "assistant line without a message")
        return
    ident = message.get("id")
    if not (type(ident) is str and ident in calls.usage_seen):  # split lines: counted once
        calls.count_usage(message)
    content = message.get("content")
    if error:
        # A synthetic message standing for an API error (model "<synthetic>").
        text = block_text(content) or as_text(error)
        out.add(_mark(event("error", ts=ts, source="provider", text=text), subagent), number)
        return
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    made = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if not (isinstance(text, str) and text):
                continue
            ev = text_event("message", ts, text)
        elif kind == "thinking":
            text = block.get("thinking")
            if not (isinstance(text, str) and text):
                continue
            ev = text_event("reasoning", ts, text)
        elif kind == "redacted_thinking":
            ev = text_event("reasoning", ts, "[redacted thinking]")
        elif kind == "tool_use" or kind == "server_tool_use":
            ev = tool_call(block.get("name"), block.get("input"), ts)
            ident = block.get("id")
            if isinstance(ident, str):
                calls.pending[ident] = (ev, ts_ms(ts))
        elif isinstance(kind, str) and kind.endswith("_tool_result"):
            # Server tools (web search) answer inside the assistant message.
            made += attach(out, calls, number, block, ts=ts)
            continue
        else:
            continue
        if subagent:
            ev["subagent"] = subagent
        out.add(ev, number)
        made += 1
    if not made:
        out.skip(number, "assistant line with no text, thinking or tool call")


def _exit_code(tool: str, ok: bool, text: str, structured: Any) -> tuple[int | None, str]:
    if text.startswith(_EXIT_PREFIX):
        # "Exit code N" alone or followed by a newline (a regex here cost more
        # than reading the line's JSON).
        cut = text.find("\n", len(_EXIT_PREFIX))
        digits = text[len(_EXIT_PREFIX) : cut] if cut >= 0 else text[len(_EXIT_PREFIX) :]
        number = digits[1:] if digits[:1] == "-" else digits
        if number.isdecimal():
            return int(digits), text[cut + 1 :] if cut >= 0 else ""
    if isinstance(structured, dict):
        code = structured.get("exit_code", structured.get("exitCode"))
        if isinstance(code, int) and not isinstance(code, bool):
            return code, text
    # A Bash call that did not fail exited 0: the CLI only names non-zero codes.
    return (0 if ok and tool in _SHELL_TOOLS else None), text


def attach(
    out: Builder,
    calls: Calls,
    number: int,
    block: dict[str, Any],
    *,
    ts: str | None,
    structured: Any = None,
) -> int:
    """Pair a tool_result block with its call; 1 when paired, else 0."""
    ident = block.get("tool_use_id")
    found = calls.pending.pop(ident, None) if isinstance(ident, str) else None
    if found is None:
        return 0
    call, started = found
    ok = not block.get("is_error")
    code, text = _exit_code(call["tool"], ok, block_text(block.get("content")), structured)
    call["result"] = result(ok, text, code)
    ended = ts_ms(ts)
    if started is not None and ended is not None and ended > started:
        call["duration_ms"] = ended - started
    out.source(call, number)
    return 1


def user_line(
    out: Builder,
    calls: Calls,
    number: int,
    message: Any,
    *,
    ts: str | None,
    subagent: str | None,
    meta: bool = False,
    structured: Any = None,
) -> None:
    """Tool results of one user line, and its text as a ``user`` event when it is a turn."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        out.skip(number, "user line without content")
        return
    paired = orphans = 0
    texts = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result":
            got = attach(out, calls, number, block, ts=ts, structured=structured)
            paired += got
            orphans += 1 - got
        elif block.get("type") in ("text", "image"):
            texts.append(block)
    text = block_text(texts) if texts else ""
    if texts and not meta and not text.lstrip().startswith(_WRAPPERS):
        out.add(_mark(event("user", ts=ts, text=text), subagent), number)
        return
    if paired:
        return
    if orphans:
        out.skip(number, "tool result for a call not in the transcript")
    elif meta:
        out.skip(number, "meta message (harness context, not a user turn)")
    elif texts:
        out.skip(number, "slash-command wrapper, not a user turn")
    else:
        out.skip(number, "user line with no text or tool result")
