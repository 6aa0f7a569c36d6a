"""One Harbor trial → the files of its release-v1 attempt folder.

The verdict carries the verifier's ``reward`` and the bench's ``threshold``,
so the ``reward-threshold`` rule recomputes the score from it; the ctrf
tests are its checks, for detail only. See docs/harbor.md for the mapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from formats.sources import AttemptEntry, Check, LazyFolder
from formats.sources.harbor.events import trial_events
from formats.sources.harbor.trial import Trial, read_ticket
from formats.v1 import attempt_files as v1
from formats.v1.files import attempt_folder
from formats.v1.scoring import (
    DEFAULT_EXCEPTIONS_RULE,
    LEFT_OUT,
    CheckOutcome,
    is_counted,
    score_verdict,
)

RULE = "reward-threshold"
GRADER = v1.verdict_grader("harbor-verifier", "1")
EXPORTER = "benchview import_harbor"
MISMATCH = "reward-ctrf-mismatch"
UNFINISHED = "unfinished"


def exception_flag(kind: str) -> str:
    return f"exception:{kind}"


@dataclass
class AttemptFiles:
    """An attempt folder of the release being built, with what the derived
    documents need from it."""

    model: str
    task: str
    files: dict[str, bytes]
    summary: dict[str, Any]
    verdict: dict[str, Any] | None
    score: float
    ticket: str = ""
    # 0: the attempt folder itself; n: its trials/<n>/ folder (a further trial).
    trial: int = 0

    @property
    def folder(self) -> str:
        return attempt_folder(self.model, self.task, self.trial)

    def refresh(self) -> None:
        """Write summary.json again after the summary was amended."""
        self.files.update(self.summary_file())

    def summary_file(self) -> dict[str, bytes]:
        """summary.json, as the folder holds it."""
        return v1.folder_files(dump, summary=self.summary)

    def entry(self, folder: LazyFolder) -> AttemptEntry:
        """What the release's documents need of this attempt, without its files
        (which ``folder`` builds again): flags, checks, cost and timing. Kept for
        every attempt until the import ends, so nothing more."""
        s = self.summary
        return AttemptEntry(
            model=self.model,
            task=self.task,
            score=self.score,
            flags=list(s["flags"]),
            checks=[
                Check(c["name"], c["level"], c["passed"], c.get("mandatory", False))
                for c in self.checks
            ],
            cost_usd=s["cost"].get("usd"),
            duration_s=s["timing"].get("duration_s"),
            finished_at=s["timing"].get("finished_at"),
            folder=folder,
            trial=self.trial,
            ticket=self.ticket,
        )

    @property
    def flags(self) -> list[str]:
        return list(self.summary["flags"])

    @property
    def checks(self) -> list[dict[str, Any]]:
        return list(self.verdict["checks"]) if self.verdict else []


def dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2)


def _verdict(trial: Trial, model: str, task: str, threshold: float) -> dict[str, Any] | None:
    if trial.reward is None and trial.exception is None:
        return None  # the verifier never ran: missing-verdict
    if trial.tests is not None:
        checks = [
            v1.verdict_check(
                name=t.name, level="test", mandatory=False, passed=t.passed, detail=t.detail
            )
            for t in trial.tests
        ]
    else:
        passed = trial.reward is not None and trial.reward >= threshold
        shown = "none" if trial.reward is None else f"{trial.reward:g}"
        checks = [
            v1.verdict_check(
                name="reward",
                level="reward",
                mandatory=False,
                passed=passed,
                detail=f"reward {shown} (threshold {threshold:g})",
            )
        ]
    extra: dict[str, Any] = {
        "reward": trial.reward,
        "threshold": threshold,
        "reward_file": trial.reward_file,
    }
    if trial.rewards is not None:
        extra["rewards"] = trial.rewards
    if trial.exception is not None:
        extra["exception"] = trial.exception["type"]
    if trial.test_stdout is not None:
        extra["test_stdout"] = trial.test_stdout
    return v1.verdict_document(model=model, task=task, grader=GRADER, checks=checks, extra=extra)


def _mismatch(trial: Trial, threshold: float) -> bool:
    """ctrf and reward disagree: every test passed but the reward fails, or a
    test failed but the reward passes."""
    if not trial.tests or trial.reward is None:
        return False
    rewarded = trial.reward >= threshold
    failed = any(t.status == "failed" for t in trial.tests)
    all_passed = all(t.status in ("passed", "skipped") for t in trial.tests) and any(
        t.passed for t in trial.tests
    )
    return (all_passed and not rewarded) or (failed and rewarded)


def outcome(verdict: dict[str, Any] | None, exceptions_rule: str) -> tuple[float, bool]:
    """(score, counted) of a trial's verdict under the exceptions rule."""
    outcomes = (
        [
            CheckOutcome(c["name"], c["mandatory"], c["passed"], c["level"])
            for c in verdict["checks"]
        ]
        if verdict is not None
        else None
    )
    return (
        score_verdict(RULE, outcomes, verdict, exceptions_rule),
        is_counted(verdict, exceptions_rule),
    )


