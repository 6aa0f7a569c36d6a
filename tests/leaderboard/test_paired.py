"""Paired statistics against values worked out by hand."""

import pytest

from leaderboard.paired import Record, mcnemar_exact, paired_interval, record, tie_groups


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


def test_identical_models_share_a_tie_group():
    scores = [0.3, 0.8, 0.5, 1.0, 0.0, 0.6]
    links = tie_groups([scores, scores, scores], seed="same")
    assert [link.group for link in links] == [1, 1, 1]
    assert links[0].to_next.low == links[0].to_next.high == 0.0


def test_a_model_winning_every_task_by_two_tenths_is_not_tied():
    base = [0.1, 0.5, 0.3, 0.7, 0.2, 0.6, 0.4, 0.0]
    better = [s + 0.2 for s in base]
    links = tie_groups([better, base], seed="gap")
    assert [link.group for link in links] == [1, 2]
    assert links[0].to_next.low == pytest.approx(0.2) and links[0].to_next.significant
    assert links[1].to_next is None


def test_a_significant_gap_starts_a_new_group_further_down():
    base = [0.1, 0.5, 0.3, 0.7, 0.2, 0.6, 0.4, 0.0]
    top = [s + 0.2 for s in base]
    assert [link.group for link in tie_groups([top, top, base, base], seed="x")] == [1, 1, 2, 2]


def test_wins_ties_and_losses_count_tasks():
    assert record([1.0, 0.5, 0.2, 0.3], [0.5, 0.5, 0.4, 0.1]) == Record(2, 1, 1)


@pytest.mark.parametrize("cells", [1, 7 * 30, 250_000, 2_000_000])
def test_tie_groups_draw_the_same_intervals_whatever_the_chunk_size(settings, cells):
    # paired_chunk_cells only bounds memory: the chunks take the same draws in
    # turn (only the sums' last bits may differ, as they are blocked differently).
    scores = [[((m * 7 + t * 13) % 10) / 10 for t in range(30)] for m in range(5)]
    expected = tie_groups(scores, seed="chunks", resamples=500)
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "paired_chunk_cells": cells}
    found = tie_groups(scores, seed="chunks", resamples=500)
    assert [link.group for link in found] == [link.group for link in expected]
    for got, want in zip(found[:-1], expected[:-1], strict=True):
        bounds = (got.to_next.low, got.to_next.high)
        assert bounds == pytest.approx((want.to_next.low, want.to_next.high), abs=1e-12)
