"""The API rate limit: X-Forwarded-For only from trusted proxies; one count for all workers."""

from __future__ import annotations

import secrets

import pytest
from django.core.cache import caches
from rest_framework.throttling import AnonRateThrottle

from tests import children
from tests.factories import REDIS_TEST_URL, redis_running
from trajectories.api.throttling import client_address

LIMIT = 3


@pytest.fixture
def strict_rate(monkeypatch):
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": f"{LIMIT}/minute"})
    # Counts an earlier test of this process left within the minute (a flush
    # does not empty the database cache's table) must not count here.
    caches["shared"].clear()


def random_address() -> str:
    return ".".join(str(secrets.randbelow(254) + 1) for _ in range(4))


@pytest.mark.django_db
def test_random_forwarded_for_values_do_not_bypass_the_limit(client, strict_rate):
    codes = [
        client.get("/api/benches/", HTTP_X_FORWARDED_FOR=random_address()).status_code
        for _ in range(LIMIT + 2)
    ]
    assert codes == [200] * LIMIT + [429, 429]


@pytest.mark.django_db
def test_clients_behind_a_trusted_proxy_are_counted_apart(client, strict_rate, settings):
    settings.BENCHVIEW_TRUSTED_PROXIES = ["127.0.0.0/8"]
    alice = {"HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    for _ in range(LIMIT):
        assert client.get("/api/benches/", **alice).status_code == 200
    assert client.get("/api/benches/", **alice).status_code == 429
    # Alice cannot get out of it by writing her own entry in front of the proxy's.
    spoofed = {"HTTP_X_FORWARDED_FOR": f"{random_address()}, 203.0.113.5"}
    assert client.get("/api/benches/", **spoofed).status_code == 429
    assert client.get("/api/benches/", HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 200


def test_the_client_address_is_read_from_the_nearest_untrusted_hop(settings):
    settings.BENCHVIEW_TRUSTED_PROXIES = ["10.0.0.0/8", "192.0.2.1"]
    meta = {"REMOTE_ADDR": "10.1.1.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 198.51.100.7, 192.0.2.1"}
    assert client_address(meta) == "198.51.100.7"
    assert client_address({**meta, "REMOTE_ADDR": "198.51.100.9"}) == "198.51.100.9"
    assert client_address({**meta, "HTTP_X_FORWARDED_FOR": "junk, 192.0.2.1"}) == "192.0.2.1"
    assert client_address({"REMOTE_ADDR": "10.1.1.1"}) == "10.1.1.1"
    settings.BENCHVIEW_TRUSTED_PROXIES = []
    assert client_address(meta) == "10.1.1.1"  # none trusted by default


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("store", ["default", "redis"])
def test_two_processes_share_one_count(child_database_url, tmp_path, store):
    env = {
        "DATABASE_URL": child_database_url,
        "BENCHVIEW_CACHE_DIR": str(tmp_path / "shared-cache"),
        "BENCHVIEW_API_ANON_RATE": f"{LIMIT}/minute",
    }
    if store == "redis":
        # The deployment with several machines: BENCHVIEW_REDIS_URL (docs/operations.md).
        if not redis_running():
            pytest.skip("no Redis server on 127.0.0.1:6379")
        import redis

        redis.Redis.from_url(REDIS_TEST_URL).flushdb()
        env["BENCHVIEW_REDIS_URL"] = REDIS_TEST_URL
    code = """
        import sys
        from django.test import Client
        client = Client()
        print(" ".join(str(client.get("/api/benches/").status_code) for _ in range(2)))
        """
    # Counts left by earlier transactional tests in the same minute would
    # throttle the first child: flush does not empty the cache table.
    caches["shared"].clear()
    said = []
    try:
        for _ in range(2):  # one after the other: two workers of one site
            child = children.start(code, env=env)
            out, err = child.communicate(timeout=300)
            assert child.returncode == 0, err
            said.append(out.strip())
    finally:
        caches["shared"].clear()  # PostgreSQL: the rows are in the test database
    assert said == ["200 200", "200 429"]


def test_a_redis_count_opens_its_window_once_and_it_expires(settings):
    if not redis_running():
        pytest.skip("no Redis server on 127.0.0.1:6379")
    import redis
    from django.core.cache.backends.redis import RedisCache

    from trajectories.api import counts

    settings.CACHES = {
        **settings.CACHES,
        "shared": {**settings.CACHES["shared"], "LOCATION": REDIS_TEST_URL},
    }
    counts._redis_script.cache_clear()
    counts.forget()
    # A limit of 2: every request is near it, so each is added at once.
    try:
        cache = RedisCache(REDIS_TEST_URL, {"KEY_PREFIX": "benchview"})
        cache.clear()
        key = "throttle_anon_198.51.100.7"

        def count() -> int:
            return counts.count_later(cache, key, 60, 2)()

        assert [count() for _ in range(3)] == [1, 2, 3]
        # The count is the cache's own value, and its window has an expiry.
        assert cache.get(key) == 3
        ttl = redis.Redis.from_url(REDIS_TEST_URL).ttl(cache.make_and_validate_key(key))
        assert 0 < ttl <= 60
        cache.delete(key)
        assert count() == 1
        # Sent now, read later (the answer cache's way): the same count.
        later = counts.count_later(cache, key, 60, 2)
        assert count() == 3  # sent before, so counted first
        assert later() == 2
        # A server that forgot the script (restarted) still counts, once.
        redis.Redis.from_url(REDIS_TEST_URL).script_flush()
        assert count() == 4
        assert cache.get(key) == 4
    finally:
        counts._redis_script.cache_clear()
        counts.forget()


def test_far_from_its_limit_a_client_is_counted_in_batches_and_exactly_near_it(settings):
    from django.core.cache.backends.locmem import LocMemCache

    from trajectories.api import counts

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "api_throttle_batch": 10}
    cache = LocMemCache("throttle-batches", {})
    key = "throttle_anon_203.0.113.9"

    def count() -> int:
        return counts.count_later(cache, key, 60, 100)()

    # Each request sees its own number; the shared count lags by less than a batch.
    assert [count() for _ in range(45)] == list(range(1, 46))
    assert 45 - 10 < cache.get(key) < 45
    # Another process's requests are seen when this one next adds its tally.
    cache.incr(key, 30)
    totals = []
    while not totals or totals[-1] <= 100:
        totals.append(count())
    # Within a batch of the limit every request is added: the limit is exact.
    assert totals[-1] == 101 and cache.get(key) == 101
    assert len(totals) == 101 - 45 - 30
    assert totals == sorted(totals) and max(totals[:-1]) <= 100


def test_requests_counted_while_the_shared_store_fails_are_added_later():
    from django.core.cache.backends.locmem import LocMemCache

    from trajectories.api import counts

    class Flaky(LocMemCache):
        down = True

        def incr(self, key, delta=1, version=None):
            if self.down:
                self.down = False
                raise ConnectionError("the shared cache is down")
            return super().incr(key, delta, version)

    cache = Flaky("throttle-flaky", {})
    key = "throttle_anon_192.0.2.44"
    cache.set(key, 1, 60)
    with pytest.raises(ConnectionError):
        counts.count_later(cache, key, 60, 2)()
    # The failed request is not lost: the next addition carries it.
    assert counts.count_later(cache, key, 60, 2)() == 3
    assert cache.get(key) == 3
