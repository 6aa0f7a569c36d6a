"""Scoring rules and the leaderboard figures built from task scores.

Everything here is pure: plain data in, numbers out. The importer and the
sample-release generator both use it, so the site and its synthetic releases
cannot drift apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TOLERANCE = 1e-9
MISSING_VERDICT = "missing-verdict"
MISSING_ATTEMPT = "missing-attempt"


@dataclass(frozen=True)
class CheckOutcome:
    name: str
    mandatory: bool
    passed: bool
    level: str = ""


def mandatory_gated(checks: Sequence[CheckOutcome], verdict: Mapping[str, Any]) -> float:
    """task-score-v4-mandatory-gated: 0 if a mandatory check failed, else the
    fraction of non-mandatory checks passed (1 when there are none)."""
    if any(c.mandatory and not c.passed for c in checks):
        return 0.0
    optional = [c for c in checks if not c.mandatory]
    if not optional:
        return 1.0
    return sum(1 for c in optional if c.passed) / len(optional)


def pass_fail(checks: Sequence[CheckOutcome], verdict: Mapping[str, Any]) -> float:
    """pass-fail: 1 when every check passed, else 0."""
    return 1.0 if all(c.passed for c in checks) else 0.0


DEFAULT_REWARD_THRESHOLD = 1.0


def reward_threshold(checks: Sequence[CheckOutcome], verdict: Mapping[str, Any]) -> float:
    """reward-threshold (Harbor benches): 1 when the verdict's ``reward`` is at
    least its ``threshold`` (default 1.0), else 0; no reward scores 0. An
    ``exception`` the verdict records does not decide here: Harbor's verifier
    runs after it and the reward counts (the bench's exceptions rule, applied
    by ``score_verdict``, may say otherwise). The checks are shown for detail
    only: the verifier's reward is what decides."""
    reward = verdict.get("reward")
    threshold = verdict.get("threshold", DEFAULT_REWARD_THRESHOLD)
    if not _is_number(reward) or not _is_number(threshold):
        return 0.0
    return 1.0 if reward >= threshold - TOLERANCE else 0.0


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# Rule name -> rule. A rule sees the verdict's checks and the whole verdict
# document (for rules that read more than the checks, such as a reward).
SCORING_RULES: dict[str, Callable[[Sequence[CheckOutcome], Mapping[str, Any]], float]] = {
    "task-score-v4-mandatory-gated": mandatory_gated,
    "pass-fail": pass_fail,
    "reward-threshold": reward_threshold,
}
# Rules whose task scores are 0 or 1: the site shows them as a pass rate with
# its counts, "34.1% (15/44)".
PASS_RATE_RULES = frozenset({"pass-fail", "reward-threshold"})


# How a trial that raised (its verdict records an ``exception``) is scored:
# the rule in force is stored with the bench (manifest.json ``exceptions_rule``).
# - harbor: as Harbor's own result.json counts it: the verifier ran after the
#   exception, so its reward decides (no reward scores 0);
# - fail: any exception fails the trial, whatever was rewarded;
# - terminal-bench: as Terminal-Bench's leaderboard (get_agent_scores) counts
#   it: a trial that raised anything but a timeout is left out of the figures;
#   the rest count their reward, a missing one as 0.
HARBOR_EXCEPTIONS = "harbor"
FAIL_EXCEPTIONS = "fail"
TERMINAL_BENCH_EXCEPTIONS = "terminal-bench"
EXCEPTIONS_RULES = (HARBOR_EXCEPTIONS, FAIL_EXCEPTIONS, TERMINAL_BENCH_EXCEPTIONS)
DEFAULT_EXCEPTIONS_RULE = HARBOR_EXCEPTIONS
# Exceptions Terminal-Bench still counts (the trial ran out of time; it did not break).
TIMEOUT_EXCEPTIONS = frozenset({"AgentTimeoutError", "VerifierTimeoutError"})
# The flag of an attempt the exceptions rule leaves out of every figure.
LEFT_OUT = "left-out"
# Flags of an attempt whose run raised: "exception:<type>" (Harbor's exception_info).
EXCEPTION_FLAG_PREFIX = "exception:"