def rescore(attempt: AttemptFiles, exceptions_rule: str) -> None:
    """Score an attempt read back from the database under this import's rule (it
    may have been imported under another; the site rescores it alike), its
    summary.json written again if that changed its score or flags."""
    score, counted = outcome(attempt.verdict, exceptions_rule)
    flags = [f for f in attempt.flags if f != LEFT_OUT] + ([] if counted else [LEFT_OUT])
    attempt.score = score
    if (attempt.summary["score"], attempt.summary["flags"]) != (score, flags):
        attempt.summary["score"], attempt.summary["flags"] = score, flags
        attempt.refresh()


def trial_attempt(
    trial: Trial,
    *,
    bench: str,
    model: str,
    task: str,
    threshold: float,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> AttemptFiles:
    got = trial_events(atif_bytes=trial.atif_bytes, raw_log=trial.raw_log)
    flags: list[str] = []
    if trial.exception is not None:
        flags.append(exception_flag(trial.exception["type"]))
    if _mismatch(trial, threshold):
        flags.append(MISMATCH)
    if not trial.finished:
        flags.append(UNFINISHED)
    flags += got.flags
    verdict = _verdict(trial, model, task, threshold)
    score, counted = outcome(verdict, exceptions_rule)
    if not counted:
        flags.append(LEFT_OUT)
    passed = sum(1 for c in verdict["checks"] if c["passed"]) if verdict else 0
    total = len(verdict["checks"]) if verdict else 0
    harbor: dict[str, Any] = {
        "job": trial.folder.job,
        "trial_name": trial.trial_name,
        "task_name": trial.task_name,
        "model_name": trial.model_name,
        "events_from": got.source,
        "notes": trial.notes + got.notes,
    }
    if trial.exception is not None:
        harbor["exception"] = trial.exception
    started = trial.started_at or trial.finished_at or ""
    summary = v1.summary_document(
        bench=bench,
        model=model,
        task=task,
        harness=trial.agent,
        score=score,
        scoring_rule=RULE,
        checks=v1.summary_checks(total=total, passed=passed),
        flags=flags,
        cost=v1.summary_cost(
            usd=trial.cost_usd,
            input_tokens=trial.input_tokens or 0,
            output_tokens=trial.output_tokens or 0,
            cache_read_tokens=trial.cache_tokens,
        ),
        timing=v1.summary_timing(
            started_at=started,
            finished_at=trial.finished_at or started,
            duration_s=trial.duration_s,
        ),
        hashes=v1.summary_hashes(
            task_tree=f"sha256:{trial.task_checksum}" if trial.task_checksum else ""
        ),
        provenance=v1.summary_provenance(
            harness_version=trial.agent_version,
            model_version=trial.model_name or None,
            run_id=trial.trial_id,
            exporter=EXPORTER,
        ),
        extra={"harbor": harbor},
    )
    ticket = read_ticket(got.events, trial.atif_bytes)
    # The transcript is the harness's own output, byte for byte: the raw agent
    # log, else the ATIF document (the only record there is), else nothing.
    transcript = trial.raw_log if trial.raw_log is not None else trial.atif_bytes or b""
    files = v1.folder_files(
        dump,
        summary=summary,
        verdict=verdict,
        trajectory=v1.trajectory_document(harness=trial.agent, model=model, events=got.events),
        transcript=transcript,
        problem=ticket,
    )
    return AttemptFiles(model, task, files, summary, verdict, score, ticket)
