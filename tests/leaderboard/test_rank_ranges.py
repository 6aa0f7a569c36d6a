"""Rank ranges and intervals by their properties: on the seed's Interaction
Bench table, and on simulated benches with one and with five trials a task."""

from __future__ import annotations

import io

import numpy
import pytest

from leaderboard.models import Model
from leaderboard.paired import rank_intervals
from samplegen.harbor import write_sample_harbor
from tests.ingest.harbor_trials import import_harbor


@pytest.mark.django_db
def test_on_the_seed_table_top_and_bottom_ranges_part_while_neighbours_overlap(tmp_path):
    root = tmp_path / "jobs"
    write_sample_harbor(root, tasks=44, extra_trials=False)
    import_harbor(
        root,
        bench="interaction-bench",
        models=str(root / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    models = list(Model.objects.filter(bench__slug="interaction-bench").ranked())
    assert [m.passed for m in models] == [15, 12, 7, 4, 3, 2]  # 34.1% down to 4.5%
    top, bottom = models[0], models[-1]
    assert top.rank_high < bottom.rank_low
    # Qwen 4 Coder (3/44) and Devstral 3 (2/44) are one task apart: not told apart.
    near, last = models[-2], models[-1]
    assert near.rank_low <= last.rank_high and last.rank_low <= near.rank_high
    for model in models:
        assert model.ci_low <= model.score <= model.ci_high
        assert model.rank_low <= model.rank <= model.rank_high


def simulated(trials: int, seed: int) -> list[list[float]]:
    """Three models on 60 tasks with fixed per-task pass probabilities; each
    task's value is the mean of ``trials`` Bernoulli draws."""
    rng = numpy.random.default_rng(seed)
    probabilities = rng.beta(1.2, 1.2, size=(3, 60)) * numpy.array([[1.0], [0.8], [0.5]])
    draws = rng.random((trials, 3, 60)) < probabilities
    return draws.mean(axis=0).tolist()


def test_five_trials_a_task_give_narrower_intervals_than_one():
    narrower = 0
    for seed in range(10):
        one = rank_intervals(simulated(1, seed), seed="one")
        five = rank_intervals(simulated(5, seed), seed="five")
        for a, b in zip(one, five, strict=True):
            narrower += (b.high - b.low) < (a.high - a.low)
    # Every model of every seeded bench: 30 of 30.
    assert narrower == 30


def test_ranges_narrow_as_trials_grow_and_far_apart_models_rank_for_certain():
    one = rank_intervals(simulated(1, 3), seed="r")
    many = rank_intervals(simulated(20, 3), seed="r")
    widths_one = sum(r.rank_high - r.rank_low for r in one)
    widths_many = sum(r.rank_high - r.rank_low for r in many)
    assert widths_many <= widths_one
    # The weakest model (half the others' pass probabilities) is last for certain.
    assert (many[2].rank_low, many[2].rank_high) == (3, 3)
