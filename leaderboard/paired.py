"""Paired statistics of two models over the same tasks: pure numpy, no Django.

Two models answer the same tasks, so their scores are paired: the question
"is A better than B?" is about the per-task differences, not about two
independent means. ``paired_intervals`` resamples tasks (a bootstrap,
seeded so a page is the same on every visit) and gives the mean difference
with its percentile interval; ``tie_groups`` chains adjacent models of the
leaderboard whose difference is not significant; ``mcnemar_exact`` is the
exact test on the tasks one model passed and the other failed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy
from django.conf import settings

RESAMPLES = 10_000
LEVEL = 0.95
# Differences within this are ties (scores are floats from the same rule).
TIE = 1e-9


def _rng(seed: str) -> numpy.random.Generator:
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


def paired_intervals(
    differences: numpy.ndarray,
    *,
    seed: str,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
) -> list[PairedInterval]:
    """Bootstrap intervals of the mean of each column of ``differences``
    (tasks × pairs): every pair is resampled with the same task draws.

    A resample draws n tasks with replacement; as counts per task it is one
    row of weights, and all pairs' resampled means are one matrix product.
    The interval is the percentile one (ranks as ``scoring.bootstrap_interval``).
    """
    d = numpy.asarray(differences, dtype=float)
    if d.ndim == 1:
        d = d[:, None]
    n, pairs = d.shape
    if n == 0 or pairs == 0:
        return []
    rng = _rng(seed)
    means = numpy.empty((resamples, pairs))
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
        means[start : start + rows] = weights @ d / n
    means.sort(axis=0)
    tail = (1.0 - level) / 2.0
    low_at, high_at = int(tail * (resamples - 1)), int((1.0 - tail) * (resamples - 1))
    centre = d.mean(axis=0)
    return [
        PairedInterval(float(centre[j]), float(means[low_at, j]), float(means[high_at, j]), level)
        for j in range(pairs)
    ]


def paired_interval(
    a: Sequence[float], b: Sequence[float], *, seed: str, resamples: int = RESAMPLES
) -> PairedInterval | None:
    """The mean of ``a - b`` over tasks with its bootstrap interval; None without tasks."""
    if len(a) != len(b):
        raise ValueError("paired scores need the same tasks on both sides")
    found = paired_intervals(
        numpy.asarray(a, dtype=float) - numpy.asarray(b, dtype=float),
        seed=seed,
        resamples=resamples,
    )
    return found[0] if found else None


@dataclass(frozen=True)
class TieLink:
    group: int  # 1 for the top group, then 2, 3 … down the leaderboard
    to_next: PairedInterval | None  # this model minus the next one; None for the last


def tie_groups(
    ranked_scores: Sequence[Sequence[float]], *, seed: str, resamples: int = RESAMPLES
) -> list[TieLink]:
    """Tie groups of models in leaderboard order (``ranked_scores[i]`` is model
    i's score per task, tasks in one order for all).

    A model shares its group with the next one down when their paired
    difference is not significant; a significant gap starts a new group.
    """
    if not ranked_scores:
        return []
    scores = numpy.asarray(ranked_scores, dtype=float)
    gaps = paired_intervals((scores[:-1] - scores[1:]).T, seed=seed, resamples=resamples)
    links, group = [], 1
    for i in range(len(scores)):
        gap = gaps[i] if i < len(gaps) else None
        links.append(TieLink(group, gap))
        if gap is not None and gap.significant:
            group += 1
    return links


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
    d = numpy.asarray(a, dtype=float) - numpy.asarray(b, dtype=float)
    wins, losses = int((d > TIE).sum()), int((d < -TIE).sum())
    return Record(wins, len(d) - wins - losses, losses)
