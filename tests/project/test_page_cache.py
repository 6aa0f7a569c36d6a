"""The rendered-page cache: pages and API answers kept per state of the site, who
asks, format and encoding; invalidated the moment an import or publish commits."""

from __future__ import annotations

import gzip

import pytest
from django.urls import reverse

from leaderboard.models import Attempt

pytestmark = [pytest.mark.django_db, pytest.mark.page_cache]


def urls(bench) -> dict[str, str]:
    attempt = (
        Attempt.objects.released()
        .filter(bench=bench, task__batch__live=True)
        .select_related("model", "task")
        .order_by("pk")
        .first()
    )
    return {
        "leaderboard": reverse("bench", args=[bench.slug]),
        "matrix": reverse("matrix", args=[bench.slug]),
        "task": reverse("task", args=[bench.slug, attempt.task.slug]),
        "model": reverse("model", args=[bench.slug, attempt.model.slug]),
        "attempt": reverse("attempt", args=[bench.slug, attempt.model.slug, attempt.task.slug]),
        "api": f"/api/attempts/?bench={bench.slug}",
    }


@pytest.mark.parametrize("page", ["leaderboard", "matrix", "task", "model", "attempt", "api"])
def test_a_warm_page_costs_one_query_and_is_the_same_bytes(
    client, bench, django_assert_num_queries, page, settings
):
    # The API throttle's counts live in the shared cache, which on PostgreSQL
    # is a table: keep them out of this count (they are the throttle's cost).
    settings.CACHES = {
        **settings.CACHES,
        "shared": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    url = urls(bench)[page]
    first = client.get(url)
    assert first.status_code == 200
    # 1 the site's generation; nothing is rendered again.
    with django_assert_num_queries(1):
        again = client.get(url)
    assert again.content == first.content
    assert again["ETag"] == first["ETag"] and first["ETag"].startswith('"')
    assert {"Cookie", "Accept", "Accept-Encoding"} <= {v.strip() for v in again["Vary"].split(",")}
    # The CSP is written on every answer, hit or not.
    assert again["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_each_encoding_has_its_own_strong_etag_and_a_304(client, bench):
    url = urls(bench)["leaderboard"]
    plain = client.get(url)
    zipped = client.get(url, headers={"accept-encoding": "gzip"})
    assert zipped["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(zipped.content) == plain.content
    assert zipped["ETag"] != plain["ETag"]
    assert not zipped["ETag"].startswith("W/") and not plain["ETag"].startswith("W/")
    not_modified = client.get(
        url, headers={"accept-encoding": "gzip", "if-none-match": zipped["ETag"]}
    )
    assert not_modified.status_code == 304 and not not_modified.content
    # The other encoding's tag does not match this one.
    assert client.get(url, headers={"if-none-match": zipped["ETag"]}).status_code == 200


@pytest.mark.parametrize("store", ["default", "redis"])
def test_the_api_throttle_still_counts_cached_answers(client, bench, monkeypatch, settings, store):
    from django.core.cache import caches
    from rest_framework.throttling import AnonRateThrottle

    from tests.factories import REDIS_TEST_URL, redis_running
    from trajectories.api import counts

    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "2/minute"})
    if store == "redis":
        if not redis_running():
            pytest.skip("no Redis server on 127.0.0.1:6379")
        # The deployment with several machines: the count's round trip
        # overlaps the generation's query (counts.count_later).
        redis_cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache"}
        settings.CACHES = {**settings.CACHES, "shared": {**redis_cache, "LOCATION": REDIS_TEST_URL}}
    counts._redis_script.cache_clear()  # its client is for this test's Redis
    counts.forget()
    caches["shared"].clear()
    try:
        answers = [client.get("/api/benches/") for _ in range(4)]
    finally:
        counts._redis_script.cache_clear()
        counts.forget()
    assert [a.status_code for a in answers] == [200, 200, 429, 429]
    # The second is a cached answer, counted all the same; the refusal is the
    # API's own error shape, and a refused request is counted once, not twice.
    assert answers[1].content == answers[0].content
    assert answers[2].json()["error"]["status"] == 429
    assert caches["shared"].get("throttle_anon_127.0.0.1") == 4


def test_each_api_format_is_its_own_entry(client, bench):
    url = urls(bench)["api"]
    as_json = client.get(url, headers={"accept": "application/json"})
    as_html = client.get(url, headers={"accept": "text/html"})
    assert as_json["Content-Type"].startswith("application/json")
    assert as_html["Content-Type"].startswith("text/html")
    again = client.get(url, headers={"accept": "application/json"})
    assert again["Content-Type"].startswith("application/json")
    assert again.content == as_json.content


def test_streamed_pages_are_not_kept(client, bench):
    attempt = urls(bench)["attempt"]
    whole = client.get(attempt + "?all=1")
    assert whole.streaming and "ETag" not in whole
    again = client.get(attempt + "?all=1")
    assert again.streaming


@pytest.mark.parametrize("page", ["leaderboard", "matrix", "task", "model"])
def test_every_header_the_view_sets_survives_the_cache(client, bench, page):
    url = urls(bench)[page] + "?format=csv"
    first = client.get(url)
    again = client.get(url)
    assert first["Content-Disposition"].endswith('.csv"')
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert again["Content-Type"] == first["Content-Type"] == "text/csv; charset=utf-8"


def _long_page_addresses(bench) -> dict[str, tuple[str, str]]:
    """Per parameter of the long pages, two addresses that differ only in it."""
    attempt = urls(bench)["attempt"]
    task_attempts = (
        Attempt.objects.released()
        .filter(bench=bench, task__batch__live=True)
        .select_related("model", "task")
        .order_by("task_id", "pk")
    )
    by_task: dict[int, list[Attempt]] = {}
    for a in task_attempts:
        by_task.setdefault(a.task_id, []).append(a)
    a, b = next(pair for pair in by_task.values() if len(pair) > 1)[:2]
    compare = reverse("compare", args=[bench.slug, a.task.slug, a.model.slug, b.model.slug])
    transcript = attempt + "transcript/"
    return {
        "q": (f"{attempt}?q=the", f"{attempt}?q=tool"),
        "after": (f"{attempt}?q=the&after=2", f"{attempt}?q=the&after=9"),
        "before": (f"{attempt}?q=the&before=30", f"{attempt}?q=the&before=60"),
        "rows": (f"{compare}?rows=0", f"{compare}?rows=3"),
        "line": (f"{transcript}?line=1", f"{transcript}?line=2"),
    }


@pytest.mark.parametrize("parameter", ["q", "after", "before", "rows", "line"])
def test_each_parameter_of_the_long_pages_is_its_own_entry(client, bench, settings, parameter):
    """The search's ``q``, ``after`` and ``before``, the compare page's ``rows``
    and the transcript's ``line`` are in the key: the second address is never
    answered with the first one's entry."""
    from django.core.cache import caches

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "compare_rows_per_page": 3}
    first, second = _long_page_addresses(bench)[parameter]
    one = client.get(first)
    two = client.get(second)
    assert one.status_code == two.status_code == 200
    assert one.content != two.content
    caches["pages"].clear()
    assert client.get(second).content == two.content
