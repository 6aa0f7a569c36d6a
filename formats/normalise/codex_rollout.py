"""Codex CLI rollout files (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Each line is ``{"timestamp", "type", "payload"}``. ``response_item`` lines are
the conversation: user / assistant messages → ``user`` / ``message``
(developer instructions and injected environment context are unmapped),
``reasoning`` → ``reasoning``, ``*_call`` → ``tool_call`` paired with its
``*_output`` by ``call_id``; ``event_msg`` ``exec_command_end`` /
``patch_apply_end`` / ``mcp_tool_call_end`` complete the call of the same
``call_id`` (exit code, success, duration); ``error`` / ``stream_error`` →
``error`` (provider), ``turn_aborted`` → ``error`` (harness). The ``event_msg``
copies of messages and reasoning are unmapped as duplicates. The legacy
pre-envelope form (a bare header line, ``record_type`` markers and bare
response items) is read the same way. No ``system`` event: a rollout names the
model (``turn_context``, in meta) but not the tool list.
"""

from __future__ import annotations

from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.codex_calls import duration_ms, output_and_code, parse_json_string
from formats.normalise.lines import (
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    block_text,
    event,
    iso_ts,
    lines_of,
    loads,
    reread,
    result,
    tool_call,
    type_of,
)

NAME = "codex-rollout"

_ENVELOPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_ITEMS = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)
_CONTEXT = ("<environment_context>", "<user_instructions>", "# AGENTS.md", "<permissions")
_DUPLICATES = frozenset(
    {
        "user_message",
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "agent_message_delta",
        "agent_reasoning_delta",
    }
)


def looks_like(head: Head) -> bool:
    for obj in head:
        if type_of(obj) in _ENVELOPES and "payload" in obj:
            return True
        if "record_type" in obj or ("instructions" in obj and "id" in obj and "type" not in obj):
            return True
    return False


