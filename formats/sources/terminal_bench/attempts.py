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

from typing import Any

from formats.sources.terminal_bench.trial import CAST, TEST_PANE, TBTrial
from ingest.event_schema import check_events
from ingest.harbor.attempts import AttemptFiles, dump, exception_flag, outcome
from ingest.harbor.events import NO_TRAJECTORY
from ingest.harbor.scrubbing import TrialScrub
from leaderboard.scoring import DEFAULT_EXCEPTIONS_RULE, LEFT_OUT
from trajectories.normalise import detect, normalise

GRADER = {"name": "terminal-bench-parser", "version": "1"}
EXPORTER = "benchview import_results (terminal-bench)"
UNRESOLVED_UNKNOWN = "tests-not-run"
THRESHOLD = 1.0


def _read(tree, name: str, label: str, scrub: TrialScrub | None) -> bytes | None:
    if not tree.exists(name):
        return None
    data = tree.read(name)
    return scrub.data(label, name, data) if scrub is not None else data


def _events(cast: bytes | None, notes: list[str]) -> tuple[list[dict[str, Any]], str, list[str]]:
    """The recording's events, where it reads as one; else none, and why."""
    if cast is None:
        notes.append(f"no {CAST}: scores only, no trajectory")
        return [], "none", [NO_TRAJECTORY]
    name = detect(cast)
    if name is None:
        notes.append(f"{CAST} is in no format the site reads; no events")
        return [], "none", [NO_TRAJECTORY]
    got = normalise(cast, name)
    problems = check_events(got.events)
    if problems:
        notes.append(f"{CAST}: its events break v1 at {problems[0][0]}: {problems[0][1]}")
        return [], "none", [NO_TRAJECTORY]
    return got.events, f"recording:{name}", []


def _verdict(trial: TBTrial, model: str, task: str, test_stdout: str | None) -> dict[str, Any]:
    resolved = trial.resolved is True
    if trial.tests:
        checks = [
            {"name": t.name, "level": "test", "mandatory": False, "passed": t.passed}
            for t in trial.tests
        ]
    else:
        shown = {True: "resolved", False: "not resolved", None: "not run (is_resolved null)"}
        checks = [
            {
                "name": "resolved",
                "level": "reward",
                "mandatory": False,
                "passed": resolved,
                "detail": shown[trial.resolved],
            }
        ]
    verdict: dict[str, Any] = {
        "schema": "v1",
        "model": model,
        "task": task,
        "grader": dict(GRADER),
        "checks": checks,
        "reward": 1.0 if resolved else 0.0,
        "threshold": THRESHOLD,
        "is_resolved": trial.resolved,
        "failure_mode": trial.failure_mode,
    }
    if trial.exception is not None:
        verdict["exception"] = trial.exception
    if test_stdout is not None:
        verdict["test_stdout"] = test_stdout
    return verdict


def trial_attempt(
    trial: TBTrial,
    tree,
    *,
    bench: str,
    model: str,
    task: str,
    harness: str,
    model_name: str | None,
    scrub: TrialScrub | None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> AttemptFiles:
    label = trial.run.label.rsplit("/", 1)[0]
    has_folder = tree.exists(trial.folder + "results.json") or tree.exists(trial.folder + CAST)
    cast = _read(tree, trial.folder + CAST, label, scrub) if has_folder else None
    pane = _read(tree, trial.folder + TEST_PANE, label, scrub) if has_folder else None
    notes = list(trial.notes)
    if not has_folder:
        notes.append(f"no trial folder {trial.folder}: scores only")
        events, source, flags = [], "none", [NO_TRAJECTORY]
    else:
        events, source, flags = _events(cast, notes)
    if trial.exception is not None:
        flags.insert(0, exception_flag(trial.failure_mode or ""))
    if trial.resolved is None:
        flags.append(UNRESOLVED_UNKNOWN)
    test_stdout = pane.decode("utf-8", "replace") if pane is not None else None
    verdict = _verdict(trial, model, task, test_stdout)
    score, counted = outcome(verdict, exceptions_rule)
    if not counted:
        flags.append(LEFT_OUT)
    passed = sum(1 for c in verdict["checks"] if c["passed"])
    total = len(verdict["checks"])
    started = trial.started_at or "1970-01-01T00:00:00Z"
    summary = {
        "schema": "v1",
        "bench": bench,
        "model": model,
        "task": task,
        "harness": harness,
        "score": score,
        "scoring_rule": "reward-threshold",
        "checks": {"total": total, "passed": passed, "failed": total - passed, "mandatory_failed": 0},
        "flags": flags,
        "cost": {
            "usd": None,
            "input_tokens": trial.input_tokens or 0,
            "output_tokens": trial.output_tokens or 0,
        },
        "timing": {
            "started_at": started,
            "finished_at": trial.finished_at or started,
            "duration_s": trial.duration_s,
        },
        "hashes": {"task_tree": "", "harness_tree": ""},
        "provenance": {
            "harness_version": None,
            "model_version": model_name or None,
            "run_id": trial.trial_id,
            "exporter": EXPORTER,
        },
        "terminal_bench": {
            "run": trial.run.run_id,
            "results": trial.run.label,
            "trial_name": trial.trial_name,
            "task_id": trial.task_id,
            "failure_mode": trial.failure_mode,
            "events_from": source,
            "notes": notes,
        },
    }
    for event in events:
        if event["type"] == "system" and not event.get("model"):
            event["model"] = model_name or ""
    trajectory = {"schema": "v1", "harness": harness, "model": model, "events": events}
    files = {
        "summary.json": dump(summary),
        "trajectory.json": dump(trajectory),
        "transcript.jsonl": cast or b"",
        "problem.md": trial.instruction.encode("utf-8"),
        "verdict.json": dump(verdict),
    }
    return AttemptFiles(model, task, files, summary, verdict, score, trial.instruction)