def score_verdict(
    rule: str,
    checks: Sequence[CheckOutcome] | None,
    verdict: Mapping[str, Any] | None = None,
    exceptions_rule: str = "",
) -> float:
    """The task score of one attempt; a missing verdict (None) scores 0. Under
    the ``fail`` exceptions rule a verdict that records an exception scores 0."""
    if checks is None:
        return 0.0
    if exceptions_rule == FAIL_EXCEPTIONS and verdict and verdict.get("exception"):
        return 0.0
    return SCORING_RULES[rule](checks, verdict or {})


def is_counted(verdict: Mapping[str, Any] | None, exceptions_rule: str = "") -> bool:
    """False when the exceptions rule leaves this attempt out of the figures
    (terminal-bench: it raised something other than a timeout)."""
    if exceptions_rule != TERMINAL_BENCH_EXCEPTIONS or not verdict:
        return True
    raised = verdict.get("exception")
    return not raised or raised in TIMEOUT_EXCEPTIONS


@dataclass(frozen=True)
class CheckCounts:
    total: int
    passed: int
    failed: int
    mandatory_failed: int


def count_checks(checks: Sequence[CheckOutcome]) -> CheckCounts:
    passed = sum(1 for c in checks if c.passed)
    return CheckCounts(
        total=len(checks),
        passed=passed,
        failed=len(checks) - passed,
        mandatory_failed=sum(1 for c in checks if c.mandatory and not c.passed),
    )


