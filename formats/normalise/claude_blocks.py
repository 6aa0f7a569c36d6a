"""Claude Code's message content, shared by stream-json and session files.

Both formats carry the Anthropic ``message`` object: assistant lines hold
text / thinking / tool_use blocks (often one block per line, the lines sharing
``message.id``), and the results come back in later ``user`` lines as
``tool_result`` blocks, possibly several in one line (parallel calls).
"""

from __future__ import annotations

from typing import Any

from formats.normalise.lines import (
    Builder,
    as_text,
    block_text,
    event,
    exit_code_of,
    span_ms,
    tool_call,
    ts_ms,
    type_of,
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


def _other_int(value: Any) -> bool:
    """An int that is not exactly ``int`` (nor a bool): the rare case of a token count."""
    return isinstance(value, int) and not isinstance(value, bool)


class Calls:
    """One transcript's tool calls waiting for their result, and token accounting.

    ``assistant`` and ``user`` map one line each; they take their arguments by
    position and build the common results as literals (the same keys, in the
    same order, as ``result`` gives), because they run once per line and the
    calls and keyword packing cost more than the line's JSON.
    """

    def __init__(self, out: Builder) -> None:
        self.out = out
        # tool_use id → (its event, the stamp of its line)
        self.pending: dict[str, tuple[dict[str, Any], str | None]] = {}
        self.usage_seen: set[str] = set()
        self.usage: dict[str, int] = {}

    def count_usage(self, message: dict[str, Any]) -> None:
        # Split lines repeat the response's usage: count each message id once.
        ident = message.get("id")
        if not isinstance(ident, str) or ident in self.usage_seen:
            return
        usage = message.get("usage")
        if not isinstance(usage, dict):
            return
        self.usage_seen.add(ident)
        totals = self.usage
        # Written out, not looped over _USAGE: this runs once per message.
        value = usage.get("input_tokens")
        if type(value) is int or (value is not None and _other_int(value)):
            totals["input"] = totals.get("input", 0) + value
        value = usage.get("output_tokens")
        if type(value) is int or (value is not None and _other_int(value)):
            totals["output"] = totals.get("output", 0) + value
        value = usage.get("cache_read_input_tokens")
        if type(value) is int or (value is not None and _other_int(value)):
            totals["cache_read"] = totals.get("cache_read", 0) + value
        value = usage.get("cache_creation_input_tokens")
        if type(value) is int or (value is not None and _other_int(value)):
            totals["cache_write"] = totals.get("cache_write", 0) + value

    def assistant(
        self, number: int, message: Any, ts: str | None, subagent: str | None, error: Any
    ) -> None:
        """Events of one assistant line (one or more content blocks)."""
        out = self.out
        if not isinstance(message, dict):
            out.skip(number, "assistant line without a message")
            return
        ident = message.get("id")
        if not (type(ident) is str and ident in self.usage_seen):  # split lines: counted once
            self.count_usage(message)
        content = message.get("content")
        if error:
            # A synthetic message standing for an API error (model "<synthetic>").
            text = block_text(content) or as_text(error)
            out.add(_mark(event("error", ts=ts, source="provider", text=text), subagent), number)
            return
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        elif not isinstance(content, list):
            content = ()
        made = 0
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = type_of(block)
            if kind == "text" or kind == "thinking":
                text = block.get(kind)
                if not (isinstance(text, str) and text):
                    continue
                ev = out.add_text("message" if kind == "text" else "reasoning", ts, text, number)
            elif kind == "tool_use" or kind == "server_tool_use":
                ev = out.add(tool_call(block.get("name"), block.get("input"), ts), number)
                ident = block.get("id")
                if isinstance(ident, str):
                    self.pending[ident] = (ev, ts)
            elif kind == "redacted_thinking":
                ev = out.add_text("reasoning", ts, "[redacted thinking]", number)
            elif isinstance(kind, str) and kind.endswith("_tool_result"):
                # Server tools (web search) answer inside the assistant message.
                made += self.attach(number, block, ts, None)
                continue
            else:
                continue
            if subagent:
                ev["subagent"] = subagent
            made += 1
        if not made:
            out.skip(number, "assistant line with no text, thinking or tool call")

    def attach(self, number: int, block: dict[str, Any], ts: str | None, structured: Any) -> int:
        """Pair a tool_result block with its call; 1 when paired, else 0."""
        ident = block.get("tool_use_id")
        found = self.pending.pop(ident, None) if isinstance(ident, str) else None
        if found is None:
            return 0
        call, started = found
        ok = not block.get("is_error")
        content = block.get("content")
        text = content if type(content) is str else block_text(content)
        code, text = _exit_code(call["tool"], ok, text, structured)
        call["result"] = {"ok": ok, "output": text, "exit_code": code}  # result(ok, text, code)
        if started is not None and ts is not None and ts != started:
            took = span_ms(ts_ms(started), ts_ms(ts))
            if took is not None:
                call["duration_ms"] = took
        self.out.source(call, number)
        return 1

    def user(
        self,
        number: int,
        message: Any,
        ts: str | None,
        subagent: str | None,
        meta: bool,
        structured: Any,
    ) -> None:
        """Tool results of one user line, and its text as a ``user`` event when it is a turn."""
        out = self.out
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
            kind = type_of(block)
            if kind == "tool_result":
                got = self.attach(number, block, ts, structured)
                paired += got
                orphans += 1 - got
            elif kind == "text" or kind == "image":
                texts.append(block)
        if not texts:
            if paired:
                return
            if orphans:
                out.skip(number, "tool result for a call not in the transcript")
            elif meta:
                out.skip(number, "meta message (harness context, not a user turn)")
            else:
                out.skip(number, "user line with no text or tool result")
            return
        text = block_text(texts)
        if not meta and not text.lstrip().startswith(_WRAPPERS):
            out.add(_mark(event("user", ts=ts, text=text), subagent), number)
        elif paired:
            return
        elif orphans:
            out.skip(number, "tool result for a call not in the transcript")
        elif meta:
            out.skip(number, "meta message (harness context, not a user turn)")
        else:
            out.skip(number, "slash-command wrapper, not a user turn")


def _mark(ev: dict[str, Any], subagent: str | None) -> dict[str, Any]:
    if subagent:
        ev["subagent"] = subagent
    return ev


def _exit_code(tool: str, ok: bool, text: str, structured: Any) -> tuple[int | None, str]:
    if text.startswith(_EXIT_PREFIX):
        # "Exit code N" alone or followed by a newline (a regex here cost more
        # than reading the line's JSON).
        cut = text.find("\n", len(_EXIT_PREFIX))
        digits = text[len(_EXIT_PREFIX) : cut] if cut >= 0 else text[len(_EXIT_PREFIX) :]
        number = digits[1:] if digits[:1] == "-" else digits
        if number.isdecimal() and (code := exit_code_of(digits)) is not None:
            return code, text[cut + 1 :] if cut >= 0 else ""
    if isinstance(structured, dict):
        given = structured.get("exit_code", structured.get("exitCode"))
        code = None if isinstance(given, str) else exit_code_of(given)
        if code is not None:
            return code, text
    # A Bash call that did not fail exited 0: the CLI only names non-zero codes.
    return (0 if ok and tool in _SHELL_TOOLS else None), text
