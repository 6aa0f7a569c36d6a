"""Scoring rules and the leaderboard figures built from task scores.

Everything here is pure: plain data in, numbers out. The importer and the
sample-release generator both use it, so the site and its synthetic releases
cannot drift apart.
"""

from __future__ import annotations

import math
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
    # n_attempts); ``score`` is the first trial's. None: a trial the exceptions
    # rule leaves out (the first one is, when its flags say LEFT_OUT).
    trials: tuple[float | None, ...] = ()
    # Cost and duration of those further trials, in the same order.
    trial_costs: tuple[float | None, ...] = ()
    trial_durations: tuple[float | None, ...] = ()
    # How many of the cell's trials (the first and the further ones) raised an exception.
    errors: int = 0

    @property
    def counted(self) -> bool:
        """The first trial counts (the exceptions rule does not leave it out)."""
        return LEFT_OUT not in self.flags

    @property
    def scores(self) -> tuple[float, ...]:
        """Every counted trial's score, the first one first."""
        first = (self.score,) if self.counted else ()
        return (*first, *(s for s in self.trials if s is not None))

    @property
    def value(self) -> float:
        """The task's value for the model: the mean over its counted trials (0
        when the exceptions rule left every one out)."""
        scores = self.scores
        return sum(scores) / len(scores) if scores else 0.0


def passes(score: float) -> bool:
    return score >= 1.0 - TOLERANCE


@dataclass
class Figures:
    score: float = 0.0
    # Tasks in the mean: every task, but those whose trials are all left out.
    tasks: int = 0
    flagged: int = 0
    passed: int = 0  # counted trials scored 1
    # Every counted trial; a task without an attempt counts as one failed trial.
    trials: int = 0
    # Trials that raised an exception (Harbor's n_errored_trials), counted or not.
    errors: int = 0
    # Every released trial's cost, summed; None when every one is unknown (the
    # harness reported none), and ``cost_unknown_trials`` counts the unknown ones.
    cost_usd: float | None = 0.0
    cost_unknown_trials: int = 0
    # Each released task's mean cost over its trials, summed: what one run of
    # the bench costs (equal to ``cost_usd`` when every task ran once).
    run_cost_usd: float = 0.0
    duration_s: float = 0.0
    by_surface: dict[str, dict[str, float | int]] = field(default_factory=dict)
    # Tasks passed in every trial, in some, in none (pass-fail benches).
    consistency: dict[str, int] = field(default_factory=dict)
    # Tasks passed in some trials but not all, with their counts.
    some_tasks: list[tuple[str, int, int]] = field(default_factory=list)

    def aggregate(self) -> dict:
        """The figures as a models/<model>.json ``aggregate`` (and leaderboard row) carries them."""
        doc = {
            "score": self.score,
            "tasks": self.tasks,
            "flagged": self.flagged,
            "cost_usd": self.cost_usd,
            "duration_s": self.duration_s,
            "by_surface": surface_documents(self.by_surface),
        }
        if self.cost_unknown_trials:
            # Beyond v1: how many attempts' costs the sum lacks.
            doc["cost_unknown_trials"] = self.cost_unknown_trials
        return doc


def surface_documents(by_surface: Mapping[str, Mapping[str, Any]]) -> dict[str, dict]:
    """``by_surface`` as release-v1 carries it: score and tasks of each surface."""
    return {s: {"score": f["score"], "tasks": f["tasks"]} for s, f in by_surface.items()}


def task_values(cells: Mapping[str, Cell], task_order: Iterable[str]) -> list[float]:
    """A model's value on each task, tasks in ``task_order``: the mean over its
    trials, 0 for a task without an attempt."""
    return [cells[t].value if t in cells else 0.0 for t in task_order]


