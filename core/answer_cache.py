"""API answers from the rendered-page cache (core.page_cache), served
before Django REST framework is reached.

A hit costs what a cached page costs, plus the rate limit's count, taken here
for every request it sees, cached or not: a client over its limit is passed
on to the view, whose throttle refuses it in the API's error shape, reading
the count taken here rather than counting again. The key holds the Accept
header and the address (``?format=`` included), which decide the format DRF
negotiates. A miss is answered by the view and kept when it may be shared
(``page_cache.store``).
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from core import page_cache

PREFIX = "/api/"
# Rendered by drf-spectacular from the code, not the data: not kept here.
NOT_KEPT = ("/api/schema/", "/api/docs/")


@cache
def _throttle_class(path: str):
    # The API's own throttle (REST_FRAMEWORK's first), which counts in the
    # shared cache and has ``begin``: the one the view reads the count of.
    return import_string(path)


class APIAnswerCacheMiddleware:
    """Beside ``PageCacheMiddleware``, last in MIDDLEWARE (it knows the user)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            not request.path.startswith(PREFIX)
            or request.path.startswith(NOT_KEPT)
            or not page_cache.cacheable_request(request)
        ):
            return self.get_response(request)
        # Counted first, read after the lookup: with Redis its round trip
        # and the generation's query overlap.
        throttle = _throttle_class(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"][0])
        allowed = throttle().begin(request)
        try:
            cache_key = page_cache.key(request, "api")
            found = page_cache.lookup(request, cache_key)
        finally:
            permitted = allowed()
        if found is not None and permitted:
            return found
        # The view answers (its throttle refuses a client over the limit,
        # reading the count taken here) and the answer is kept if it may be.
        return page_cache.store(request, cache_key, self.get_response(request))