def differs(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is not b
    return abs(a - b) > TOLERANCE


@dataclass(frozen=True)
class Cell:
    """One model's result on one public task, as the leaderboard sees it."""

    score: float
    flags: tuple[str, ...] = ()
    released: bool = False
    cost_usd: float | None = None
    duration_s: float | None = None
    # Scores of the further trials of this model on this task (Harbor's
    # n_attempts); the cell's own score is the first trial's. None: a trial the
    # exceptions rule leaves out (the first one is, when its flags say LEFT_OUT).
    trials: tuple[float | None, ...] = ()
    # How many of the cell's trials (the first and the further ones) raised an exception.
    errors: int = 0

    @property
    def counted(self) -> bool:
        return LEFT_OUT not in self.flags


@dataclass
class Figures:
    score: float = 0.0
    # Tasks in the mean: every task, but those whose trials are all left out.
    tasks: int = 0
    flagged: int = 0
    passed: int = 0
    # The pass rate's denominator: the counted trials (== tasks when each ran once).
    trials: int = 0
    # Trials that raised an exception (Harbor's n_errored_trials), counted or not.
    errors: int = 0
    # The released attempts' costs summed; None when every one is unknown (the
    # harness reported none), and ``cost_unknown_trials`` counts the unknown ones.
    cost_usd: float | None = 0.0
    cost_unknown_trials: int = 0
    duration_s: float = 0.0
    by_surface: dict[str, dict[str, float | int]] = field(default_factory=dict)

    def aggregate(self) -> dict:
        """The figures as a models/<model>.json ``aggregate`` (and leaderboard row) carries them."""
        doc = {
            "score": self.score,
            "tasks": self.tasks,
            "flagged": self.flagged,
            "cost_usd": self.cost_usd,
            "duration_s": self.duration_s,
            "by_surface": self.by_surface,
        }
        if self.cost_unknown_trials:
            # Beyond v1: how many attempts' costs the sum lacks.
            doc["cost_unknown_trials"] = self.cost_unknown_trials
        return doc


def model_figures(
    cells: Mapping[str, Cell], task_surfaces: Mapping[str, str], task_order: Iterable[str]
) -> Figures:
    """A model's leaderboard figures over the full public task set.

    ``cells`` maps task id to the model's cell; a task without one scores 0 and
    is flagged (missing attempt). Cost and duration sum the released attempts.

    Where a cell has further trials, ``score`` and ``passed`` count trials (as
    tbench does): every trial is one draw, so the score is the trials' mean,
    which is the tasks' mean when every task ran once. ``by_surface``, cost and
    duration stay per task (first trials). A trial the exceptions rule leaves
    out is no draw; a task all of whose trials are left out is not in the mean
    (``tasks`` says how many are).
    """
    figures = Figures()
    total = 0.0
    costs_known = 0
    surfaces: dict[str, list[float]] = {}
    for task in task_order:
        cell = cells.get(task)
        if cell is None or MISSING_VERDICT in cell.flags or MISSING_ATTEMPT in cell.flags:
            figures.flagged += 1
        if cell is None:
            draws: list[float] = [0.0]
        else:
            figures.errors += cell.errors
            draws = [cell.score] if cell.counted else []
            draws += [s for s in cell.trials if s is not None]
            if cell.released:
                if cell.cost_usd is None:
                    figures.cost_unknown_trials += 1
                else:
                    figures.cost_usd += cell.cost_usd
                    costs_known += 1
                figures.duration_s += cell.duration_s or 0.0
        if not draws:
            continue
        figures.tasks += 1
        figures.trials += len(draws)
        figures.passed += sum(1 for s in draws if s >= 1.0 - TOLERANCE)
        total += sum(draws)
        surfaces.setdefault(task_surfaces[task], []).append(
            cell.score if cell is not None and cell.counted else draws[0]
        )
    figures.score = total / figures.trials if figures.trials else 0.0
    if figures.cost_unknown_trials and not costs_known:
        figures.cost_usd = None  # unknown, never $0.00
    figures.by_surface = {
        surface: {"score": sum(scores) / len(scores), "tasks": len(scores)}
        for surface, scores in sorted(surfaces.items())
    }
    return figures


def trials_figure(first: float | None, further: Iterable[float | None]) -> dict[str, int]:
    """``{"passed", "total"}`` over a cell's trials: the first and the further ones.
    ``total`` is every trial run; a trial the exceptions rule leaves out (None)
    is not passed."""
    scores = [first, *further]
    passed = sum(1 for s in scores if s is not None and s >= 1.0 - TOLERANCE)
    return {"passed": passed, "total": len(scores)}


def competition_ranks(scored: Sequence[tuple[str, float]]) -> list[tuple[str, int]]:
    """Order (id, score) pairs by score (highest first) then id, and rank them
    1, 2, 2, 4: scores within the tolerance tie."""
    ordered = sorted(scored, key=lambda pair: (-pair[1], pair[0]))
    ranks: list[tuple[str, int]] = []
    previous: float | None = None
    rank = 0
    for position, (ident, score) in enumerate(ordered, start=1):
        if previous is None or abs(previous - score) > TOLERANCE:
            rank = position
            previous = score
        ranks.append((ident, rank))
    return ranks


def bootstrap_interval(
    scores: Sequence[float], *, seed: str, resamples: int = 1000, level: float = 0.95
) -> tuple[float, float] | None:
    """A percentile bootstrap interval of the mean over tasks.

    Seeded from ``seed`` so the same release always draws the same whisker.
    numpy does the resampling: a bench of 100 models over 1,000 tasks needs
    10^8 draws, minutes in pure Python.
    """
    # Imported here: this module loads with the models in every process, and
    # numpy costs a third of a second of each one's start.
    import numpy

    n = len(scores)
    if n == 0:
        return None
    digest = hashlib.sha256(seed.encode()).digest()
    rng = numpy.random.default_rng(int.from_bytes(digest[:8], "big"))
    values = numpy.asarray(scores, dtype=float)
    means = numpy.empty(resamples)
    # In chunks, so memory stays small whatever the number of tasks.
    chunk = max(1, 2_000_000 // n)
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        picks = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[picks].mean(axis=1)
    means.sort()
    tail = (1.0 - level) / 2.0
    low = float(means[int(tail * (resamples - 1))])
    high = float(means[int((1.0 - tail) * (resamples - 1))])
    return low, high
