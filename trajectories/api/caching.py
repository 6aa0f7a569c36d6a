"""API answers from the rendered-page cache (leaderboard.page_cache).

Looked up after DRF's ``initial()``: the throttle has counted the request and
content negotiation has picked the format, which is part of the key. A miss
is kept once rendered (a post-render callback), with its gzip and ETags.
"""

from __future__ import annotations

from rest_framework.response import Response

from leaderboard import page_cache


class _Hit(Exception):  # noqa: N818 - not an error: carries the cached answer out of initial()
    def __init__(self, response):
        self.response = response


class CachedAnswers:
    """First among an API view's bases."""

    page_key: str | None = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.page_key = None
        if page_cache.cacheable_request(request._request):
            variant = request.accepted_renderer.format
            self.page_key = page_cache.key(request._request, variant)
            found = page_cache.lookup(request._request, self.page_key)
            if found is not None:
                raise _Hit(found)

    def handle_exception(self, exc):
        if isinstance(exc, _Hit):
            return exc.response
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        key = self.page_key
        if key is not None and isinstance(response, Response) and response.status_code == 200:
            plain = request._request
            response.add_post_render_callback(lambda done: page_cache.store(plain, key, done))
        return response
