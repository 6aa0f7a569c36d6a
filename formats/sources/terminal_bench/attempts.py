"""One Terminal-Bench trial → the files of its release-v1 attempt folder.

``is_resolved`` decides the score: the verdict carries it as the reward (1
or 0) with threshold 1, so the bench's ``reward-threshold`` rule gives the
score Terminal-Bench counts in its ``accuracy``. The parser's tests are the
checks, for detail. ``failure_mode`` (anything but ``unset``) is the
trial's exception, flagged ``exception:<mode>``, so ``--exceptions`` treats
it as it treats Harbor's. The recording (``sessions/agent.cast``) is the
transcript, byte for byte, and its events the trajectory (the asciinema
normaliser); the test pane is the verdict's ``test_stdout``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from formats.normalise import detect, normalise
from formats.sources.protocol import Check
from formats.sources.terminal_bench.trial import CAST, TEST_PANE, TBTrial
from formats.v1 import attempt_files as v1

RULE = "reward-threshold"
THRESHOLD = 1.0
GRADER = v1.verdict_grader("terminal-bench-parser", "1")
EXPORTER = "benchview import_results (terminal-bench)"
# Flags (the spellings formats.v1.scoring and the Harbor adapter use).
NO_TRAJECTORY = "no-trajectory"
TESTS_NOT_RUN = "tests-not-run"
LEFT_OUT = "left-out"
# The exceptions rules (formats.v1.scoring.EXCEPTIONS_RULES): how a trial
# whose failure_mode says it broke is scored.
HARBOR, FAIL, TERMINAL_BENCH = "harbor", "fail", "terminal-bench"
EXCEPTIONS_RULES = (HARBOR, FAIL, TERMINAL_BENCH)
TIMEOUTS = frozenset({"AgentTimeoutError", "VerifierTimeoutError"})


def dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2)


@dataclass
class Built:
    """A trial's attempt: its folder's files and what the derived documents need."""

    files: dict[str, bytes]
    score: float
    flags: list[str]
    checks: list[Check]
    finished_at: str
    duration_s: float


def _events(cast: bytes | None, notes: list[str]) -> tuple[list[dict[str, Any]], str, list[str]]:
    """The recording's events, where it reads as one; else none, and why."""
    if cast is None:
        notes.append(f"no {CAST}: scores only, no trajectory")
        return [], "none", [NO_TRAJECTORY]
    name = detect(cast)
    if name is None:
        notes.append(f"{CAST} is in no format the site reads; no events")
        return [], "none", [NO_TRAJECTORY]
    return normalise(cast, name).events, f"recording:{name}", []


def _verdict(trial: TBTrial, model: str, task: str, test_stdout: str | None) -> dict[str, Any]:
    resolved = trial.resolved is True
    if trial.tests:
        checks = [
            v1.verdict_check(name=t.name, level="test", mandatory=False, passed=t.passed)
            for t in trial.tests
        ]
    else:
        shown = {True: "resolved", False: "not resolved", None: "tests not run (is_resolved null)"}
        checks = [
            v1.verdict_check(
                name="resolved",
                level="reward",
                mandatory=False,
                passed=resolved,
                detail=shown[trial.resolved],
            )
        ]
    extra: dict[str, Any] = {
        "reward": 1.0 if resolved else 0.0,
        "threshold": THRESHOLD,
        "is_resolved": trial.resolved,
        "failure_mode": trial.failure_mode,
    }
    if trial.exception is not None:
        extra["exception"] = trial.exception
    if test_stdout is not None:
        extra["test_stdout"] = test_stdout
    return v1.verdict_document(model=model, task=task, grader=GRADER, checks=checks, extra=extra)


def scored(resolved: bool | None, exception: str | None, rule: str) -> tuple[float, bool]:
    """(score, counted) of a trial under the exceptions rule, as
    formats.v1.scoring scores a reward-threshold verdict."""
    if rule == FAIL and exception:
        return 0.0, True
    counted = rule != TERMINAL_BENCH or not exception or exception in TIMEOUTS
    return (1.0 if resolved is True else 0.0), counted


def trial_attempt(
    trial: TBTrial,
    tree,
    *,
    bench: str,
    model: str,
    task: str,
    harness: str,
    model_name: str | None,
    exceptions_rule: str = HARBOR,
    extra_notes: list[str] | None = None,
) -> Built:
    has_folder = tree.exists(trial.folder + "results.json") or tree.exists(trial.folder + CAST)
    read = (lambda n: tree.read(n) if tree.exists(n) else None) if has_folder else lambda n: None
    cast, pane = read(trial.folder + CAST), read(trial.folder + TEST_PANE)
    notes = [*trial.notes, *(extra_notes or [])]
    if not has_folder:
        notes.append(f"no trial folder {trial.folder}: scores only")
        events, source, flags = [], "none", [NO_TRAJECTORY]
    else:
        events, source, flags = _events(cast, notes)
    if trial.exception is not None:
        flags.insert(0, f"exception:{trial.failure_mode}")
    if trial.resolved is None:
        flags.append(TESTS_NOT_RUN)
    verdict = _verdict(
        trial, model, task, pane.decode("utf-8", "replace") if pane is not None else None
    )
    score, counted = scored(trial.resolved, trial.exception, exceptions_rule)
    if not counted:
        flags.append(LEFT_OUT)
    checks = [Check(c["name"], c["level"], c["passed"]) for c in verdict["checks"]]
    passed = sum(1 for c in checks if c.passed)
    started = trial.started_at or "1970-01-01T00:00:00Z"
    finished = trial.finished_at or started
    summary = v1.summary_document(
        bench=bench,
        model=model,
        task=task,
        harness=harness,
        score=score,
        scoring_rule=RULE,
        checks=v1.summary_checks(total=len(checks), passed=passed),
        flags=flags,
        cost=v1.summary_cost(
            usd=None,
            input_tokens=trial.input_tokens or 0,
            output_tokens=trial.output_tokens or 0,
        ),
        timing=v1.summary_timing(
            started_at=started, finished_at=finished, duration_s=trial.duration_s
        ),
        hashes=v1.summary_hashes(),
        provenance=v1.summary_provenance(
            model_version=model_name or None, run_id=trial.trial_id, exporter=EXPORTER
        ),
        extra={
            "terminal_bench": {
                "run": trial.run.run_id,
                "results": trial.run.label,
                "trial_name": trial.trial_name,
                "task_id": trial.task_id,
                "failure_mode": trial.failure_mode,
                "events_from": source,
                "notes": notes,
            }
        },
    )
    for event in events:
        if event["type"] == "system" and not event.get("model"):
            event["model"] = model_name or ""
    files = v1.folder_files(
        dump,
        summary=summary,
        verdict=verdict,
        trajectory=v1.trajectory_document(harness=harness, model=model, events=events),
        transcript=cast or b"",
        problem=trial.instruction,
    )
    return Built(files, score, flags, checks, finished, trial.duration_s)
