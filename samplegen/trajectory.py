"""An attempt's normalised events: messages, reasoning, tool calls and errors."""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field
from typing import Any

from formats.v1.scoring import MISSING_VERDICT
from samplegen.catalog import HARNESS_TOOLS
from samplegen.clock import iso
from samplegen.ids import rand_hex
from samplegen.plan import Attempt
from samplegen.pools import CODE, EXOTIC, HOSTILE_HTML, MESSAGES, REASONING

_CWD = "/workspace/app"


@dataclass
class Ctx:
    attempt: Attempt
    rng: random.Random
    problem: str
    vendor: str
    session_id: str
    # Epoch milliseconds of each event, so transcripts need not parse ``ts`` back.
    times: list[int] = field(default_factory=list)


def _fmt(template: str, ctx: Ctx) -> str:
    task = ctx.attempt.task
    return template.format(file=ctx.rng.choice(task.files), vendor=ctx.vendor, title=task.title)


def _text(pool: list[str], ctx: Ctx) -> str:
    if ctx.rng.random() < 0.1:
        return ctx.rng.choice(EXOTIC)
    return _fmt(ctx.rng.choice(pool), ctx)


def _big_output(rng: random.Random) -> str:
    parts = []
    size = 0
    i = 0
    while size < 102_400:
        if i % 97 == 50:
            line = f"WARN payload preview: {rng.choice(EXOTIC)}"
        else:
            line = (
                f"2026-11-02T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO replay "
                f"evt_{rand_hex(rng, 12)} status={rng.choice((200, 200, 200, 500))} "
                f"latency_ms={rng.randint(3, 900)}"
            )
        parts.append(line)
        size += len(line) + 1
        i += 1
    return "\n".join(parts) + "\n"


def _bash_action(ctx: Ctx) -> tuple[str, str, int | None]:
    rng = ctx.rng
    task = ctx.attempt.task
    test_file = task.files[-1]
    roll = rng.random()
    if roll < 0.3:
        failed = rng.random() < 0.4
        if failed:
            return (
                "pytest -q",
                f"..F.....\nFAILED {test_file}::test_{task.primary.replace('-', '_')}"
                f"\n1 failed, {rng.randint(5, 40)} passed in {rng.uniform(0.3, 9):.2f}s",
                1,
            )
        return ("pytest -q", f"{rng.randint(6, 41)} passed in {rng.uniform(0.3, 9):.2f}s", 0)
    if roll < 0.42:
        return ("git status --short", "\n".join(f" M {f}" for f in task.files[:3]), 0)
    if roll < 0.52:
        if rng.random() < 0.3:
            return (
                "ruff check .",
                f"{task.files[0]}:12:5: F401 `time` imported but unused\nFound 1 error.",
                1,
            )
        return ("ruff check .", "All checks passed!", 0)
    if roll < 0.62:
        needle = rng.choice(["Idempotency", "verify_signature", "next_cursor", "retry"])
        if rng.random() < 0.3:
            return (f"grep -rn '{needle}' app/", "", 1)
        return (
            f"grep -rn '{needle}' app/",
            f"{task.files[0]}:{rng.randint(3, 200)}:    {rng.choice(CODE).strip()}",
            0,
        )
    if roll < 0.7:
        host = f"{ctx.vendor}.sim.test" if task.vendors else "localhost:8000"
        if rng.random() < 0.35:
            return (f"curl -s https://{host}/health", HOSTILE_HTML, 0)
        return (f"curl -s https://{host}/health", '{"ok":true,"simulator":"' + host + '"}', 0)
    if roll < 0.76:
        return (
            "ls app/integrations",
            "\n".join(
                sorted({f.split("/")[2] for f in task.files if f.startswith("app/integrations/")})
            )
            or "README.md",
            0,
        )
    if roll < 0.8:
        return ("tail -f logs/worker.log", "Command timed out after 2m 0s", None)
    if roll < 0.83:
        return ("make migrate-check", "bash: make: command not found", 127)
    if roll < 0.9:
        return (
            "python -m app.cli replay-webhooks --since 1h",
            f"replayed 3 events\n{rng.choice(EXOTIC)}",
            0,
        )
    return (
        f"sed -n '1,40p' {rng.choice(task.files)}",
        "\n".join(rng.choice(CODE) for _ in range(rng.randint(5, 25))),
        0,
    )


