"""Transcript normalisers: lines per second beside a bare ``orjson.loads``, and peak memory.

    .venv/bin/python benchmarks/normalise.py [--lines 10000] [--runs 7]

For each registered format, builds a synthetic transcript of about N and 4N
lines (a repeated unit of that format: a prompt or message, a tool call with
a ~1 KB output and its result, reasoning), then reports

- lines/s of ``normalise(data, format)`` and of a bare loop that only splits
  the bytes and ``orjson.loads`` each line, and their ratio (target: within 3x).
  The two are timed alternately in the same run, in CPU time, ``--runs``
  rounds; the figures are medians (see ``paired``), so a noisy shared machine
  moves them little;
- peak memory traced (tracemalloc) while normalising, at both sizes, beside
  the input size: the events are kept, so it grows with the file, and the
  figure to watch is the peak per input byte staying the same.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from formats.normalise import NORMALISERS, normalise  # noqa: E402

OUTPUT = "ok 200 latency_ms=12 " * 50  # about 1 KB


def _claude_stream(i: int) -> list[dict]:
    sid, tid = "s-1", f"toolu_{i}"
    msg = {"id": f"msg_{i}", "role": "assistant", "usage": {"input_tokens": 5, "output_tokens": 9}}
    return [
        {
            "type": "assistant",
            "session_id": sid,
            "parent_tool_use_id": None,
            "message": {**msg, "content": [{"type": "thinking", "thinking": "Look at it."}]},
        },
        {
            "type": "assistant",
            "session_id": sid,
            "parent_tool_use_id": None,
            "message": {
                **msg,
                "content": [
                    {
                        "type": "tool_use",
                        "id": tid,
                        "name": "Bash",
                        "input": {"command": "pytest -q"},
                    }
                ],
            },
            "timestamp": "2026-11-02T10:00:00.000Z",
        },
        {
            "type": "user",
            "session_id": sid,
            "parent_tool_use_id": None,
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": tid,
                        "content": f"Exit code 1\n{OUTPUT}",
                        "is_error": True,
                    }
                ],
            },
            "timestamp": "2026-11-02T10:00:01.000Z",
        },
        {
            "type": "assistant",
            "session_id": sid,
            "parent_tool_use_id": None,
            "message": {**msg, "content": [{"type": "text", "text": "Fixing it."}]},
        },
    ]


def _claude_session(i: int) -> list[dict]:
    lines = _claude_stream(i)
    previous = None
    for n, line in enumerate(lines):
        line.pop("session_id")
        line.pop("parent_tool_use_id")
        line.update(sessionId="s-1", uuid=f"u{i}-{n}", parentUuid=previous, isSidechain=False)
        previous = line["uuid"]
    lines[0]["parentUuid"] = f"u{i - 1}-3" if i else None
    return lines


def _codex_exec(i: int) -> list[dict]:
    item = {
        "id": f"item_{i}",
        "type": "command_execution",
        "command": "bash -lc 'pytest'",
        "aggregated_output": "",
        "exit_code": None,
        "status": "in_progress",
    }
    done = {**item, "aggregated_output": OUTPUT, "exit_code": 1, "status": "failed"}
    return [
        {"type": "item.completed", "item": {"id": f"r{i}", "type": "reasoning", "text": "Hmm."}},
        {"type": "item.started", "item": item},
        {"type": "item.completed", "item": done},
        {"type": "item.completed", "item": {"id": f"m{i}", "type": "agent_message", "text": "x"}},
    ]


def _codex_legacy(i: int) -> list[dict]:
    call = f"c{i}"
    return [
        {"id": "1", "msg": {"type": "agent_reasoning", "text": "Hmm."}},
        {"id": "1", "msg": {"type": "exec_command_begin", "call_id": call, "command": ["ls"]}},
        {
            "id": "1",
            "msg": {
                "type": "exec_command_end",
                "call_id": call,
                "exit_code": 1,
                "aggregated_output": OUTPUT,
            },
        },
        {"id": "1", "msg": {"type": "agent_message", "message": "x"}},
    ]


def _codex_rollout(i: int) -> list[dict]:
    ts, call = "2026-08-03T10:48:56.000Z", f"call-{i}"
    output = json.dumps({"output": OUTPUT, "metadata": {"exit_code": 1}})
    return [
        {
            "timestamp": ts,
            "type": "response_item",
            "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Hmm."}]},
        },
        {
            "timestamp": ts,
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "call_id": call,
                "arguments": '{"command": ["pytest"]}',
            },
        },
        {
            "timestamp": ts,
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": call, "output": output},
        },
        {
            "timestamp": ts,
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "x"}],
            },
        },
    ]


def _opencode_run(i: int) -> list[dict]:
    env = {"timestamp": 1767036061199 + i, "sessionID": "ses_1"}
    state = {
        "status": "completed",
        "input": {"command": "pytest"},
        "output": OUTPUT,
        "metadata": {"exit": 1},
        "time": {"start": 1767036061123, "end": 1767036061173},
    }
    return [
        {**env, "type": "step_start", "part": {"type": "step-start"}},
        {**env, "type": "tool_use", "part": {"type": "tool", "tool": "bash", "state": state}},
        {
            **env,
            "type": "step_finish",
            "part": {"type": "step-finish", "cost": 0.001, "tokens": {"input": 100, "output": 5}},
        },
        {**env, "type": "text", "part": {"type": "text", "text": "x", "time": {"start": 1}}},
    ]


UNITS: dict[str, Callable[[int], list[dict]]] = {
    "claude-stream-json": _claude_stream,
    "claude-session": _claude_session,
    "codex-exec": _codex_exec,
    "codex-legacy": _codex_legacy,
    "codex-rollout": _codex_rollout,
    "opencode-run": _opencode_run,
}


def transcript(fmt: str, lines: int) -> bytes:
    unit = UNITS[fmt]
    out = []
    for i in range(max(1, lines // len(unit(0)))):
        out.extend(orjson.dumps(obj) for obj in unit(i))
    return b"\n".join(out) + b"\n"


def bare(data: bytes) -> None:
    for raw in data.split(b"\n"):
        if raw:
            orjson.loads(raw)


def paired(ours: Callable[[], object], theirs: Callable[[], object], runs: int) -> tuple:
    """Median seconds of each and the median of their per-round ratios.

    The two are timed in turn, round after round, so a burst of load from
    other processes falls on both; CPU time of this process (not wall time)
    leaves out the time the machine gave to others. The ratio is taken round
    by round and its median reported, so one disturbed round cannot move it.
    """
    mine, bare_times = [], []
    for _ in range(runs):
        start = time.process_time()
        theirs()
        bare_times.append(time.process_time() - start)
        start = time.process_time()
        ours()
        mine.append(time.process_time() - start)
    ratio = statistics.median(m / b for m, b in zip(mine, bare_times, strict=True) if b > 0)
    return statistics.median(mine), statistics.median(bare_times), ratio


def peak(fmt: str, data: bytes) -> int:
    tracemalloc.start()
    normalise(data, fmt)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(
        f"{'format':20} {'lines':>7} {'lines/s':>10} {'orjson/s':>10} {'ratio':>6}"
        f" {'MB in':>7} {'peak MB':>8} {'peak/in':>7} | at 4x: {'MB in':>7} {'peak MB':>8}"
        f" {'peak/in':>7}"
    )
    for fmt in UNITS:
        if fmt not in NORMALISERS:
            continue
        small, large = transcript(fmt, args.lines), transcript(fmt, 4 * args.lines)
        count = small.count(b"\n")
        ours, theirs, ratio = paired(
            lambda data=small, fmt=fmt: normalise(data, fmt),
            lambda data=small: bare(data),
            args.runs,
        )
        small_peak, large_peak = peak(fmt, small), peak(fmt, large)
        mb = 1024 * 1024
        print(
            f"{fmt:20} {count:>7} {count / ours:>10,.0f} {count / theirs:>10,.0f}"
            f" {ratio:>5.2f}x {len(small) / mb:>7.1f} {small_peak / mb:>8.1f}"
            f" {small_peak / len(small):>7.2f} |        {len(large) / mb:>7.1f}"
            f" {large_peak / mb:>8.1f} {large_peak / len(large):>7.2f}"
        )


if __name__ == "__main__":
    main()
