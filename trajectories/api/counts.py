"""The API rate limit's counts: one counter per client and window in the
shared cache (Redis, or the database or folder cache), added to in batches.

Each process keeps what it has counted but not yet added (a *tally*) and the
client's total as last read. It adds its tally, and reads the total back, once
``api_throttle_batch`` requests have been counted, once a second, and on
every request while the total is within a batch of the limit: a client far
from its limit costs one round trip per batch instead of one per request,
and near it every request is counted exactly. What another process holds
but has not added yet is not seen: the limit holds to within a batch per
process.

With Redis the addition is one atomic script (add; open the window on the
first) through a client kept per process, sent before the caller's other
work and read after it (``count_later``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.core.cache import BaseCache
from django.core.cache.backends.redis import RedisCache

SHARED_CACHE = "shared"
# Clients whose tallies a process keeps at most (the least recently counted go).
TALLIED_CLIENTS = 10_000
# A tally is added at least this often, so a new window is seen within it.
FLUSH_S = 1.0


class _Tally:
    __slots__ = ("unsent", "total", "sent_at")

    def __init__(self) -> None:
        self.unsent = 0
        self.total = 0
        self.sent_at = time.monotonic()


_tallies: OrderedDict[str, _Tally] = OrderedDict()
_lock = threading.Lock()


def count_later(cache: BaseCache, key: str, duration: int, limit: int) -> Callable[[], int]:
    """Count one more request under ``key`` (a window of ``duration`` seconds
    that its first request opens). The returned function gives the client's
    total as far as this process knows it, to compare with ``limit``; call it
    once, always (with Redis it frees the connection)."""
    batch = settings.BENCHVIEW_LIMITS["api_throttle_batch"]
    now = time.monotonic()
    with _lock:
        tally = _tallies.pop(key, None) or _Tally()
        _tallies[key] = tally
        while len(_tallies) > TALLIED_CLIENTS:
            _tallies.popitem(last=False)
        if now - tally.sent_at > duration:
            # Whatever was not added belongs to a window that has ended.
            tally.unsent = tally.total = 0
        tally.unsent += 1
        estimate = tally.total + tally.unsent
        if tally.unsent < batch and estimate <= limit - batch and now - tally.sent_at < FLUSH_S:
            return lambda: estimate
        adding, tally.unsent, tally.sent_at = tally.unsent, 0, now

    def keep() -> None:
        with _lock:
            tally.unsent += adding  # added next time

    try:
        pending = _add_later(cache, key, adding, duration)
    except Exception:
        keep()
        raise

    def total() -> int:
        try:
            found = pending()
        except Exception:
            keep()
            raise
        with _lock:
            tally.total = found
            return found + tally.unsent

    return total


def forget() -> None:
    """Drop this process's tallies (tests that change the shared cache)."""
    with _lock:
        _tallies.clear()


def _add_later(cache: BaseCache, key: str, amount: int, duration: int) -> Callable[[], int]:
    if not isinstance(cache, RedisCache):
        found = _add(cache, key, amount, duration)
        return lambda: found
    key = cache.make_and_validate_key(key)
    script = _redis_script()
    pool = script.registered_client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_command("EVALSHA", script.sha, 1, key, amount, duration)
    except Exception:
        connection.disconnect()
        pool.release(connection)
        raise

    def read() -> int:
        from redis.exceptions import NoScriptError

        try:
            return int(connection.read_response())
        except NoScriptError:
            # A server that restarted has forgotten the script (nothing was
            # added): load it and add.
            return int(script(keys=[key], args=[amount, duration]))
        except Exception:
            connection.disconnect()
            raise
        finally:
            pool.release(connection)

    return read


def _add(cache: BaseCache, key: str, amount: int, duration: int) -> int:
    try:
        return cache.incr(key, amount)
    except ValueError:
        # No window open for this client: open one, unless another process just did.
        return amount if cache.add(key, amount, duration) else cache.incr(key, amount)


# One round trip, atomic: the cache API's incr is two (EXISTS, then INCR),
# and a key that expired between them would be counted without an expiry.
_REDIS_ADD = """
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return n
"""


@lru_cache(maxsize=1)
def _redis_script():
    # One client per process: building one per request (as the cache backend
    # does) cost more than the round trip. The key is the cache's own, so the
    # cache reads and clears the counts as usual.
    import redis

    client = redis.Redis.from_url(settings.CACHES[SHARED_CACHE]["LOCATION"])
    return client.register_script(_REDIS_ADD)
