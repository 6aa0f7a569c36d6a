"""A deterministic synthetic Terminal-Bench leaderboard folder (``tb run`` output).

Three submissions, each in its own folder, as the public leaderboard logs
ship them: one run with two attempts per task (``<task>.<i>-of-2``), one of
two runs (``<task>.1-of-1.<run>``), and one of results files only (no
trial folders, no recordings). Trials have ``parser_results``, a failure mode
now and then (a timeout, an agent error with ``is_resolved`` null) and an
asciinema recording (``sessions/agent.cast``) of commands typed and output
shown. The same arguments always give the same bytes: the sample import of
``make demo`` and the tests and benchmarks that size it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

DATASET = ("terminal-bench-core", "0.1.1")
START = datetime(2025, 9, 1, 12, 0, tzinfo=UTC)
TASK_WORDS = (
    "fix-permissions",
    "hello-world",
    "csv-to-parquet",
    "git-multibranch",
    "nginx-request-logging",
    "sqlite-db-truncate",
    "crack-7z-hash",
    "openssl-selfsigned-cert",
    "count-dataset-tokens",
    "polyglot-c-py",
    "chess-best-move",
    "build-tcc-qemu",
)
# (folder, agent, model, runs, attempts per task, ships trial folders)
SUBMISSIONS = (
    ("20250901_shellhand_model-a", "shellhand", "vendor-a/model-a", 1, 2, True),
    ("20250902_termbot_model-b", "termbot", "vendor-b/model-b", 2, 1, True),
    ("20250903_quietagent_model-c", "quietagent", None, 2, 1, False),
)


def _draw(*parts: Any) -> float:
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def task_ids(count: int) -> list[str]:
    names = list(TASK_WORDS)
    n = 2
    while len(names) < count:
        names += [f"{w}.v{n}" for w in TASK_WORDS]
        n += 1
    return names[:count]


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


def cast_bytes(task: str, started: datetime, resolved: bool, steps: int = 3) -> bytes:
    """An asciicast v2 recording: commands typed through tmux, their output
    (past the third step, about 2 KB of output each, to size benchmarks)."""
    lines = [
        json.dumps(
            {
                "version": 2,
                "width": 160,
                "height": 40,
                "timestamp": int(started.timestamp()),
                "env": {"SHELL": "/bin/bash", "TERM": "tmux-256color"},
            }
        ),
        json.dumps([0.01, "o", "\u001b[?2004hroot@sandbox:/app# "]),
    ]
    at = 0.5
    commands = [f"cat /app/{task}/README.md", "ls -la", "bash run.sh"]
    for i in range(steps):
        command = commands[i] if i < len(commands) else f"python step_{i}.py"
        lines.append(json.dumps([round(at, 3), "i", command + "\r"]))
        output = f"{command}\r\n\u001b[32mstep {i + 1} of {task}\u001b[0m done\r\n"
        if i >= len(commands):
            output += "".join(f"line {n} of step {i}: " + "x" * 60 + "\r\n" for n in range(28))
        lines.append(json.dumps([round(at + 0.01, 3), "o", output]))
        lines.append(json.dumps([round(at + 0.4, 3), "o", "root@sandbox:/app# "]))
        at += 2.5
    lines.append(json.dumps([round(at, 3), "i", "\u0004"]))
    lines.append(json.dumps([round(at + 0.01, 3), "o", "exit\r\n"]))
    return ("\n".join(lines) + "\n").encode()


def _trial(folder: str, model: str, run: str, task: str, i: int, n: int, at: datetime) -> dict:
    roll = _draw(folder, run, task, i)
    mode = "unset"
    resolved: bool | None = roll < 0.55
    if _draw("mode", folder, run, task, i) < 0.12:
        mode, resolved = ("agent_timeout", False)
    elif _draw("error", folder, run, task, i) < 0.05:
        mode, resolved = ("unknown_agent_error", None)
    tests = None
    if resolved is not None:
        tests = {
            "test_outputs.py::test_exists": "passed",
            "test_outputs.py::test_content": "passed" if resolved else "failed",
        }
    suffix = f".{run}" if run else ""
    ended = at + timedelta(seconds=60 + int(roll * 300))
    return {
        "id": hashlib.sha256(f"{folder}/{run}/{task}/{i}".encode()).hexdigest()[:32],
        "trial_name": f"{task}.{i}-of-{n}{suffix}",
        "task_id": task,
        "instruction": f"Complete the task **{task}** in /app. Leave the result in /app/out.",
        "is_resolved": resolved,
        "failure_mode": mode,
        "parser_results": tests,
        "recording_path": None,
        "total_input_tokens": 1000 + int(roll * 5000),
        "total_output_tokens": 100 + int(roll * 900),
        "trial_started_at": _stamp(at),
        "trial_ended_at": _stamp(ended),
        "agent_started_at": _stamp(at + timedelta(seconds=5)),
        "agent_ended_at": _stamp(ended - timedelta(seconds=10)),
        "test_started_at": _stamp(ended - timedelta(seconds=8)),
        "test_ended_at": _stamp(ended - timedelta(seconds=1)),
    }


def _write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def write_submission(
    root: Path,
    folder: str,
    agent: str,
    model_name: str | None,
    *,
    runs: int,
    attempts: int,
    folders: bool,
    tasks: list[str],
    offset: int = 0,
    steps: int = 3,
) -> int:
    """One submission's runs under ``root/folder``; returns its trials."""
    written = 0
    for r in range(runs):
        run_id = f"{START.date()}__{12 + r:02d}-00-{offset:02d}"
        run_dir = root / folder / run_id if runs > 1 else root / folder
        at = START + timedelta(days=offset, hours=r)
        suffix = run_id if attempts == 1 else ""
        results = [
            _trial(
                folder, model_name or agent, suffix, task, i, attempts, at + timedelta(minutes=k)
            )
            for k, task in enumerate(tasks)
            for i in range(1, attempts + 1)
        ]
        resolved = sum(1 for t in results if t["is_resolved"])
        doc: dict[str, Any] = {
            "id": hashlib.sha256(run_id.encode() + folder.encode()).hexdigest()[:32],
            "results": results,
            "pass_at_k": _pass_at_k(results, attempts),
            "n_resolved": resolved,
            "n_unresolved": len(results) - resolved,
            "resolved_ids": [t["task_id"] for t in results if t["is_resolved"]],
            "unresolved_ids": [t["task_id"] for t in results if not t["is_resolved"]],
            "accuracy": resolved / len(results),
        }
        name = "results.json" if folders else f"{run_id}_results.json"
        target = run_dir / name if folders else root / folder / name
        _write(target, json.dumps(doc, indent=4))
        if folders:
            meta = {
                "run_id": run_id,
                "dataset_name": DATASET[0],
                "dataset_version": DATASET[1],
                "agent_name": agent,
                "model_name": model_name,
                "task_ids": tasks,
                "n_attempts": attempts,
                "accuracy": doc["accuracy"],
                "start_time": _stamp(at),
                "end_time": _stamp(at + timedelta(hours=1)),
                "pass_at_k": doc["pass_at_k"],
            }
            _write(run_dir / "run_metadata.json", json.dumps(meta, indent=4))
            for trial in results:
                base = run_dir / trial["task_id"] / trial["trial_name"]
                _write(base / "results.json", json.dumps(trial, indent=4))
                started = datetime.fromisoformat(trial["trial_started_at"])
                _write(base / "commands.txt", "['ls -la', 'Enter']\n")
                _write(base / "panes" / "post-test.txt", "=== 2 passed ===\n")
                if trial["failure_mode"] != "unknown_agent_error":
                    cast = cast_bytes(trial["task_id"], started, bool(trial["is_resolved"]), steps)
                    _write(base / "sessions" / "agent.cast", cast)
        written += len(results)
    return written