def _tool_call(ctx: Ctx, *, big: bool = False) -> dict[str, Any]:
    rng = ctx.rng
    harness = ctx.attempt.model.harness
    task = ctx.attempt.task
    kind = (
        "bash"
        if big
        else rng.choices(["bash", "read", "edit", "search", "web"], weights=[50, 20, 20, 8, 2])[0]
    )
    rel = rng.choice(task.files)
    abs_path = f"{_CWD}/{rel}"
    if kind == "search" and harness == "codex":
        kind = "bash"
    if kind == "read" and harness == "codex":
        kind = "bash"
    if kind == "bash":
        if big:
            command, output, code = (
                "python -m app.cli replay-webhooks --verbose",
                _big_output(rng),
                0,
            )
        else:
            command, output, code = _bash_action(ctx)
        desc = command.split(" ")[0].capitalize() + " in the workspace"
        if harness == "claude-code":
            tool, inp = "Bash", {"command": command, "description": desc}
        elif harness == "codex":
            tool, inp = "shell", {"command": f"bash -lc {shlex.quote(command)}"}
        else:
            tool, inp = "bash", {"command": command, "description": desc}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": code == 0, "output": output, "exit_code": code},
        }
    if kind == "read":
        body = "\n".join(f"{i:>6}\t{rng.choice(CODE)}" for i in range(1, rng.randint(6, 40)))
        ok = rng.random() > 0.05
        output = body if ok else f"File does not exist: {abs_path}"
        if harness == "claude-code":
            tool, inp = "Read", {"file_path": abs_path}
        else:
            tool, inp = "read", {"filePath": abs_path}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": ok, "output": output, "exit_code": None},
        }
    if kind == "edit":
        old, new = rng.choice(CODE), rng.choice(CODE)
        ok = rng.random() > 0.12
        if harness == "claude-code":
            tool, inp = "Edit", {"file_path": abs_path, "old_string": old, "new_string": new}
            output = (
                f"The file {abs_path} has been updated."
                if ok
                else "<tool_use_error>String to replace not found in file.</tool_use_error>"
            )
        elif harness == "codex":
            tool, inp = "apply_patch", {"changes": [{"path": rel, "kind": "update"}]}
            # A file_change item lists its changes and says nothing more.
            output = f"update {rel}"
        else:
            tool, inp = "edit", {"filePath": abs_path, "oldString": old, "newString": new}
            output = "Edit applied successfully." if ok else "oldString not found in content"
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": ok, "output": output, "exit_code": None},
        }
    if kind == "search":
        pattern = rng.choice(["def handle_", "Idempotency-Key", "webhook", "cursor"])
        output = "\n".join(rng.sample(task.files, min(3, len(task.files))))
        if harness == "claude-code":
            tool, inp = (
                "Grep",
                {"pattern": pattern, "path": "app", "output_mode": "files_with_matches"},
            )
        else:
            tool, inp = "grep", {"pattern": pattern, "path": _CWD}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": True, "output": output, "exit_code": None},
        }
    if harness == "codex":
        # A web_search item carries the query and no result text.
        inp = {"query": f"{ctx.vendor} webhook signature header"}
        return {
            "tool": "web_search",
            "input": inp,
            "result": {"ok": True, "output": "", "exit_code": None},
        }
    url = f"https://docs.{ctx.vendor}.sim.test/api/webhooks"
    if harness == "claude-code":
        tool, inp = "WebFetch", {"url": url, "prompt": "How are webhook signatures computed?"}
    else:
        tool, inp = "webfetch", {"url": url, "format": "markdown"}
    return {
        "tool": tool,
        "input": inp,
        "result": {
            "ok": True,
            "output": "Signatures use HMAC-SHA256 over `t.body`.",
            "exit_code": None,
        },
    }


_PROVIDER_ERRORS = [
    "overloaded_error: retrying in 4s",
    "rate_limit_error: 429, retry after 12s",
    "stream disconnected before completion; reconnecting 1/5",
    "upstream timeout after 600s",
]
_HARNESS_ERRORS = [
    "command output truncated to 30000 characters",
    "context window 92% full; compacting conversation",
    "tool call rejected by sandbox policy: network access to github.com",
]


