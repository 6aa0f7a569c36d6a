"""core.formatting: how every figure reads, on pages and in reports."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from core import formatting
from trajectories.render import event_html
from trajectories.search.engine import Tally


@pytest.mark.parametrize(
    ("value", "percent", "shown"),
    [(0.5731, False, "0.573"), (0.5731, True, "57.3%"), (1.0, False, "1.000"), (None, False, "–")],
)
def test_a_score_reads_to_three_places_or_as_a_percentage(value, percent, shown):
    assert formatting.score(value, percent) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.57314, "0.5731"),
        (0.5, "0.5"),
        (0.0, "0.0"),
        (1, "1.0"),
        (0.12345678, "0.1235"),
        (None, "-"),
    ],
)
def test_an_exact_score_has_four_places_without_trailing_zeros(value, shown):
    assert formatting.score_exact(value) == shown


def test_score_axis_ticks_are_short():
    assert [formatting.score_tick(t) for t in (0.0, 0.25, 1.0)] == ["0.00", "0.25", "1.00"]
    assert [formatting.score_tick(t, percent=True) for t in (0.0, 0.25, 1.0)] == [
        "0%",
        "25%",
        "100%",
    ]


def test_score_differences_are_signed_with_a_true_minus():
    assert formatting.signed(0.031) == "+0.031"
    assert formatting.signed(-0.2) == "−0.200"
    assert formatting.signed(-0.05, percent=True) == "−5.0 pt"
    # Rounding noise is no difference at all, and reads as a plus.
    assert formatting.signed(-1e-15) == "+0.000"
    assert formatting.signed(None) == "–"


def test_exact_score_changes_have_four_places_and_a_plus_minus_for_none():
    assert formatting.signed_exact(0.0312) == "+0.0312"
    assert formatting.signed_exact(-0.2) == "−0.2000"
    assert formatting.signed_exact(0.00004) == "±0"


def test_pass_rates_show_their_counts():
    assert formatting.pass_rate(15, 44) == "34.1% (15/44)"
    assert formatting.pass_rate(0, 0) == "–"


def test_money_reads_in_dollars_and_an_unknown_cost_never_as_free():
    assert formatting.usd(1234.5) == "$1,234.50"
    assert formatting.usd(None) == "–"
    assert formatting.cost(2.311) == "$2.31"
    assert formatting.cost(None) == "unknown"
    assert [formatting.usd_tick(v) for v in (0, 2.5, 0.25, 150)] == ["$0", "$2.5", "$0.25", "$150"]


def test_counts_have_thousands_separators_and_a_plus_past_their_cap():
    assert formatting.count(812344) == "812,344"
    assert formatting.count(None) == "–"
    assert formatting.count_capped(10_000, True) == "10,000+"
    assert formatting.count_capped(9_999, False) == "9,999"
    assert str(Tally(10_000, True)) == "10,000+"


def test_plurals_add_an_s_except_for_one():
    assert formatting.plural(1, "task") == "1 task"
    assert formatting.plural(0, "task") == "0 tasks"
    assert formatting.plural(3, "missing verdict") == "3 missing verdicts"


@pytest.mark.parametrize(
    ("value", "shown"),
    [(999, "999"), (1234, "1.2k"), (5_242_880, "5.2M"), (None, "–")],
)
def test_lengths_in_characters_are_short(value, shown):
    assert formatting.chars(value) == shown


def test_the_event_renderer_and_the_template_filter_give_the_same_length():
    html = Template("{% load attempt_tags %}{{ n|chars }}").render(Context({"n": 5_242_880}))
    assert html == "5.2M"
    assert "(5.2M characters)" in event_html._Links("/x/", "").full(3, "Full output", 5_242_880)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(412.5, "6m 52s"), (11533, "3h 12m"), (42, "42s"), (None, "–")],
)
def test_durations_read_in_hours_minutes_and_seconds(seconds, shown):
    assert formatting.duration(seconds) == shown


def test_run_times_and_offsets():
    assert formatting.elapsed(12.34) == "12.3 s"
    assert formatting.elapsed(None) == "–"
    assert formatting.offset(65) == "+1:05"
    assert formatting.offset(3725.9) == "+1:02:05"


def test_sizes_give_the_exact_bytes_then_a_readable_figure():
    assert formatting.size(1) == "1 byte"
    assert formatting.size(1000) == "1,000 bytes"
    assert formatting.size(2_000_000) == "2,000,000 bytes (1.9 MiB)"


def test_both_template_libraries_give_each_format_one_name():
    context = Context({"s": 0.5731, "d": 412.5, "c": None, "n": 1234})
    for library in ("board", "attempt_tags"):
        html = Template(
            "{% load " + library + " %}{{ s|score }} {{ d|duration }} {{ c|cost }} {{ s|usd }}"
        ).render(context)
        assert html == "0.573 6m 52s unknown $0.57"
