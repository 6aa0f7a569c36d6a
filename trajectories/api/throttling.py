"""The API's rate limit: counted per real client address, in a cache every worker shares.

DRF's own throttle keys on the whole X-Forwarded-For header when it is present,
so a client that sends a new random value each time is never limited; and
counts kept in one worker's memory let each worker allow the full rate. Here
the header is believed only from ``BENCHVIEW_TRUSTED_PROXIES`` and the counts
live in the "shared" cache (config/settings.py).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import AnonRateThrottle

SHARED_CACHE = "shared"
# A request's count, set when it was taken before the view (by
# trajectories.api.answer_cache): the view's throttle reads it, not counts again.
COUNTED = "benchview_throttle_count"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class SharedAnonRateThrottle(AnonRateThrottle):
    """AnonRateThrottle keyed by ``client_address`` and counted in the shared cache.

    A counter per client and window, not DRF's list of every request's time:
    that list is read, rewritten and pickled whole on each request (600
    timestamps at the default rate), where a counter is one ``incr`` (atomic
    in Redis, so simultaneous requests cannot miss each other's count there;
    one round trip, see ``count``).
    The window opens at the client's first request and lasts the rate's
    period.
    """

    @property
    def cache(self):
        return caches[SHARED_CACHE]

    def get_ident(self, request) -> str:
        return client_address(request.META)

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        taken = getattr(request, COUNTED, None)
        if taken is not None:
            return taken <= self.num_requests
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        return count(self.cache, self.key, self.duration) <= self.num_requests

    def begin(self, request) -> Callable[[], bool]:
        """Count ``request`` now and learn later whether it is allowed: the
        returned function says so (call it once, always: it frees the
        connection), and leaves the count on the request for the view's own
        throttle. With Redis the round trip overlaps whatever runs in between."""
        if self.rate is None:
            return lambda: True
        self.key = self.get_cache_key(request, None)
        if self.key is None:
            return lambda: True
        pending = count_later(self.cache, self.key, self.duration)

        def allowed() -> bool:
            taken = pending()
            setattr(request, COUNTED, taken)
            return taken <= self.num_requests

        return allowed

    def wait(self) -> float:
        # The window's start is not kept: at most its whole length remains.
        return float(self.duration)


def count(cache: BaseCache, key: str, duration: int) -> int:
    """Count one more request under ``key``: its number in the window that the
    first one opened for ``duration`` seconds."""
    if isinstance(cache, RedisCache):
        return _redis_count(cache.make_and_validate_key(key), duration)
    try:
        return cache.incr(key)
    except ValueError:
        # No window open for this client: open one, unless another request just did.
        return 1 if cache.add(key, 1, duration) else cache.incr(key)


# One round trip, atomic: the cache API's incr is two (EXISTS, then INCR),
# and a key that expired between them would be counted without an expiry.
_REDIS_COUNT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def count_later(cache: BaseCache, key: str, duration: int) -> Callable[[], int]:
    """``count``, sent now and read when the returned function is called."""
    if not isinstance(cache, RedisCache):
        taken = count(cache, key, duration)
        return lambda: taken
    key = cache.make_and_validate_key(key)
    script = _redis_script()
    pool = script.registered_client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_command("EVALSHA", script.sha, 1, key, duration)
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
            # counted): load it and count.
            return _redis_count(key, duration)
        except Exception:
            connection.disconnect()
            raise
        finally:
            pool.release(connection)

    return read


def _redis_count(key: str, duration: int) -> int:
    return int(_redis_script()(keys=[key], args=[duration]))


@lru_cache(maxsize=1)
def _redis_script():
    # One client per process: building one per request (as the cache backend
    # does) cost more than the round trip. The key is the cache's own, so the
    # cache reads and clears the counts as usual.
    import redis

    client = redis.Redis.from_url(settings.CACHES[SHARED_CACHE]["LOCATION"])
    return client.register_script(_REDIS_COUNT)


def client_address(meta: dict) -> str:
    """The address of the client: REMOTE_ADDR, or what trusted proxies say they saw.

    X-Forwarded-For is read from the right (the hop nearest us) while the hop
    is a trusted proxy; the first address that is not one is the client. What
    a client writes into the header itself sits to the left of that and is
    never reached.
    """
    remote = meta.get("REMOTE_ADDR", "")
    trusted = _trusted(tuple(settings.BENCHVIEW_TRUSTED_PROXIES))
    if not trusted or not _is_trusted(remote, trusted):
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    nearest = remote
    for hop in reversed([h for h in hops if h]):
        if _address(hop) is None:
            return nearest  # a garbled entry: go no further than the last proxy we trust
        if not _is_trusted(hop, trusted):
            return hop
        nearest = hop
    return nearest


@lru_cache(maxsize=8)
def _trusted(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _is_trusted(text: str, trusted: tuple[Network, ...]) -> bool:
    address = _address(text)
    return address is not None and any(address in network for network in trusted)
