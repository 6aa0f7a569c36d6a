"""What a release holds: per-attempt state, check outcomes, event budgets."""

from __future__ import annotations

from dataclasses import dataclass

from formats.v1.scoring import CheckOutcome
from samplegen.catalog import ModelSpec, TaskSpec
from samplegen.draws import entity_rng

MIN_EVENTS = 4


@dataclass
class Attempt:
    model: ModelSpec
    task: TaskSpec
    outcomes: list[CheckOutcome] | None
    score: float
    flags: list[str]
    n_events: int = 0
    long: bool = False
    never_returns: bool = False
    big_output: bool = False
    no_patch: bool = False
    problem_differs: bool = False
    start_ms: int = 0
    cost_usd: float = 0.0
    duration_s: float = 0.0


def draw_outcomes(seed: int, model: ModelSpec, task: TaskSpec) -> list[CheckOutcome]:
    orng = entity_rng(seed, "outcomes", model.id, task.id)
    result = []
    for check in task.checks:
        if check["mandatory"]:
            p = 0.55 + 0.45 * model.skill - task.difficulty / 2
        else:
            p = model.skill - task.difficulty + (0.08 if check["level"] == "L1" else 0.0)
        p = min(0.97, max(0.05, p))
        result.append(
            CheckOutcome(check["name"], check["mandatory"], orng.random() < p, check["level"])
        )
    return result


@dataclass(frozen=True)
class PairDraws:
    """What the plan draws for one (model, task) attempt, before its content is written."""

    short_events: int
    long_events: int
    no_patch: bool
    problem_differs: bool
    start_second: int


def draw_pair(seed: int, model_id: str, task_id: str) -> PairDraws:
    prng = entity_rng(seed, "plan", model_id, task_id)
    # Both lengths are drawn whether or not the attempt is a long one, so being
    # picked as long (or not) never shifts the draws that follow.
    return PairDraws(
        short_events=int(prng.triangular(20, 300, 60)),
        long_events=prng.randint(5000, 6500),
        no_patch=prng.random() < 0.08,
        problem_differs=prng.random() < 0.04,
        start_second=prng.randint(0, 3599),
    )


def allocate_events(weights: list[int], target: int | None) -> list[int]:
    """Event counts per attempt: the drawn lengths, or scaled to hit ``target`` in total.

    With a target each attempt's share depends on every other attempt's length,
    so a release built with one (``--events``) is not stable from one batch to
    the next; without one each attempt keeps its own drawn length.
    """
    n = len(weights)
    if target is None or n == 0:
        return list(weights)
    scale = target / sum(weights)
    exact = [w * scale for w in weights]
    sizes = [max(MIN_EVENTS, int(x)) for x in exact]
    diff = target - sum(sizes)
    # Largest-remainder rounding, so the release hits the target exactly when it can.
    order = sorted(range(n), key=lambda i: (-(exact[i] - int(exact[i])), i))
    i = 0
    while diff > 0:
        sizes[order[i % n]] += 1
        diff -= 1
        i += 1
    # The per-attempt floor can overshoot a small target; take it back from the longest.
    by_size = sorted(range(n), key=lambda i: (-sizes[i], i))
    while diff < 0:
        reducible = [j for j in by_size if sizes[j] > MIN_EVENTS]
        if not reducible:
            break
        for j in reducible[:-diff]:
            sizes[j] -= 1
            diff += 1
    return sizes
