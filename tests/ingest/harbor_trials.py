"""Build small Harbor job and trial folders for the tests, field by field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management import call_command

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "harbor"


def atif(ticket: str = "Fix the bug.", steps: list[dict] | None = None) -> dict[str, Any]:
    return {
        "schema_version": "ATIF-v1.7",
        "session_id": "s-1",
        "agent": {"name": "claude-code", "version": "2.0", "model_name": "m"},
        "steps": steps
        or [
            {"step_id": 1, "source": "user", "message": ticket},
            {
                "step_id": 2,
                "source": "agent",
                "message": "ok",
                "tool_calls": [
                    {"tool_call_id": "c1", "function_name": "Bash", "arguments": {"command": "ls"}}
                ],
                "observation": {"results": [{"source_call_id": "c1", "content": "a\nb"}]},
            },
        ],
    }


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(value, bytes):
        path.write_bytes(value)
    elif isinstance(value, str):
        path.write_text(value)
    else:
        path.write_text(json.dumps(value))


def trial(
    job: Path,
    task: str,
    *,
    model: str = "claude-sonnet-4-5",
    agent: str = "claude-code",
    provider: str | None = "anthropic",
    reward: float | None = 1.0,
    reward_json: dict | None = None,
    ctrf: list[tuple[str, str]] | None = None,
    exception: dict | None = None,
    cost: float | None = 0.25,
    started: str = "2025-11-19T14:18:43.882955",
    finished: str | None = "2025-11-19T14:20:03.882955",
    trajectory: dict | bytes | None = None,
    raw_log: bytes | None = None,
    name: str | None = None,
    result_extra: dict | None = None,
) -> Path:
    """One trial folder under ``job``; returns it."""
    name = name or f"{task[:32]}__{abs(hash((task, model, agent))) % 10**7:07d}"
    folder = job / name
    model_info = {"name": model} | ({"provider": provider} if provider else {})
    result = {
        "id": f"id-{name}",
        "task_name": task,
        "trial_name": name,
        "agent_info": {"name": agent, "version": "1.2.3", "model_info": model_info},
        "agent_result": {"n_input_tokens": 100, "n_output_tokens": 20, "cost_usd": cost},
        "verifier_result": None,
        "exception_info": exception,
        "started_at": started,
        "finished_at": finished,
        **(result_extra or {}),
    }
    write(folder / "result.json", result)
    write(folder / "agent" / "trajectory.json", trajectory if trajectory is not None else atif())
    if raw_log is not None:
        write(folder / "agent" / f"{agent}.txt", raw_log)
    if reward_json is not None:
        write(folder / "verifier" / "reward.json", reward_json)
    elif reward is not None:
        write(folder / "verifier" / "reward.txt", f"{reward}\n")
    if ctrf is not None:
        tests = [{"name": n, "status": s} for n, s in ctrf]
        write(folder / "verifier" / "ctrf.json", {"results": {"tests": tests}})
    write(folder / "verifier" / "test-stdout.txt", "pytest output here\n")
    return folder


def job(root: Path, name: str = "2025-11-19__14-00-00") -> Path:
    folder = root / name
    write(folder / "result.json", {"id": "job-1", "n_total_trials": 1, "stats": {}})
    return folder


def import_harbor(*paths, bench: str = "hb", **options) -> None:
    call_command("import_harbor", *map(str, paths), bench=bench, **options)
