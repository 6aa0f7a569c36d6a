"""What one search may ask and take: query limits, a time bound, paging, capped counts."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.urls import reverse

from tests.search.helpers import search_url
from trajectories.models import Event
from trajectories.search import bounded
from trajectories.search.bounded import SearchTooBroad, time_bound
from trajectories.search.engine import matching_events, search
from trajectories.search.query import parse

# The red team's query: one word and 300 exclusions (2.4 KB).
STALLING = "file " + " ".join(f"-x{i}" for i in range(300))
# A statement that runs for seconds on either database unless it is stopped.
SLOW_SQL = {
    "postgresql": "SELECT pg_sleep(5)",
    "sqlite": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000000)"
    " SELECT count(*) FROM n",
}


def _api(bench: str, q: str, **params):
    return reverse("api-search"), {"bench": bench, "q": q, **params}


@pytest.mark.django_db
def test_a_query_past_the_limits_is_refused_with_a_reason_on_the_page_and_the_api(client, planted):
    bench, _, _ = planted
    page = client.get(search_url(bench.slug, STALLING))
    assert page.status_code == 400
    assert "at most 500 are searched" in page.content.decode()
    url, params = _api(bench.slug, STALLING)
    answer = client.get(url, params)
    assert answer.status_code == 400
    assert "at most 500" in answer.json()["error"]["parameters"]["q"][0]


@pytest.mark.django_db
def test_too_many_terms_or_exclusions_are_refused(client, planted, settings):
    bench, _, _ = planted
    limits = settings.BENCHVIEW_LIMITS
    excluding = "zebrafish " + " ".join(f"-w{i}" for i in range(limits["search_max_excluded"] + 1))
    answer = client.get(*_api(bench.slug, excluding))
    assert answer.status_code == 400
    message_ = answer.json()["error"]["parameters"]["q"][0]
    assert f"at most {limits['search_max_excluded']} can be excluded" in message_
    words = " ".join(f"w{i}" for i in range(limits["search_max_terms"] + 1))
    page = client.get(search_url(bench.slug, words))
    assert page.status_code == 400
    assert f"at most {limits['search_max_terms']} are searched at once" in page.content.decode()
    # At the limits, the query runs.
    within = "zebrafish " + " ".join(f"-w{i}" for i in range(limits["search_max_excluded"]))
    assert client.get(*_api(bench.slug, within)).json()["total"]["value"] == 3


@pytest.mark.django_db(transaction=True)
def test_a_statement_past_the_time_bound_is_stopped_and_refused(settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_time_limit_ms": 200}
    started = time.monotonic()
    with (
        pytest.raises(SearchTooBroad, match="too broad"),
        time_bound(),
        connection.cursor() as cursor,
    ):
        cursor.execute(SLOW_SQL[connection.vendor])
    assert time.monotonic() - started < 2
    # The connection is usable after, with no bound left on it.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if connection.vendor == "postgresql":
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "0"


@pytest.mark.django_db(transaction=True)
def test_a_search_past_the_time_bound_answers_too_broad_not_500(
    client, planted, settings, monkeypatch
):
    bench, _, _ = planted
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_time_limit_ms": 0}
    monkeypatch.setattr(bounded, "SQLITE_STEPS", 1)
    page = client.get(search_url(bench.slug, "the"))
    assert page.status_code == 400
    assert "too broad" in page.content.decode() and "Narrow it" in page.content.decode()
    answer = client.get(*_api(bench.slug, "the"))
    assert answer.status_code == 400
    assert "too broad" in answer.json()["error"]["parameters"]["q"][0]
    download = client.get(search_url(bench.slug, "the", format="csv"))
    assert download.status_code == 400


@pytest.mark.django_db
def test_an_import_leaves_fresh_planner_statistics(planted):
    events = Event.objects.count()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'trajectories_event'")
            assert cursor.fetchone()[0] == events
        else:
            cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = 'trajectories_event'")
            rows = [row[0] for row in cursor.fetchall()]
            assert rows and all(int(stat.split()[0]) > 0 for stat in rows)


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["1000000000000000000", "2"])
def test_a_page_past_the_last_answers_404(client, planted, page):
    bench, _, _ = planted
    assert client.get(search_url(bench.slug, "zebrafish", page=page)).status_code == 404
    answer = client.get(*_api(bench.slug, "zebrafish", page=page))
    assert answer.status_code == 404 and answer.json()["error"]["status"] == 404
    assert client.get(search_url(bench.slug, "zebrafish", page="1")).status_code == 200
    assert client.get(search_url(bench.slug, "", page=page)).status_code == 404


@pytest.mark.django_db
def test_past_the_cap_a_huge_page_answers_404(client, planted, settings):
    bench, _, _ = planted
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_count_cap": 5}
    huge = "1000000000000000000"
    assert client.get(search_url(bench.slug, "the", page=huge)).status_code == 404
    assert client.get(*_api(bench.slug, "the", page=huge)).status_code == 404


@pytest.mark.django_db
def test_capped_counts_are_those_of_the_first_matches_in_attempt_order(planted, settings):
    """Past the cap every database counts the same matches: the first ones in
    (attempt, index) order, not the first the database meets. Events added
    last to the first attempt are stored last, so a database reading in
    storage order meets another attempt's matches before them."""
    bench, _, _ = planted
    everyone, query = AnonymousUser(), parse("the")
    matches = matching_events(bench, everyone, query).order_by("attempt_id", "index")
    first = matches.first().attempt
    in_first = matches.filter(attempt=first).count()
    last = Event.objects.filter(attempt=first).order_by("-index").first().index
    added = 3
    Event.objects.bulk_create(
        Event(attempt=first, index=last + 1 + i, type="message", text="the end")
        for i in range(added)
    )
    cap = in_first + added
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_count_cap": cap}
    assert matches.count() > cap
    results = search(bench=bench, user=everyone, query=query)
    assert results.total.value == cap and results.total.capped
    assert results.attempts.value == 1
    assert [(f.value, f.count) for f in results.facets["model"]] == [(first.model.slug, cap)]
    assert [(f.value, f.count) for f in results.facets["task"]] == [(first.task.slug, cap)]


@pytest.mark.django_db
def test_a_nul_character_is_refused_as_a_value_not_a_server_error(client, planted):
    bench, _, _ = planted
    answer = client.get(reverse("api-search"), {"bench": "x\x00y", "q": "zebrafish"})
    assert answer.status_code == 400 and "bench" in answer.json()["error"]["parameters"]
    answer = client.get(*_api(bench.slug, "zebrafish", model="a\x00b"))
    assert answer.status_code == 200
    assert "model: takes no NUL character." in answer.json()["query"]["problems"]
    page = client.get(search_url(bench.slug, "zebrafish task:a\x00b"))
    assert page.status_code == 200 and "takes no NUL character" in page.content.decode()
