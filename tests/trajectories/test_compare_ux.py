"""The compare page's reading aids: patches before their diff, no self-compare,
a telling default pair, and statistics in the site's number formats."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Task
from leaderboard.views.task import default_pair

pytestmark = pytest.mark.django_db


def released_pair(bench):
    task = Task.objects.filter(bench=bench, batch__live=True).order_by("slug").first()
    a, b = Attempt.objects.filter(task=task, has_detail=True).select_related("model")[:2]
    return task, a, b


def test_a_model_compared_with_itself_goes_back_to_the_task_form(client, bench):
    task, a, _ = released_pair(bench)
    response = client.get(
        reverse("compare", args=[bench.slug, task.slug, a.model.slug, a.model.slug])
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("task", args=[bench.slug, task.slug]) + "#compare"
    picked = client.get(
        reverse("task-compare-pick", args=[bench.slug, task.slug]),
        {"a": a.model.slug, "b": a.model.slug},
    )
    assert picked["Location"].endswith("#compare")


def test_the_two_patches_come_before_the_diff_between_them(client, bench):
    task, a, b = released_pair(bench)
    html = client.get(
        reverse("compare", args=[bench.slug, task.slug, a.model.slug, b.model.slug])
    ).content.decode()
    assert html.index("<h3>Side by side</h3>") < html.index("<h3>The diff between the two patches")


def test_statistics_use_the_site_number_formats(client, bench):
    task, a, b = released_pair(bench)
    html = client.get(
        reverse("compare", args=[bench.slug, task.slug, a.model.slug, b.model.slug])
    ).content.decode()
    totals = html[
        html.index("<caption>Totals</caption>") : html.index(
            "</table>", html.index("<caption>Totals</caption>")
        )
    ]
    assert f'<td class="num">${a.cost_usd:,.2f}</td>' in totals
    assert f'<td class="num">{a.input_tokens:,}</td>' in totals
    assert "(USD)" not in totals and "(s)" not in totals


def test_a_row_is_marked_only_when_the_shown_values_differ():
    from trajectories.comparison import StatRow
    from trajectories.views.compare import shown

    rows = shown(
        [StatRow("cost", 4.3401, 4.3399), StatRow("events", 10, 12)],
        formats={"cost": lambda v: f"${v:,.2f}"},
    )
    assert [(r.a, r.b, r.differs) for r in rows] == [("$4.34", "$4.34", False), ("10", "12", True)]


def test_the_task_page_preselects_a_passing_and_a_failing_model(client, bench):
    for task in Task.objects.filter(bench=bench, batch__live=True):
        attempts = list(
            Attempt.objects.filter(task=task, has_detail=True)
            .select_related("model")
            .order_by("model__rank", "model__slug")
        )
        a, b = default_pair(attempts)
        scores = {x.model.slug: x.score for x in attempts}
        if any(s >= 1 for s in scores.values()) and any(s < 1 for s in scores.values()):
            assert scores[a] >= 1 and scores[b] < 1
            html = client.get(reverse("task", args=[bench.slug, task.slug])).content.decode()
            form = html[html.index('id="compare"') :]
            assert re.search(rf'<select name="a">.*?<option value="{a}" selected>', form, re.S)
            assert re.search(rf'<select name="b">.*?<option value="{b}" selected>', form, re.S)
            return
    pytest.skip("the small release has no task with both a pass and a fail")