def _pass_at_k(results: list[dict], attempts: int) -> dict[str, float]:
    """Terminal-Bench's pass@k per task, averaged (for k of 2 and more that divide evenly)."""
    if attempts < 2:
        return {}
    from math import comb

    by_task: dict[str, list[bool]] = {}
    for t in results:
        by_task.setdefault(t["task_id"], []).append(bool(t["is_resolved"]))
    out = {}
    for k in range(2, attempts + 1):
        values = [
            1.0 - comb(len(v) - sum(v), k) / comb(len(v), k) if len(v) - sum(v) >= k else 1.0
            for v in by_task.values()
        ]
        out[str(k)] = sum(values) / len(values)
    return out


def write_sample_terminal_bench(root: Path, *, tasks: int = 12, steps: int = 3) -> dict[str, int]:
    """The sample's three submissions under ``root`` (``steps`` commands per recording)."""
    names = task_ids(tasks)
    trials = 0
    for offset, (folder, agent, model, runs, attempts, folders) in enumerate(SUBMISSIONS):
        trials += write_submission(
            root,
            folder,
            agent,
            model,
            runs=runs,
            attempts=attempts,
            folders=folders,
            tasks=names,
            offset=offset,
            steps=steps,
        )
    return {"submissions": len(SUBMISSIONS), "tasks": len(names), "trials": trials}
