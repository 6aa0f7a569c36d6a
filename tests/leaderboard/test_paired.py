"""Paired statistics against values worked out by hand."""

import numpy
import pytest

from leaderboard.paired import (
    Record,
    draw_ranks,
    mcnemar_exact,
    paired_interval,
    rank_intervals,
    record,
)


def test_the_paired_interval_equals_the_hand_computed_percentiles():
    # Differences a - b over four tasks: 0, 0, 0, 0.4. A resample's mean is
    # 0.1 k where k ~ Binomial(4, 1/4) counts draws of the 0.4 task:
    # P(k = 0) = 0.316 (so the 2.5% point is 0.0); P(k >= 3) = 0.051 and
    # P(k = 4) = 0.004 (so the 97.5% point is 0.3). Mean difference 0.1.
    a = [0.5, 0.5, 1.0, 0.9]
    b = [0.5, 0.5, 1.0, 0.5]
    found = paired_interval(a, b, seed="hand")
    assert found.mean == pytest.approx(0.1)
    assert (found.low, found.high) == (pytest.approx(0.0), pytest.approx(0.3))
    assert not found.significant


def test_the_interval_is_the_same_on_every_call():
    a, b = [0.1, 0.7, 0.3, 0.9, 0.2], [0.2, 0.5, 0.3, 0.4, 0.1]
    assert paired_interval(a, b, seed="s") == paired_interval(a, b, seed="s")


def test_mcnemar_p_value_equals_the_binomial_tail_by_hand():
    # 6 tasks only A passed, 1 only B passed, 3 concordant: n = 7 discordant,
    # p = 2 * (C(7,0) + C(7,1)) / 2^7 = 2 * 8 / 128 = 0.125.
    a = [True] * 6 + [False] + [True, True, False]
    b = [False] * 6 + [True] + [True, True, False]
    found = mcnemar_exact(a, b)
    assert (found.only_a, found.only_b) == (6, 1)
    assert found.p_value == pytest.approx(0.125)


def test_mcnemar_without_discordant_tasks_finds_nothing():
    assert mcnemar_exact([True, False], [True, False]).p_value == 1.0


def test_identical_models_share_every_rank_and_interval():
    scores = [0.3, 0.8, 0.5, 1.0, 0.0, 0.6]
    found = rank_intervals([scores, scores, scores], seed="same")
    assert {(f.rank_low, f.rank_high) for f in found} == {(1, 1)}
    assert len({(f.low, f.high) for f in found}) == 1


def test_a_model_winning_every_task_by_two_tenths_ranks_first_for_certain():
    base = [0.1, 0.5, 0.3, 0.7, 0.2, 0.6, 0.4, 0.0]
    better = [s + 0.2 for s in base]
    top, bottom = rank_intervals([better, base], seed="gap")
    assert (top.rank_low, top.rank_high, bottom.rank_low, bottom.rank_high) == (1, 1, 2, 2)


def test_ranks_in_a_draw_are_competition_ranks():
    means = numpy.array([[0.5, 0.7, 0.5, 0.1], [0.2, 0.2, 0.2, 0.9]])
    assert draw_ranks(means).tolist() == [[2, 1, 2, 4], [2, 2, 2, 1]]


def test_each_score_lies_in_its_interval_and_ranks_do_not_chain():
    # Twelve models, each 5 points of pass rate above the next, on 100 tasks:
    # adjacent ones are within noise, the top and bottom are not.
    rng = numpy.random.default_rng(7)
    tasks = 100
    models = [(rng.random(tasks) < 0.9 - 0.05 * i).astype(float).tolist() for i in range(12)]
    found = rank_intervals(models, seed="spread")
    for values, interval in zip(models, found, strict=True):
        assert interval.low <= sum(values) / tasks <= interval.high
        assert interval.rank_low <= interval.rank_high
    assert found[0].rank_high < found[-1].rank_low
    assert any(a.rank_high >= b.rank_low for a, b in zip(found, found[1:], strict=False))


def test_wins_ties_and_losses_count_tasks():
    assert record([1.0, 0.5, 0.2, 0.3], [0.5, 0.5, 0.4, 0.1]) == Record(2, 1, 1)


@pytest.mark.parametrize("cells", [1, 7 * 30, 250_000, 2_000_000])
def test_rank_intervals_draw_the_same_whatever_the_chunk_size(settings, cells):
    # paired_chunk_cells only bounds memory: the chunks take the same draws in
    # turn (only the sums' last bits may differ, as they are blocked differently).
    scores = [[((m * 7 + t * 13) % 10) / 10 for t in range(30)] for m in range(5)]
    expected = rank_intervals(scores, seed="chunks", resamples=500)
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "paired_chunk_cells": cells}
    found = rank_intervals(scores, seed="chunks", resamples=500)
    assert [(f.rank_low, f.rank_high) for f in found] == [
        (f.rank_low, f.rank_high) for f in expected
    ]
    for got, want in zip(found, expected, strict=True):
        assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-12)