def _body_event(ctx: Ctx, big: bool) -> dict[str, Any]:
    if big:
        return {"type": "tool_call", **_tool_call(ctx, big=True)}
    model = ctx.attempt.model
    weights = [55, 18, 22 if model.thinking else 0, 3]
    kind = ctx.rng.choices(["tool_call", "message", "reasoning", "error"], weights=weights)[0]
    if kind == "tool_call":
        return {"type": "tool_call", **_tool_call(ctx)}
    if kind == "message":
        return {"type": "message", "text": _text(MESSAGES, ctx)}
    if kind == "reasoning":
        return {"type": "reasoning", "text": _text(REASONING, ctx)}
    # Claude Code's stream-json has no line for a harness-side warning; its
    # errors are the provider's (synthetic assistant messages).
    if ctx.rng.random() < 0.6 or model.harness == "claude-code":
        return {"type": "error", "source": "provider", "text": ctx.rng.choice(_PROVIDER_ERRORS)}
    return {"type": "error", "source": "harness", "text": ctx.rng.choice(_HARNESS_ERRORS)}


def build_trajectory(ctx: Ctx) -> tuple[list[dict[str, Any]], int]:
    """The attempt's events, with their ``ts``; returns them and the run's end (ms)."""
    attempt = ctx.attempt
    rng = ctx.rng
    n = attempt.n_events
    model = attempt.model
    raw: list[dict[str, Any]] = [
        {
            "type": "system",
            "model": model.model_version,
            "tool_count": len(HARNESS_TOOLS[model.harness]),
            "session_id": ctx.session_id,
            "cwd": _CWD,
        },
        {"type": "user", "text": ctx.problem},
    ]
    big_at = rng.randrange(2, n - 1) if attempt.big_output else -1
    while len(raw) < n - 1:
        raw.append(_body_event(ctx, len(raw) == big_at))
    if attempt.never_returns:
        final = {"type": "tool_call", **_tool_call(ctx)}
        final["result"] = None
    elif MISSING_VERDICT in attempt.flags:
        final = {
            "type": "error",
            "source": "provider",
            "text": "API Error: 529 overloaded_error after 5 retries; giving up",
        }
    else:
        final = {
            "type": "message",
            "text": f"Done: {attempt.task.title}. Summary of the change in "
            f"{attempt.task.files[0]} and a new test in {attempt.task.files[-1]}.",
        }
    raw.append(final)

    events = []
    clock = attempt.start_ms
    fast = attempt.long
    opencode = model.harness == "opencode"
    for index, item in enumerate(raw):
        event: dict[str, Any] = {"index": index, "type": item.pop("type"), "ts": iso(clock)}
        event.update(item)
        step = rng.randint(150, 1500) if fast else rng.randint(400, 9000)
        returned = event["type"] == "tool_call" and event["result"] is not None
        if returned and rng.random() < 0.8:
            took = rng.randint(20, 4000) if not fast else rng.randint(10, 600)
            event["duration_ms"] = took
            step += took
        if opencode and event["type"] in ("message", "reasoning", "tool_call"):
            event["tokens"] = {"input": rng.randint(800, 60000), "output": rng.randint(5, 1800)}
        events.append(event)
        ctx.times.append(clock)
        clock += step
    return _as_recorded(events, ctx, model.harness), clock


def _as_recorded(events: list[dict[str, Any]], ctx: Ctx, harness: str) -> list[dict[str, Any]]:
    """Only what the harness's own transcript records, so the two agree.

    The exporter's trajectory is the transcript normalised: codex exec and
    opencode run print no session header and no prompt, codex exec no time
    at all, and opencode prints a tool part only once it has finished.
    """
    if harness == "claude-code":
        return events
    kept, times = [], []
    for event, at in zip(events, ctx.times, strict=True):
        if event["type"] in ("system", "user"):
            continue
        if harness == "opencode" and event["type"] == "tool_call" and event["result"] is None:
            continue
        if harness == "codex":
            event.pop("ts")
            event.pop("duration_ms", None)
        event["index"] = len(kept)
        kept.append(event)
        times.append(at)
    ctx.times[:] = times
    return kept
