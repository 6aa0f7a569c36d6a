"""The search page, its downloads and /api/search/."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from leaderboard.models import Batch, Task
from tests.search.helpers import search_url


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


@pytest.mark.django_db
def test_results_are_grouped_by_attempt_and_link_to_each_event(client, planted):
    bench, first, second = planted
    page = client.get(search_url(bench.slug, "zebrafish")).content.decode()
    assert "3 matching events in 2 attempts" in page
    for model, task in (first, second):
        assert f"/{bench.slug}/attempts/{model}/{task}/#e" in page
    assert "<mark>zebrafish</mark>" in page


@pytest.mark.django_db
def test_hostile_text_is_escaped_and_highlighted_only_outside_markup(client, planted):
    bench, _, _ = planted
    page = client.get(search_url(bench.slug, "quokka script")).content.decode()
    assert "<script>alert" not in page
    assert "&lt;<mark>script</mark>&gt;alert(&#x27;<mark>quokka</mark>&#x27;)" in page
    # A query for an entity's name must not split the entity.
    page = client.get(search_url(bench.slug, "quokka amp lt")).content.decode()
    assert "&<mark>" not in page and "&amp;" in page


@pytest.mark.django_db
def test_a_facet_link_narrows_the_results(client, planted):
    bench, first, second = planted
    page = client.get(search_url(bench.slug, "zebrafish")).content.decode()
    href = f"?q=zebrafish&amp;model={second[0]}"
    assert href in page
    narrowed = client.get(search_url(bench.slug, "zebrafish", model=second[0])).content.decode()
    assert "1 matching event in 1 attempt" in narrowed


@pytest.mark.django_db
def test_staged_tasks_are_searched_for_staff_only_and_unreleased_never(client, planted):
    bench, first, _ = planted
    task = Task.objects.get(bench=bench, slug=first[1])
    Batch.objects.filter(pk=task.batch_id).update(live=False)
    staged_model = first[0]
    anonymous = client.get(search_url(bench.slug, "zebrafish")).content.decode()
    assert f"/attempts/{staged_model}/{first[1]}/" not in anonymous
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    client.force_login(staff)
    assert (
        f"/attempts/{staged_model}/{first[1]}/"
        in client.get(search_url(bench.slug, "zebrafish")).content.decode()
    )
    Task.objects.filter(pk=task.pk).update(batch=None)
    assert (
        f"/attempts/{staged_model}/{first[1]}/"
        not in client.get(search_url(bench.slug, "zebrafish")).content.decode()
    )


@pytest.mark.django_db
def test_csv_and_json_downloads_hold_every_match(client, planted):
    bench, first, second = planted
    rows = list(
        csv.DictReader(
            io.StringIO(body(client.get(search_url(bench.slug, "zebrafish", format="csv"))))
        )
    )
    assert len(rows) == 3
    assert {r["model"] for r in rows} == {first[0], second[0]}
    assert all(r["url"].endswith(f"#e{r['index']}") for r in rows)
    doc = json.loads(body(client.get(search_url(bench.slug, "zebrafish", format="json"))))
    assert [r["index"] for r in doc["rows"]] == [int(r["index"]) for r in rows]
    assert doc["query"]["words"] == ["zebrafish"]


@pytest.mark.django_db
def test_the_api_answers_the_same_search(client, planted):
    bench, first, second = planted
    url = reverse("api-search") + f"?bench={bench.slug}&q=zebrafish&tool=bash"
    doc = client.get(url).json()
    assert doc["total"] == {"value": 2, "capped": False}
    assert {r["model"] for r in doc["results"]} == {first[0], second[0]}
    assert all(m["url"].endswith(f"#e{m['index']}") for r in doc["results"] for m in r["matches"])
    assert {f["value"]: f["count"] for f in doc["facets"]["tool"]} == {"bash": 2}


@pytest.mark.django_db
def test_the_api_asks_for_a_known_bench(client, planted):
    missing = client.get(reverse("api-search") + "?q=x")
    assert missing.status_code == 400 and "bench" in missing.json()["error"]["parameters"]
    unknown = client.get(reverse("api-search") + "?bench=nope&q=x")
    assert unknown.status_code == 400


@pytest.mark.django_db
def test_the_search_page_answers_in_a_fixed_number_of_queries(
    client, planted, django_assert_num_queries
):
    bench, _, _ = planted
    client.get(search_url(bench.slug, "zebrafish"))  # warm caches (content types, …)
    # 1 bench; 2 the attempts in scope; 3 the first matches (attempt, tool:
    # totals, facets and, below the cap, every attempt holding one); 4 the
    # page's first matches; 5 their snippets; 6 the attempts' models and
    # tasks; 7, 8 the models and tasks of the form controls.
    with django_assert_num_queries(8):
        client.get(search_url(bench.slug, "zebrafish"))
    with django_assert_num_queries(8):
        client.get(search_url(bench.slug, "the"))


@pytest.mark.django_db
def test_past_the_count_cap_the_page_takes_one_more_query(
    client, planted, settings, django_assert_num_queries
):
    bench, _, _ = planted
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_count_cap": 5}
    client.get(search_url(bench.slug, "the"))
    # As above, with the page's attempts found attempt by attempt (4).
    with django_assert_num_queries(9):
        page = client.get(search_url(bench.slug, "the")).content.decode()
    assert "5+ matching events" in page