def model_figures(
    cells: Mapping[str, Cell], task_surfaces: Mapping[str, str], task_order: Iterable[str]
) -> Figures:
    """A model's leaderboard figures over the full public task set.

    ``cells`` maps task id to the model's cell; a task without one scores 0 and
    is flagged (missing attempt). The score is the mean over tasks of each
    task's mean over its trials: every task weighs the same however often it
    ran (as Terminal-Bench computes accuracy); with one trial per task it is
    the plain mean. ``passed`` and ``trials`` count trials, for the label
    "34.1%: 15 of 46 trials on 44 tasks". Cost and duration sum every released
    trial; ``run_cost_usd`` sums each task's mean cost over its trials.

    A trial the exceptions rule leaves out counts nowhere but ``errors``; a
    task all of whose trials are left out is not in the mean, and ``tasks``
    says how many are.
    """
    figures = Figures()
    surfaces: dict[str, list[tuple[float, int, int]]] = {}
    consistency = {"all": 0, "some": 0, "none": 0}
    tasks = list(task_order)
    total = 0.0
    costs_known = 0
    for task in tasks:
        cell = cells.get(task)
        if cell is None or MISSING_VERDICT in cell.flags or MISSING_ATTEMPT in cell.flags:
            figures.flagged += 1
        if cell is not None:
            figures.errors += cell.errors
        if cell is not None and cell.released:
            costs = (cell.cost_usd, *cell.trial_costs)
            durations = (cell.duration_s, *cell.trial_durations)
            # One trial at a time, in trial order: the mirror's live-only sums
            # add them the same way and must match to the bit.
            for c in costs:
                if c is None:
                    figures.cost_unknown_trials += 1
                else:
                    figures.cost_usd += c
                    costs_known += 1
            for d in durations:
                figures.duration_s += d or 0.0
            figures.run_cost_usd += sum(c or 0.0 for c in costs) / len(costs)
        scores = cell.scores if cell is not None else (0.0,)
        if not scores:
            continue  # every trial left out by the exceptions rule
        passed = sum(1 for s in scores if passes(s))
        value = sum(scores) / len(scores)
        total += value
        figures.tasks += 1
        figures.passed += passed
        figures.trials += len(scores)
        surfaces.setdefault(task_surfaces[task], []).append((value, passed, len(scores)))
        kind = "all" if passed == len(scores) else "none" if not passed else "some"
        consistency[kind] += 1
        if kind == "some":
            figures.some_tasks.append((task, passed, len(scores)))
    figures.score = total / figures.tasks if figures.tasks else 0.0
    figures.consistency = consistency
    if figures.cost_unknown_trials and not costs_known:
        figures.cost_usd = None  # unknown, never $0.00
    figures.by_surface = {
        surface: {
            "score": sum(v for v, _, _ in found) / len(found),
            "tasks": len(found),
            "passed": sum(p for _, p, _ in found),
            "trials": sum(n for _, _, n in found),
        }
        for surface, found in sorted(surfaces.items())
    }
    return figures


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k for one task (Chen et al. 2021): the
    chance that at least one of k trials drawn from the n run, c of them
    passed, passes: 1 - C(n - c, k) / C(n, k). Needs k <= n."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass^k for one task (τ-bench): the chance that
    all of k trials drawn from the n run pass: C(c, k) / C(n, k). Needs k <= n."""
    return math.comb(c, k) / math.comb(n, k)


@dataclass(frozen=True)
class PassK:
    at: dict[str, float]  # pass@k by k (as a string)
    hat: dict[str, float]  # pass^k by k
    tasks: dict[str, int]  # the tasks with at least k trials, over which both are averaged


def pass_k_figures(outcomes: Sequence[tuple[int, int]], most: int) -> PassK:
    """pass@k and pass^k for k = 1 .. ``most`` from each task's (trials, passed),
    each averaged over the tasks that ran at least k times (k without any is left out)."""
    at: dict[str, float] = {}
    hat: dict[str, float] = {}
    counted: dict[str, int] = {}
    for k in range(1, most + 1):
        found = [(n, c) for n, c in outcomes if n >= k]
        if not found:
            continue
        at[str(k)] = math.fsum(pass_at_k(n, c, k) for n, c in found) / len(found)
        hat[str(k)] = math.fsum(pass_hat_k(n, c, k) for n, c in found) / len(found)
        counted[str(k)] = len(found)
    return PassK(at, hat, counted)


def task_outcomes(cells: Mapping[str, Cell], task_order: Iterable[str]) -> list[tuple[int, int]]:
    """(counted trials, passed) of each task; a task without an attempt is one
    failed trial (one whose trials the exceptions rule all left out has none)."""
    found = []
    for task in task_order:
        scores = cells[task].scores if task in cells else (0.0,)
        found.append((len(scores), sum(1 for s in scores if passes(s))))
    return found


def trials_figure(first: float | None, further: Iterable[float | None]) -> dict[str, int]:
    """``{"passed", "total"}`` over a cell's trials: the first and the further ones.
    ``total`` is every trial run; a trial the exceptions rule leaves out (None)
    is not passed."""
    scores = [first, *further]
    return {"passed": sum(1 for s in scores if s is not None and passes(s)), "total": len(scores)}


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