class _Rollout:
    def __init__(self) -> None:
        self.out = Builder(NAME)
        self.calls: dict[str, dict[str, Any]] = {}
        # Exit codes reported by exec_command_end, which may precede the output.
        self.codes: dict[str, int | None] = {}

    # ``stamp`` is the line's timestamp as given: it is checked (iso_ts) only
    # where an event is made, not for outputs, ends and notices.

    def item(self, number: int, item: dict[str, Any], stamp: Any) -> None:
        out = self.out
        kind = type_of(item)
        if type(kind) is not str:
            kind = as_text(kind)
        if kind == "message" or kind == "agent_message":
            role = item.get("role", "assistant")
            text = block_text(item.get("content"))
            if role == "user" and not text.lstrip().startswith(_CONTEXT):
                out.add_text("user", iso_ts(stamp), text, number)
            elif role == "assistant":
                out.add_text("message", iso_ts(stamp), text, number)
            else:
                out.skip(number, f"{as_text(role)} message (harness instructions or context)")
        elif kind == "reasoning":
            text = block_text(item.get("summary")) or block_text(item.get("content"))
            if text:
                out.add_text("reasoning", iso_ts(stamp), text, number)
            else:
                out.skip(number, "reasoning with no readable text (encrypted only)")
        elif kind == "function_call_output" or kind.endswith("_output"):  # the usual one first
            self.output(number, item)
        elif kind == "function_call" or kind.endswith("_call"):
            name = item.get("name") or kind.removesuffix("_call")
            if "arguments" in item:
                given = item["arguments"]
            elif "input" in item:
                given = item["input"]
            else:
                given = item.get("action")
            ev = out.add(tool_call(name, parse_json_string(given), iso_ts(stamp)), number)
            ident = item.get("call_id")
            if isinstance(ident, str):
                self.calls[ident] = ev
            if not isinstance(ident, str) or kind in ("web_search_call", "image_generation_call"):
                # Answered inside the item itself: there is no separate output.
                ev["result"] = result(item.get("status") == "completed", "")
        else:
            out.skip(number, f"{kind or 'untyped'} response item")

    def output(self, number: int, item: dict[str, Any]) -> None:
        ident = item.get("call_id")
        ev = self.calls.get(ident) if isinstance(ident, str) else None
        if ev is None:
            self.out.skip(number, "tool output for a call not in the file")
            return
        text, code = output_and_code(item.get("output"))
        code = self.codes.pop(ident, code)
        ok = code == 0 if code is not None else item.get("success") is not False
        ev["result"] = result(ok, text, code)
        self.out.source(ev, number)

    def end(self, number: int, payload: dict[str, Any], kind: str) -> None:
        ident = payload.get("call_id")
        ev = self.calls.get(ident) if isinstance(ident, str) else None
        if ev is None:
            self.out.skip(number, f"{kind} for a call not in the file")
            return
        if kind == "exec_command_end":
            code = payload.get("exit_code")
            self.codes[ident] = code if isinstance(code, int) else None
            prior = ev["result"]["output"] if ev["result"] else None
            ev["result"] = result(code == 0, prior or payload.get("aggregated_output"), code)
        else:
            outcome = payload.get("result")
            ok = payload.get("success") is not False and not (
                isinstance(outcome, dict) and "Err" in outcome
            )
            text = (
                ev["result"]["output"]
                if ev["result"]
                else as_text(payload.get("stdout") or outcome)
            )
            ev["result"] = result(ok, text)
        took = duration_ms(payload.get("duration"))
        if took is not None:
            ev["duration_ms"] = took
        self.out.source(ev, number)

    def message(self, number: int, payload: dict[str, Any], stamp: Any) -> None:
        out = self.out
        kind = as_text(type_of(payload))
        if kind in ("exec_command_end", "patch_apply_end", "mcp_tool_call_end"):
            self.end(number, payload, kind)
        elif kind in ("error", "stream_error"):
            out.add(
                event(
                    "error",
                    ts=iso_ts(stamp),
                    source="provider",
                    text=as_text(payload.get("message")),
                ),
                number,
            )
        elif kind == "turn_aborted":
            text = f"turn aborted: {as_text(payload.get('reason'))}"
            out.add(event("error", ts=iso_ts(stamp), source="harness", text=text), number)
        elif kind == "token_count":
            info = payload.get("info")
            if isinstance(info, dict) and isinstance(info.get("total_token_usage"), dict):
                out.meta["tokens"] = info["total_token_usage"]
            out.skip(number, "token count (in meta)")
        elif kind in _DUPLICATES:
            out.skip(number, f"{kind}: copy of a response item")
        else:
            out.skip(number, f"{kind or 'untyped'} notice")


@register(NAME, looks_like)
def normalise_rollout(data: bytes) -> Normalised:
    state = _Rollout()
    out = state.out
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        kind = type_of(obj)
        payload = obj.get("payload")
        stamp = obj.get("timestamp")
        if kind == "response_item" and isinstance(payload, dict):
            state.item(number, payload, stamp)
        elif kind == "event_msg" and isinstance(payload, dict):
            state.message(number, payload, stamp)
        elif kind == "session_meta" and isinstance(payload, dict):
            out.meta.setdefault("session_id", payload.get("id"))
            out.meta.setdefault("cwd", payload.get("cwd"))
            out.meta.setdefault("harness_version", payload.get("cli_version"))
            out.skip(number, "session header (in meta)")
        elif kind == "turn_context" and isinstance(payload, dict):
            out.meta.setdefault("model", payload.get("model"))
            out.skip(number, "turn context (model in meta)")
        elif "payload" not in obj and kind in _ITEMS:
            state.item(number, obj, stamp)  # legacy bare response item
        elif "record_type" in obj:
            out.skip(number, "state marker (legacy rollout)")
        elif kind is None and "id" in obj:
            out.meta.setdefault("session_id", obj.get("id"))
            out.skip(number, "session header (legacy rollout)")
        else:
            out.skip(number, f"{as_text(kind)[:60] or 'untyped'} line")
    return out.done()
