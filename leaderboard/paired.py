"""Paired statistics of two models over the same tasks: pure numpy, no Django.

Two models answer the same tasks, so their scores are paired: the question
"is A better than B?" is about the per-task differences, not about two
independent means. ``paired_intervals`` resamples tasks (a bootstrap,
seeded so a page is the same on every visit) and gives the mean difference
with its percentile interval; ``rank_intervals`` draws the same resamples
for every model of a bench at once and gives each its score interval and the
range of ranks it takes; ``mcnemar_exact`` is the exact test on the tasks
one model passed and the other failed.

A task's value is the model's mean over its trials of that task: resampling
tasks with those means carries the spread between trials too (the mean of
fewer trials varies more), so nothing resamples trials within a task.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    import numpy

# numpy is imported where it is used: it takes about 0.3 s to load, and the
# site's start (``benchview view`` serving a cached database) never needs it.

RESAMPLES = 10_000
LEVEL = 0.95
# Differences within this are ties (scores are floats from the same rule).
TIE = 1e-9


def _rng(seed: str) -> numpy.random.Generator:
    import numpy

    digest = hashlib.sha256(seed.encode()).digest()
    return numpy.random.default_rng(int.from_bytes(digest[:8], "big"))


@dataclass(frozen=True)
class PairedInterval:
    mean: float  # mean over tasks of a - b
    low: float
    high: float
    level: float = LEVEL

    @property
    def significant(self) -> bool:
        """The interval leaves out zero: the difference is not noise at this level."""
        return self.low > 0.0 or self.high < 0.0


def resampled_means(
    values: numpy.ndarray, *, seed: str, resamples: int = RESAMPLES
) -> numpy.ndarray:
    """The means of each column of ``values`` (tasks × columns) over ``resamples``
    draws of the tasks with replacement (resamples × columns); every column is
    resampled with the same draws.

    A resample draws n tasks with replacement; as counts per task it is one
    row of weights, and all columns' resampled means are one matrix product.
    """
    import numpy

    v = numpy.asarray(values, dtype=float)
    n, columns = v.shape
    rng = _rng(seed)
    means = numpy.empty((resamples, columns))
    # Resampled rows built at a time (each is one weight per task).
    chunk = max(1, settings.BENCHVIEW_LIMITS["paired_chunk_cells"] // n)
    offsets = None
    for start in range(0, resamples, chunk):
        rows = min(resamples, start + chunk) - start
        picks = rng.integers(0, n, size=(rows, n))
        if offsets is None or len(offsets) != rows:
            offsets = (numpy.arange(rows) * n)[:, None]
        picks += offsets  # in place: one array of draws at a time, not two
        weights = numpy.bincount(picks.ravel(), minlength=rows * n).reshape(rows, n)
        means[start : start + rows] = weights @ v / n
    return means


def _percentile_rows(resamples: int, level: float) -> tuple[int, int]:
    tail = (1.0 - level) / 2.0
    return int(tail * (resamples - 1)), int((1.0 - tail) * (resamples - 1))


def paired_intervals(
    differences: numpy.ndarray,
    *,
    seed: str,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
) -> list[PairedInterval]:
    """Bootstrap intervals of the mean of each column of ``differences``
    (tasks × pairs): every pair is resampled with the same task draws. The
    interval is the percentile one: the middle ``level`` of the resampled means.
    """
    import numpy

    d = numpy.asarray(differences, dtype=float)
    if d.ndim == 1:
        d = d[:, None]
    n, pairs = d.shape
    if n == 0 or pairs == 0:
        return []
    means = resampled_means(d, seed=seed, resamples=resamples)
    means.sort(axis=0)
    low_at, high_at = _percentile_rows(resamples, level)
    centre = d.mean(axis=0)
    return [
        PairedInterval(float(centre[j]), float(means[low_at, j]), float(means[high_at, j]), level)
        for j in range(pairs)
    ]


@dataclass(frozen=True)
class RankInterval:
    low: float  # the score's interval: middle 95% of its resampled means
    high: float
    rank_low: int  # the best (smallest) rank in the middle 95% of draws
    rank_high: int  # the worst


def draw_ranks(means: numpy.ndarray) -> numpy.ndarray:
    """Competition ranks within each row of ``means`` (draws × models): 1 plus
    the number of models whose mean is higher by more than ``TIE``."""
    import numpy

    draws, models = means.shape
    # Scores lie in [0, 1]: shifting row r by 2r lays every row's sorted values
    # out in one increasing array, so one searchsorted ranks all draws at once.
    shift = (2.0 * numpy.arange(draws))[:, None]
    ordered = (numpy.sort(means, axis=1) + shift).ravel()
    at_most = numpy.searchsorted(ordered, (means + TIE + shift).ravel(), side="right")
    at_most = at_most.reshape(draws, models) - (numpy.arange(draws) * models)[:, None]
    return models - at_most + 1


def rank_intervals(
    values: Sequence[Sequence[float]],
    *,
    seed: str,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
) -> list[RankInterval]:
    """Each model's score interval and rank range from one paired bootstrap.

    ``values[i]`` is model i's value on each task (tasks in one order for
    all). Every draw resamples the tasks once, the same tasks for every model,
    and ranks the models on it; a model's range runs over the middle ``level``
    of its ranks, so a model far above the rest reads "1" and models within
    noise of each other share ranks, with no chain from top to bottom.
    """
    import numpy

    if not len(values) or not len(values[0]):
        return []
    means = resampled_means(numpy.asarray(values, dtype=float).T, seed=seed, resamples=resamples)
    ranks = draw_ranks(means)
    means.sort(axis=0)
    ranks.sort(axis=0)
    low_at, high_at = _percentile_rows(resamples, level)
    return [
        RankInterval(
            float(means[low_at, j]),
            float(means[high_at, j]),
            int(ranks[low_at, j]),
            int(ranks[high_at, j]),
        )
        for j in range(means.shape[1])
    ]


def paired_interval(
    a: Sequence[float], b: Sequence[float], *, seed: str, resamples: int = RESAMPLES
) -> PairedInterval | None:
    """The mean of ``a - b`` over tasks with its bootstrap interval; None without tasks."""
    import numpy

    if len(a) != len(b):
        raise ValueError("paired scores need the same tasks on both sides")
    found = paired_intervals(
        numpy.asarray(a, dtype=float) - numpy.asarray(b, dtype=float),
        seed=seed,
        resamples=resamples,
    )
    return found[0] if found else None


@dataclass(frozen=True)
class McNemar:
    only_a: int  # tasks A passed and B failed
    only_b: int  # tasks B passed and A failed
    p_value: float  # two-sided exact (binomial) p-value; 1.0 with no discordant task


def mcnemar_exact(a_passed: Sequence[bool], b_passed: Sequence[bool]) -> McNemar:
    """McNemar's exact test: under "no difference" each discordant task is a
    fair coin, so the smaller count is binomial(n, 1/2)."""
    if len(a_passed) != len(b_passed):
        raise ValueError("paired outcomes need the same tasks on both sides")
    only_a = sum(1 for x, y in zip(a_passed, b_passed, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a_passed, b_passed, strict=True) if y and not x)
    n = only_a + only_b
    if n == 0:
        return McNemar(only_a, only_b, 1.0)
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return McNemar(only_a, only_b, min(1.0, 2.0 * tail))


@dataclass(frozen=True)
class Record:
    wins: int
    ties: int
    losses: int


def record(a: Sequence[float], b: Sequence[float]) -> Record:
    """Tasks where A scored higher, the same (within ``TIE``), lower."""
    import numpy

    d = numpy.asarray(a, dtype=float) - numpy.asarray(b, dtype=float)
    wins, losses = int((d > TIE).sum()), int((d < -TIE).sum())
    return Record(wins, len(d) - wins - losses, losses)
