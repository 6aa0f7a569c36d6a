"""The home page and the leaderboard (/ and /<bench>/)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Disagreement, Model
from leaderboard.render.svg import ChartPoint, pareto_frontier
from tests.factories import grow, h1_count

pytestmark = pytest.mark.django_db


def board_rows(html: str) -> list[str]:
    """Model slugs in table order."""
    return re.findall(r'<tr id="model-([^"]+)">', html)


def test_home_lists_each_bench_with_its_top_models_and_latest_batch(client, bench):
    html = client.get(reverse("home")).content.decode()
    assert h1_count(html) == 1
    assert f'href="{reverse("bench", args=[bench.slug])}"' in html
    top = Model.objects.filter(bench=bench).ranked().first()
    assert f'href="{reverse("model", args=[bench.slug, top.slug])}"' in html
    assert "Latest batch: 1" in html
    assert (
        f'<link rel="alternate" type="application/json" '
        f'href="{reverse("mirror-manifest", args=[bench.slug])}"'
    ) in html


def test_home_query_count_does_not_grow_with_models_or_tasks(
    client, bench, django_assert_num_queries
):
    # 1 benches with counts, 2 top models (one windowed query), 3 latest batch
    with django_assert_num_queries(3):
        client.get(reverse("home"))
    grow(bench)
    with django_assert_num_queries(3):
        client.get(reverse("home"))


def test_the_leaderboard_lists_models_in_rank_order_with_links_and_json_twin(client, bench):
    response = client.get(reverse("bench", args=[bench.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert h1_count(html) == 1
    assert 'class="page-board"' in html
    assert board_rows(html) == list(
        Model.objects.filter(bench=bench).ranked().values_list("slug", flat=True)
    )
    for model in Model.objects.filter(bench=bench):
        assert f'<a href="{reverse("model", args=[bench.slug, model.slug])}">' in html
        assert model.display_name in html
    assert f'href="{reverse("mirror-leaderboard", args=[bench.slug])}"' in html
    assert '<nav class="breadcrumbs"' in html


def test_the_rank_cell_shows_the_rank_range_and_says_what_it_means(client, bench):
    Model.objects.filter(bench=bench, rank=1).update(rank_low=1, rank_high=1)
    Model.objects.filter(bench=bench, rank=2).update(rank_low=2, rank_high=5)
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert '<span aria-hidden="true">1</span>' in html
    assert '<span aria-hidden="true">2–5</span>' in html
    assert "ranks 2 to 5 over 95% of resamples" in html
    assert ">Tie</abbr>" not in html and 'class="tie' not in html
    assert 'href="/about/#ranks"'.replace("/about", f"/{bench.slug}/about") in html


def test_score_cell_shows_the_decimal_score_and_its_interval_whisker(client, bench):
    model = Model.objects.filter(bench=bench).ranked().first()
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert f"{model.score:.3f}" in html
    assert f"95% interval {model.ci_low:.3f}–{model.ci_high:.3f}" in html
    assert html.count('<svg class="whisker"') == Model.objects.filter(bench=bench).count()


def test_pass_fail_benches_show_the_pass_rate_with_its_counts(client, bench):
    type(bench).objects.filter(pk=bench.pk).update(scoring_rule="pass-fail")
    Model.objects.filter(bench=bench, rank=1).update(passed=15, tasks=44, trials=44, score=15 / 44)
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert "34.1% (15/44)" in html
    assert "Pass rate" in html


def test_one_column_per_surface_sorts_by_that_surface(client, bench):
    url = reverse("bench", args=[bench.slug])
    html = client.get(url, {"sort": "-surface:payments"}).content.decode()
    models = Model.objects.filter(bench=bench)
    expected = sorted(
        models, key=lambda m: (m.by_surface["payments"]["score"], -m.rank, m.slug), reverse=True
    )
    assert board_rows(html) == [m.slug for m in expected]
    for surface in ("calendar", "crm", "identity", "messaging", "storage"):
        assert f"?sort=-surface%3A{surface}" in html
    # The sorted column's header offers the reverse order next.
    assert 'aria-sort="descending"><a href="?sort=surface%3Apayments"' in html


@pytest.mark.parametrize(
    ("sort", "key", "reverse_order"),
    [
        ("harness", lambda m: (m.harness, m.rank, m.slug), False),
        ("-score", lambda m: (m.score, -m.rank, m.slug), True),
        ("model", lambda m: (m.display_name.casefold(), m.slug), False),
        ("-flagged", lambda m: (m.flagged, m.rank, m.slug), True),
    ],
)
def test_every_column_sorts_through_the_query_string(client, bench, sort, key, reverse_order):
    html = client.get(reverse("bench", args=[bench.slug]), {"sort": sort}).content.decode()
    expected = sorted(Model.objects.filter(bench=bench), key=key, reverse=reverse_order)
    assert board_rows(html) == [m.slug for m in expected]


def test_an_unknown_sort_falls_back_to_rank(client, bench):
    html = client.get(reverse("bench", args=[bench.slug]), {"sort": "nonsense"}).content.decode()
    assert board_rows(html) == list(
        Model.objects.filter(bench=bench).ranked().values_list("slug", flat=True)
    )


def test_harness_and_provider_filters_keep_only_matching_models(client, bench):
    url = reverse("bench", args=[bench.slug])
    html = client.get(url, {"harness": "claude-code"}).content.decode()
    assert board_rows(html) == list(
        Model.objects.filter(bench=bench, harness="claude-code")
        .ranked()
        .values_list("slug", flat=True)
    )
    html = client.get(url, {"harness": "opencode", "provider": "google"}).content.decode()
    assert board_rows(html) == ["gemini-4-pro-opencode"]
    html = client.get(url, {"provider": "nobody"}).content.decode()
    assert board_rows(html) == []
    assert "No model matches these filters." in html


def _expected_flag_title(bench, model) -> str:
    verdicts = Attempt.objects.filter(model=model, has_detail=True, verdict__isnull=True).count()
    attempts = bench.tasks.count() - Attempt.objects.filter(model=model).count()
    parts = []
    if verdicts:
        parts.append(f"{verdicts} missing verdict{'s' if verdicts > 1 else ''}")
    if attempts:
        parts.append(f"{attempts} missing attempt{'s' if attempts > 1 else ''}")
    return f'title="{", ".join(parts)}">{verdicts + attempts}<'


def test_flagged_count_says_why_in_its_tooltip(client, bench):
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    flagged = list(Model.objects.filter(bench=bench, flagged__gt=0))
    # The sample release flags models for missing verdicts and missing attempts.
    assert {"missing verdict", "missing attempt"} <= {
        reason
        for model in flagged
        for reason in ("missing verdict", "missing attempt")
        if reason in _expected_flag_title(bench, model)
    }
    for model in flagged:
        row = html[html.index(f'<tr id="model-{model.slug}">') :]
        row = row[: row.index("</tr>")]
        assert _expected_flag_title(bench, model) in row


def test_disagreeing_published_figures_are_noted_on_the_page(client, bench):
    url = reverse("bench", args=[bench.slug])
    assert "Published and recomputed figures disagree" not in client.get(url).content.decode()
    model = Model.objects.get(bench=bench, slug="claude-opus-5-5-high")
    Disagreement.objects.create(
        bench=bench,
        model=model,
        source="leaderboard.json",
        field="score",
        published=0.9,
        recomputed=model.score,
    )
    task = bench.tasks.filter(batch__isnull=False).first()
    Disagreement.objects.create(
        bench=bench, model=model, task=task, source="summary.json", published=1.0, recomputed=0.0
    )
    html = client.get(url).content.decode()
    assert "Published and recomputed figures disagree</strong> for 1 model (1 attempt)" in html
    row = html[html.index('<tr id="model-claude-opus-5-5-high">') :]
    row = row[: row.index("</tr>")]
    assert "leaderboard.json score: published 0.9" in row
    assert "≠ published" in row


def costed_models(bench) -> list[Model]:
    """Models with at least one released attempt that reports a cost."""
    ids = Attempt.objects.filter(bench=bench, has_detail=True, cost_usd__gt=0).values("model_id")
    return list(Model.objects.filter(bench=bench, pk__in=ids))


def test_the_chart_draws_every_model_with_a_cost_and_marks_the_pareto_frontier(client, bench):
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    models = costed_models(bench)
    assert 0 < len(models) < Model.objects.filter(bench=bench).count()
    assert html.count('<circle class="dot') == len(models)
    frontier = pareto_frontier(
        [ChartPoint(m.slug, m.display_name, m.cost_usd, m.score, "") for m in models]
    )
    assert html.count('<circle class="dot on-frontier"') == len(frontier)
    assert ('<polyline class="frontier"' in html) == (len(frontier) > 1)


def test_a_model_without_cost_data_shows_unknown_and_stays_off_the_chart(client, bench):
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    costed = {m.pk for m in costed_models(bench)}
    uncosted = [m for m in Model.objects.filter(bench=bench) if m.pk not in costed]
    assert uncosted
    for model in uncosted:
        row = html[html.index(f'<tr id="model-{model.slug}">') :]
        row = row[: row.index("</tr>")]
        assert ">unknown</td>" in row
        assert "$0.00" not in row
        # Not a dot on the chart: its name appears only in the "not plotted" note.
        chart = html[
            html.index('<svg class="chart score-cost"') : html.index(
                "</svg>", html.index('<svg class="chart score-cost"')
            )
        ]
        assert model.display_name not in chart
    assert "Not plotted, cost unknown:" in html


@pytest.mark.parametrize("sort", ["cost", "-cost"])
def test_sorting_by_cost_puts_unknown_costs_last_in_both_directions(client, bench, sort):
    html = client.get(reverse("bench", args=[bench.slug]), {"sort": sort}).content.decode()
    costed = costed_models(bench)
    known = sorted(costed, key=lambda m: (m.cost_usd, m.rank, m.slug), reverse=sort == "-cost")
    unknown = [m for m in Model.objects.filter(bench=bench).ranked() if m not in costed]
    assert known and unknown
    assert board_rows(html) == [m.slug for m in known + unknown]


def test_frontier_labels_never_overlap_each_other_or_leave_the_plot():
    from leaderboard.render import svg

    # Ten models crowded into one corner: labels must move or be left out.
    points = [
        ChartPoint(f"m{i}", f"Model with a long name {i}", 1.0 + i * 0.05, 0.1 + i * 0.08, "")
        for i in range(10)
    ]
    html = svg.score_cost_chart(points)
    labels = re.findall(
        r'<text class="dot-label" x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]+)<', html
    )
    assert labels
    boxes = []
    for x, y, anchor, text in labels:
        x, y, width = float(x), float(y), svg._CHAR_W * len(text)
        left = x if anchor == "start" else x - width
        boxes.append((left, y - svg._LABEL_H + 3, left + width, y + 3))
    for i, a in enumerate(boxes):
        assert a[0] >= svg._LEFT and a[2] <= svg._W
        for b in boxes[i + 1 :]:
            assert not svg._overlap(a, b)


def test_pareto_frontier_keeps_models_no_other_beats_on_cost_and_score():
    points = [
        ChartPoint("cheap-weak", "", 1.0, 0.2, ""),
        ChartPoint("cheap-better", "", 1.0, 0.3, ""),
        ChartPoint("mid", "", 5.0, 0.5, ""),
        ChartPoint("dominated", "", 6.0, 0.4, ""),
        ChartPoint("tie-costlier", "", 7.0, 0.5, ""),
        ChartPoint("best", "", 9.0, 0.8, ""),
    ]
    assert [p.key for p in pareto_frontier(points)] == ["cheap-better", "mid", "best"]


def test_leaderboard_query_count_does_not_grow_with_models_or_tasks(
    client, bench, django_assert_num_queries
):
    url = reverse("bench", args=[bench.slug])
    # 1 bench, 2 models, 3 harness/provider facets, 4 each model's last
    # attempt finish (its results date), 5 surfaces, 6 flag reasons (grouped
    # attempts), 7 models with a known cost, 8 model-level disagreements,
    # 9 attempt disagreements
    with django_assert_num_queries(9):
        client.get(url, {"sort": "-surface:crm"})
    grow(bench, models=4, tasks=6)
    with django_assert_num_queries(9):
        response = client.get(url, {"sort": "-surface:crm"})
    assert len(board_rows(response.content.decode())) == 9


def test_an_unknown_bench_answers_404(client, db):
    assert client.get(reverse("bench", args=["no-such-bench"])).status_code == 404


def test_reward_threshold_benches_show_the_pass_rate_with_its_counts_on_board_and_matrix(
    client, bench
):
    type(bench).objects.filter(pk=bench.pk).update(scoring_rule="reward-threshold")
    Model.objects.filter(bench=bench, rank=1).update(passed=15, tasks=44, trials=44, score=15 / 44)
    for name in ("bench", "matrix"):
        html = client.get(reverse(name, args=[bench.slug])).content.decode()
        assert "34.1% (15/44)" in html, name
