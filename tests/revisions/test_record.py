"""A revision per change of the public board: recorded by the import in its
transaction, never for a re-import or a refused import, addressed by the
release's revision string, and holding exactly what the live files served."""

from __future__ import annotations

import pytest

from tests.revisions.releases import ADDED, REMOVED

pytestmark = pytest.mark.django_db


def test_importing_a_then_b_records_one_revision_each_named_by_the_release_string(a_then_b):
    bench, _, _ = a_then_b
    revisions = list(bench.revisions.newest_first())
    assert [(r.slug, r.number, r.release_revision, r.cause) for r in revisions] == [
        ("02", 2, "02", "import"),
        ("01", 1, "01", "import"),
    ]


def test_a_revision_holds_the_bytes_the_live_files_served_at_that_moment(a_then_b, client):
    bench, before, _ = a_then_b
    a = bench.revisions.get(slug="01")
    assert a.leaderboard_json.encode() == before["live_leaderboard"]
    assert a.matrix_json.encode() == before["live_matrix"]
    b = bench.revisions.get(slug="02")
    assert (
        b.leaderboard_json.encode() == client.get(f"/data/v1/{bench.slug}/leaderboard.json").content
    )
    assert b.matrix_json.encode() == client.get(f"/data/v1/{bench.slug}/matrix.json").content


def test_b_records_exactly_what_changed(a_then_b):
    bench, _, _ = a_then_b
    changes = bench.revisions.get(slug="02").changes
    assert [m["model"] for m in changes["models_added"]] == [ADDED]
    assert [m["model"] for m in changes["models_removed"]] == [REMOVED]
    assert {m["model"]: (m["score_from"], m["score_to"]) for m in changes["moved"]} == {
        "gpt-6-astra-high": (0.5913265306122449, 0.6270408163265306),
        "claude-sonnet-5-5": (0.39013605442176874, 0.3782312925170069),
    }
    assert changes["tasks_released"] == ["currency-rounding-fix", "stripe-dispute-slack-alert"]
    assert changes["tasks_withdrawn"] == []
    assert (changes["revision_from"], changes["revision_to"]) == ("01", "02")


def test_the_page_figures_keep_counts_and_interval(a_then_b):
    bench, _, _ = a_then_b
    figures = bench.revisions.get(slug="02").figures
    model = bench.models.get(slug=ADDED)
    assert figures[ADDED] == {
        "passed": model.passed,
        "trials": model.trials,
        "ci_low": model.ci_low,
        "ci_high": model.ci_high,
        "run_cost_usd": model.run_cost_usd,
    }
