"""/<bench>/tasks/ (the tasks index) and /<bench>/about/ (the methodology)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Task
from tests.factories import h1_count

pytestmark = pytest.mark.django_db


def index_slugs(html: str) -> list[str]:
    return re.findall(r'<code class="subtle">([^<]+)</code>', html)


def test_the_tasks_index_lists_every_public_task_and_links_only_released_ones(client, bench):
    html = client.get(reverse("tasks", args=[bench.slug])).content.decode()
    assert h1_count(html) == 1
    assert sorted(index_slugs(html)) == sorted(
        Task.objects.filter(bench=bench).values_list("slug", flat=True)
    )
    for task in Task.objects.filter(bench=bench).select_related("batch"):
        link = f'href="{reverse("task", args=[bench.slug, task.slug])}"'
        assert (link in html) == bool(task.batch and task.batch.live), task.slug


def test_the_tasks_index_filters_by_surface_state_and_text_from_the_query_string(client, bench):
    url = reverse("tasks", args=[bench.slug])
    surface = Task.objects.filter(bench=bench).order_by("slug").first().surface
    html = client.get(url, {"surface": surface, "state": "released"}).content.decode()
    expected = Task.objects.filter(bench=bench, surface=surface, batch__live=True)
    assert sorted(index_slugs(html)) == sorted(expected.values_list("slug", flat=True))
    one = expected.first() or Task.objects.filter(bench=bench).first()
    html = client.get(url, {"q": one.title.upper()}).content.decode()
    assert one.slug in index_slugs(html)


def test_the_tasks_index_sorts_by_mean_score_both_ways(client, bench):
    url = reverse("tasks", args=[bench.slug])
    ordered = list(
        Task.objects.filter(bench=bench)
        .order_by("mean_score", "slug")
        .values_list("slug", flat=True)
    )
    assert index_slugs(client.get(url, {"sort": "score"}).content.decode()) == ordered
    assert index_slugs(client.get(url, {"sort": "-score"}).content.decode()) == ordered[::-1]


def test_the_tasks_csv_and_json_equal_the_filtered_table(client, bench):
    url = reverse("tasks", args=[bench.slug])
    query = {"state": "unreleased", "sort": "title"}
    shown = index_slugs(client.get(url, query).content.decode())
    assert shown
    rows = list(
        csv.DictReader(io.StringIO(client.get(url, {**query, "format": "csv"}).content.decode()))
    )
    assert [r["task"] for r in rows] == shown
    assert {r["state"] for r in rows} == {"unreleased"}
    data = json.loads(client.get(url, {**query, "format": "json"}).content)
    assert [r["task"] for r in data] == shown
    # The page links to both downloads with its own filters kept.
    html = client.get(url, query).content.decode()
    assert 'href="?state=unreleased&amp;sort=title&amp;format=csv"' in html


def test_the_task_breadcrumb_tasks_leads_to_the_tasks_index(client, bench):
    task = Task.objects.filter(bench=bench, batch__live=True).first()
    html = client.get(reverse("task", args=[bench.slug, task.slug])).content.decode()
    crumbs = html[html.index('<nav class="breadcrumbs"') :]
    assert f'<a href="{reverse("tasks", args=[bench.slug])}">Tasks</a>' in crumbs


def test_the_about_page_explains_the_rule_with_an_attempt_of_this_bench(client, bench):
    html = client.get(reverse("about", args=[bench.slug])).content.decode()
    assert h1_count(html) == 1
    assert bench.scoring_rule in html
    assert f"Revision <strong>{bench.revision}</strong>" in html
    link = re.search(r'href="/[^"]+/attempts/([^/]+)/([^/]+)/">See the attempt', html)
    attempt = Attempt.objects.get(bench=bench, model__slug=link[1], task__slug=link[2])
    checks = list(attempt.check_results.all())
    # The example is the gate at work: a mandatory check failed beside passing ones.
    assert attempt.score == 0
    assert any(c.mandatory and not c.passed for c in checks)
    assert any(c.passed for c in checks)
    for state in ("Released", "Staged", "Unreleased"):
        assert f"<strong>{state}</strong>" in html
    released = Task.objects.filter(bench=bench, batch__live=True).count()
    assert f"<strong>Released</strong> ({released})" in html
    for batch in bench.batches.all():
        assert batch.released_at in html
    assert "missing-verdict" in html and "bootstrap" in html


def test_the_scoring_rule_name_links_to_the_about_page(client, bench):
    about = reverse("about", args=[bench.slug]) + "#scoring"
    for address in (reverse("home"), reverse("bench", args=[bench.slug])):
        assert (
            f'<a href="{about}"><code>{bench.scoring_rule}</code></a>'
            in client.get(address).content.decode()
        )


def test_the_about_page_explains_rank_ranges_and_the_leaderboard_links_there(client, bench):
    from leaderboard import paired

    about = reverse("about", args=[bench.slug])
    html = client.get(about).content.decode()
    section = html.split('<h2 id="ranks">', 1)[1].split("</section>", 1)[0]
    assert "paired bootstrap over tasks" in section
    tasks = Task.objects.filter(bench=bench).count()
    assert f"the {tasks} tasks are drawn with replacement" in section
    assert f"{paired.RESAMPLES:,} times" in section
    assert f"middle {round(paired.LEVEL * 100)}%" in section
    board = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert f'<a href="{about}#ranks">How ranks are found</a>' in board
