"""A deterministic synthetic folder of Harbor jobs, for the demo and the tests.

One job per model (as ibench publishes them), six models on 44 tasks whose
pass counts are the seed's ibench table (15, 12, 7, 4, 3, 2). Some trials
fail a tool call (``[exit_code] 1``), one ends in an exception
(``AgentTimeoutError``), every fourth task has a ``ctrf.json``, one model
reports no cost, and with ``extra_trials`` one task of the first model was
run three times (Harbor's ``n_attempts``). The same arguments give the same
bytes.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

MODELS = (
    # model name, agent, provider, display name, tasks passed
    ("gpt-6-astra", "codex", "openai", "GPT-6 Astra", 15),
    ("claude-opus-5-5", "claude-code", "anthropic", "Claude Opus 5.5", 12),
    ("gemini-4-pro", "gemini-cli", "google", "Gemini 4 Pro", 7),
    ("claude-sonnet-4-5", "opencode", "anthropic", "Claude Sonnet 4.5", 4),
    ("qwen-4-coder", "terminus-2", "alibaba", "Qwen 4 Coder", 3),
    ("devstral-3", "mini-swe-agent", "mistral", "Devstral 3", 2),
)
# What a leaderboard says of each run beyond its score (leaderboard.facts):
# the organisation that ran it, open weights and open system, verified.
FACTS = {
    "gpt-6-astra": {"organisation": "OpenAI", "verified": True},
    "claude-opus-5-5": {"organisation": "Anthropic", "verified": True},
    "gemini-4-pro": {"organisation": "Google"},
    "claude-sonnet-4-5": {"organisation": "SST", "open_system": True},
    "qwen-4-coder": {"organisation": "Alibaba", "open_weights": True, "open_system": True},
    "devstral-3": {"organisation": "Mistral AI", "open_weights": True, "open_system": True},
}
_VERBS = (
    "fix",
    "add",
    "port",
    "repair",
    "speed_up",
    "harden",
    "migrate",
    "debug",
    "refactor",
    "test",
    "trace",
)
_NOUNS = (
    "etl_checkpoint_resume",
    "async_worker_queue",
    "csv_Unicode_export",
    "rate_limiter",
    "oauth_refresh",
    "LRU_cache",
    "cron_parser",
    "webhook_retry",
    "pagination_cursor",
    "log_rotation",
    "config_merge",
    "sqlite_migration",
)
_SUFFIXES = ("bug", "regression", "edge_case", "feature")
START = datetime(2026, 11, 2, 9, 0, 0)
NO_COST_AGENT = "gemini-cli"
TIMEOUT_MODEL = "devstral-3"


def task_names(count: int) -> list[str]:
    """``count`` distinct task names; past the 528 combinations of words, each
    further round of them carries its number (``fix_rate_limiter_bug_2``)."""
    names = []
    i = 0
    combinations = len(_VERBS) * len(_NOUNS) * len(_SUFFIXES)
    while len(names) < count:
        verb = _VERBS[i % len(_VERBS)]
        noun = _NOUNS[(i // len(_VERBS)) % len(_NOUNS)]
        suffix = _SUFFIXES[(i // (len(_VERBS) * len(_NOUNS))) % len(_SUFFIXES)]
        round_ = i // combinations
        names.append(f"{verb}_{noun}_{suffix}" + (f"_{round_ + 1}" if round_ else ""))
        i += 1
    return names


def _h(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _short(*parts: object) -> str:
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    n = int(_h(*parts)[:16], 16)
    return "".join(alphabet[(n >> (6 * i)) % len(alphabet)] for i in range(7))


def _naive(moment: datetime) -> str:
    # Harbor writes timestamps without an offset.
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(value, bytes | str):
        path.write_bytes(value.encode() if isinstance(value, str) else value)
    else:
        path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def _passing(model: str, names: list[str], passes: int) -> set[str]:
    order = sorted(names, key=lambda n: _h(model, n))
    return set(order[:passes])


def _reading_steps(task: str, model: str, count: int, when: datetime) -> list[dict]:
    """``count`` steps that each read a source file of about 6 KB: bulk for the
    size benchmarks (benchmarks/import_harbor.py), the same bytes every time."""
    steps = []
    for k in range(count):
        line = "def step_{k}_{j}(value):\n    return value + {j}  # {task}\n"
        body = "".join(line.format(k=k, j=j, task=task) for j in range(90))
        steps.append(
            {
                "step_id": 0,
                "timestamp": _naive(when + timedelta(seconds=11 + k)),
                "source": "agent",
                "model_name": model,
                "message": "",
                "tool_calls": [
                    {
                        "tool_call_id": f"call_read_{k}",
                        "function_name": "Bash",
                        "arguments": {"command": f"cat /app/src/module_{k}.py"},
                    }
                ],
                "observation": {"results": [{"source_call_id": f"call_read_{k}", "content": body}]},
            }
        )
    return steps


def _trajectory(
    task: str, model: str, agent: str, passed: bool, when: datetime, extra_steps: int = 0
) -> dict:
    ticket = f"Fix the task `{task}` in /app so that its tests pass."
    ts = [_naive(when + timedelta(seconds=10 * i)) for i in range(6)]
    test_output = "3 passed\n[exit_code] 0" if passed else "1 failed, 2 passed\n[exit_code] 1"
    doc = {
        "schema_version": "ATIF-v1.7",
        "session_id": _h("session", model, task)[:32],
        "agent": {"name": agent, "version": "1.0.0", "model_name": model},
        "steps": [
            {"step_id": 1, "timestamp": ts[0], "source": "user", "message": ticket},
            {
                "step_id": 2,
                "timestamp": ts[1],
                "source": "agent",
                "model_name": model,
                "message": "Let me look at the code first.",
                "reasoning_content": f"The ticket is about {task.replace('_', ' ')}.",
                "tool_calls": [
                    {
                        "tool_call_id": "call_1",
                        "function_name": "Bash",
                        "arguments": {"command": "ls /app"},
                    }
                ],
                "observation": {
                    "results": [{"source_call_id": "call_1", "content": "src\ntests\n"}]
                },
                "metrics": {"prompt_tokens": 1200, "completion_tokens": 80},
            },
            {
                "step_id": 3,
                "timestamp": ts[2],
                "source": "agent",
                "model_name": model,
                "message": "",
                "tool_calls": [
                    {
                        "tool_call_id": "call_2",
                        "function_name": "Edit",
                        "arguments": {"file_path": "/app/src/main.py", "old": "x", "new": "y"},
                    },
                    {
                        "tool_call_id": "call_3",
                        "function_name": "Bash",
                        "arguments": {"command": "pytest -q"},
                    },
                ],
                "observation": {
                    "results": [
                        {"source_call_id": "call_2", "content": "The file was edited."},
                        {"source_call_id": "call_3", "content": test_output},
                    ]
                },
                "metrics": {"prompt_tokens": 2400, "completion_tokens": 150},
            },
            {
                "step_id": 4,
                "timestamp": ts[3],
                "source": "agent",
                "model_name": model,
                "message": "Done." if passed else "I could not make every test pass.",
                "metrics": {"prompt_tokens": 2600, "completion_tokens": 20},
            },
        ],
        "final_metrics": {"total_prompt_tokens": 6200, "total_completion_tokens": 250},
    }
    if extra_steps:
        steps = doc["steps"]
        steps[2:2] = _reading_steps(task, model, extra_steps, when)
        for number, step in enumerate(steps, start=1):
            step["step_id"] = number
    return doc


def _ctrf(task: str, passed: bool) -> dict:
    tests = [
        {"name": f"test_{task}_happy_path", "status": "passed", "duration": 12},
        {"name": f"test_{task}_edge", "status": "passed" if passed else "failed", "duration": 7},
        {"name": f"test_{task}_slow", "status": "skipped", "duration": 0},
    ]
    if not passed:
        tests[1]["message"] = "AssertionError: expected 3, got 2"
    return {"results": {"tool": {"name": "pytest"}, "summary": {"tests": 3}, "tests": tests}}


def _trial(
    job: Path,
    *,
    task: str,
    model: str,
    agent: str,
    provider: str,
    passed: bool,
    when: datetime,
    ctrf: bool,
    exception: bool,
    attempt: int,
    extra_steps: int = 0,
) -> None:
    name = f"{task[:32]}__{_short(model, task, attempt)}"
    folder = job / name
    finished = when + timedelta(seconds=95 + int(_h(model, task)[:2], 16))
    cost = None if agent == NO_COST_AGENT else round(0.05 + int(_h(model, task)[2:4], 16) / 1000, 4)
    result = {
        "id": _h("trial", model, task, attempt)[:32],
        "task_name": task,
        "trial_name": name,
        "trial_uri": f"file://jobs/{job.name}/{name}",
        "task_id": {"path": f"tasks/{task}"},
        "source": "ibench",
        "task_checksum": _h("task", task),
        "config": {"agent": {"name": agent}},
        "agent_info": {
            "name": agent,
            "version": "1.0.0",
            "model_info": {"name": model, "provider": provider},
        },
        "agent_result": {
            "n_input_tokens": 6200,
            "n_cache_tokens": 3000,
            "n_output_tokens": 250,
            "cost_usd": cost,
        },
        "verifier_result": None if exception else {"rewards": {"reward": 1.0 if passed else 0.0}},
        "exception_info": {
            "exception_type": "AgentTimeoutError",
            "exception_message": "Agent execution timed out after 900.0 seconds",
            "exception_traceback": "Traceback (most recent call last): ...",
            "occurred_at": _naive(finished),
        }
        if exception
        else None,
        "started_at": _naive(when),
        "finished_at": _naive(finished),
        "agent_execution": {"started_at": _naive(when), "finished_at": _naive(finished)},
    }
    _write(folder / "result.json", result)
    _write(folder / "config.json", {"task": {"path": f"tasks/{task}"}, "agent": {"name": agent}})
    trajectory = _trajectory(task, model, agent, passed, when, extra_steps)
    _write(folder / "agent" / "trajectory.json", trajectory)
    # The raw log: plain text here, in no transcript format, so the events come from ATIF.
    _write(folder / "agent" / f"{agent}.txt", f"{agent} 1.0.0 starting\nworking on {task}\ndone\n")
    if exception:
        return
    _write(folder / "verifier" / "reward.txt", "1\n" if passed else "0\n")
    _write(
        folder / "verifier" / "test-stdout.txt",
        f"{'3 passed' if passed else '1 failed, 2 passed'} in 0.4s\n",
    )
    if ctrf:
        _write(folder / "verifier" / "ctrf.json", _ctrf(task, passed))


def write_sample_harbor(
    root: Path,
    *,
    tasks: int = 44,
    passes: tuple[int, ...] | None = None,
    extra_trials: bool = True,
    extra_steps: int = 0,
) -> dict[str, int]:
    """Write the jobs under ``root`` (which must not hold other files) and
    ``root/models.json`` for ``import_harbor --models``. ``extra_steps`` adds
    that many steps of about 6 KB to every trajectory (bulk for benchmarks)."""
    names = task_names(tasks)
    counts = passes or tuple(m[4] for m in MODELS)
    root.mkdir(parents=True, exist_ok=True)
    trials = 0
    models_file = []
    for position, (model, agent, provider, display, _) in enumerate(MODELS[: len(counts)]):
        passing = _passing(model, names, min(counts[position], tasks))
        started = START + timedelta(hours=position)
        job = root / started.strftime("%Y-%m-%d__%H-%M-%S")
        failing = sorted(n for n in names if n not in passing)
        timeout_task = failing[0] if model == TIMEOUT_MODEL and failing else None
        for i, task in enumerate(names):
            runs = 3 if extra_trials and position == 0 and i == 0 else 1
            for attempt in range(runs):
                # Of the extra trials of a passing task, the second one fails.
                passed = task in passing and attempt != 1
                _trial(
                    job,
                    task=task,
                    model=model,
                    agent=agent,
                    provider=provider,
                    passed=passed,
                    when=started + timedelta(minutes=3 * i + attempt),
                    ctrf=i % 4 == 0,
                    exception=task == timeout_task,
                    attempt=attempt,
                    extra_steps=extra_steps,
                )
                trials += 1
        _write(
            job / "result.json",
            {
                "id": _h("job", model)[:32],
                "started_at": _naive(started),
                "finished_at": _naive(started + timedelta(minutes=3 * tasks + 5)),
                "n_total_trials": tasks,
                "stats": {"n_completed_trials": tasks, "n_errored_trials": int(bool(timeout_task))},
            },
        )
        models_file.append(
            {
                "model_name": model,
                "agent": agent,
                "id": f"{model}-{agent}",
                "display_name": display,
                "provider": provider,
                **FACTS.get(model, {}),
            }
        )
    _write(root / "models.json", models_file)
    return {"models": len(models_file), "tasks": tasks, "trials": trials}
