"""Paired statistics on pages: the leaderboard's tie groups and the versus page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Model, Task
from leaderboard.services import bench_recompute
from tests.factories import grow, h1_count

pytestmark = pytest.mark.django_db


def ranked(bench) -> list[Model]:
    return list(Model.objects.filter(bench=bench).ranked())


def scores_of(bench, model) -> list[float]:
    found = dict(Attempt.objects.filter(model=model).values_list("task_id", "score"))
    return [
        found.get(pk, 0.0) for pk in bench.tasks.order_by("position").values_list("pk", flat=True)
    ]


def test_import_stores_rank_ranges_and_intervals_around_each_score(bench):
    models = ranked(bench)
    for model in models:
        assert model.rank_low <= model.rank_high
        assert model.ci_low <= model.score <= model.ci_high
    assert models[0].rank_low == 1


def test_a_model_copied_from_another_shares_its_rank_range(bench):
    top = ranked(bench)[0]
    twin = Model.objects.create(
        bench=bench, slug="twin", display_name="Twin", harness=top.harness,
        provider=top.provider, position=99,
    )  # fmt: skip
    Attempt.objects.bulk_create(
        Attempt(bench=bench, model=twin, task_id=a.task_id, score=a.score, flags=a.flags)
        for a in Attempt.objects.filter(model=top)
    )
    bench_recompute(bench=bench, published_rows={})
    top.refresh_from_db()
    twin.refresh_from_db()
    assert (twin.rank_low, twin.rank_high) == (top.rank_low, top.rank_high)
    assert (twin.ci_low, twin.ci_high) == (top.ci_low, top.ci_high)
    assert twin.score == top.score


def test_the_leaderboard_has_no_tie_column(client, bench):
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert ">Tie</abbr>" not in html and "tie-band" not in html


def test_the_api_keeps_the_tie_fields_as_null_and_adds_rank_ranges(client, bench):
    rows = client.get(reverse("api-model-list"), {"bench": bench.slug}).json()["results"]
    assert [(r["rank_low"], r["rank_high"]) for r in rows] == [
        (m.rank_low, m.rank_high) for m in ranked(bench)
    ]
    for row in rows:
        assert row["tie_group"] is None
        assert row["next_gap_low"] is None and row["next_gap_high"] is None
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    fields = schema["components"]["schemas"]["Model"]["properties"]
    assert fields["tie_group"]["deprecated"] is True
    assert "deprecated" not in fields["rank_low"]


def test_the_mirror_leaderboard_adds_rank_ranges_and_no_tie_group(client, bench):
    doc = client.get(reverse("mirror-leaderboard", args=[bench.slug])).json()
    assert "tie_group" not in str(doc)
    stored = {m.slug: (m.rank_low, m.rank_high) for m in ranked(bench)}
    assert {r["model"]: (r["rank_low"], r["rank_high"]) for r in doc["rows"]} == stored


def test_the_versus_page_shows_the_paired_difference_and_where_they_differ(client, bench):
    a, b = ranked(bench)[:2]
    url = reverse("versus", args=[bench.slug, a.slug, b.slug])
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200 and h1_count(html) == 1
    doc = client.get(url, {"format": "json"}).json()
    assert doc["mean_difference"] == pytest.approx(a.score - b.score)
    assert doc["interval"]["low"] <= doc["mean_difference"] <= doc["interval"]["high"]
    assert doc["wins"] + doc["ties"] + doc["losses"] == bench.tasks.count()
    assert sum(s["tasks"] for s in doc["surfaces"]) == bench.tasks.count()
    diffs = [abs(t["difference"]) for t in doc["differ_most"]]
    assert diffs == sorted(diffs, reverse=True)
    # The tasks with both attempts released link to the one-task compare page.
    comparable = [
        t for t in doc["differ_most"]
        if Attempt.objects.filter(task__bench=bench, task__slug=t["task"], has_detail=True,
                                  task__batch__live=True, model__in=[a, b]).count() == 2
    ]  # fmt: skip
    for t in comparable:
        assert reverse("compare", args=[bench.slug, t["task"], a.slug, b.slug]) in html
    assert doc["mcnemar"] is None  # not a pass-fail bench


def test_the_versus_page_never_links_to_unreleased_detail(client, bench):
    a, b = ranked(bench)[:2]
    html = client.get(reverse("versus", args=[bench.slug, a.slug, b.slug])).content.decode()
    for task in Task.objects.filter(bench=bench, batch__isnull=True):
        assert reverse("task", args=[bench.slug, task.slug]) not in html


def test_the_versus_page_runs_mcnemar_on_pass_fail_benches(client, bench):
    bench.scoring_rule = "pass-fail"
    bench.save()
    # A pass-fail bench scores 0 or 1: McNemar's test is the sign test on such tasks.
    Attempt.all_trials.filter(bench=bench, score__lt=1).update(score=0.0)
    a, b = ranked(bench)[:2]
    doc = client.get(
        reverse("versus", args=[bench.slug, a.slug, b.slug]), {"format": "json"}
    ).json()
    passed_a = {
        t for t, s in Attempt.objects.filter(model=a).values_list("task_id", "score") if s >= 1
    }
    passed_b = {
        t for t, s in Attempt.objects.filter(model=b).values_list("task_id", "score") if s >= 1
    }
    assert doc["mcnemar"]["only_a"] == len(passed_a - passed_b)
    assert doc["mcnemar"]["only_b"] == len(passed_b - passed_a)
    assert 0 < doc["mcnemar"]["p_value"] <= 1


def test_the_versus_page_answers_404_for_unknown_or_identical_models(client, bench):
    a = ranked(bench)[0]
    assert client.get(reverse("versus", args=[bench.slug, a.slug, "nope"])).status_code == 404
    assert client.get(reverse("versus", args=[bench.slug, a.slug, a.slug])).status_code == 404


def test_the_model_page_leads_to_the_versus_page(client, bench):
    a, b = ranked(bench)[:2]
    html = client.get(reverse("model", args=[bench.slug, a.slug])).content.decode()
    pick = reverse("versus-pick", args=[bench.slug, a.slug])
    assert f'href="{pick}"' in html
    assert reverse("versus", args=[bench.slug, a.slug, b.slug]) in client.get(pick).content.decode()
    assert client.get(pick, {"b": b.slug}).url == reverse(
        "versus", args=[bench.slug, a.slug, b.slug]
    )


def test_versus_query_count_does_not_grow_with_tasks(client, bench, django_assert_num_queries):
    a, b = ranked(bench)[:2]
    url = reverse("versus", args=[bench.slug, a.slug, b.slug])
    # 1 bench, 2 the two models, 3 visible tasks, 4 every task, 5 both models' attempts
    with django_assert_num_queries(5):
        client.get(url)
    grow(bench, models=2, tasks=8)
    with django_assert_num_queries(5):
        response = client.get(url)
    assert f"the same {bench.tasks.count()} public tasks" in response.content.decode()
