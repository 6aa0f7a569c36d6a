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
from django.core.cache import caches
from rest_framework.throttling import AnonRateThrottle

from trajectories.api import counts

# A request's count, set when it was taken before the view (by
# core.answer_cache): the view's throttle reads it, not counts again.
COUNTED = "benchview_throttle_count"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class SharedAnonRateThrottle(AnonRateThrottle):
    """AnonRateThrottle keyed by ``client_address`` and counted in the shared cache.

    A counter per client and window, not DRF's list of every request's time:
    that list is read, rewritten and pickled whole on each request (600
    timestamps at the default rate), where a counter is added to in batches
    (``trajectories.api.counts``; atomic in Redis).
    The window opens at the client's first request and lasts the rate's
    period.
    """

    @property
    def cache(self):
        return caches[counts.SHARED_CACHE]

    def get_ident(self, request) -> str:
        return client_address(request.META)

    def allow_request(self, request, view) -> bool:
        taken = getattr(request, COUNTED, None)
        if taken is not None:
            return taken <= self.num_requests
        return self.begin(request)()

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
        pending = counts.count_later(self.cache, self.key, self.duration, self.num_requests)

        def allowed() -> bool:
            taken = pending()
            setattr(request, COUNTED, taken)
            return taken <= self.num_requests

        return allowed

    def wait(self) -> float:
        # The window's start is not kept: at most its whole length remains.
        return float(self.duration)


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
