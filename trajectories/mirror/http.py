"""HTTP behaviour every mirror response shares: CORS, caching headers, ETags,
conditional requests, HEAD and the methods a static file host answers."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

ALLOWED = ("GET", "HEAD", "OPTIONS")
PRIVATE = "private, no-store"


def public_cache_control() -> str:
    return f"public, max-age={settings.BENCHVIEW_LIMITS['mirror_max_age_s']}"


def _cors(response: HttpResponse) -> HttpResponse:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag, Content-Length"
    # Who asks decides what a staged file answers, so caches must key on the cookie.
    patch_vary_headers(response, ("Cookie",))
    return response


def mirror_view(view):
    """GET/HEAD/OPTIONS only; 404 as a plain-text file host would; CORS and
    ``Vary: Cookie`` on every response, errors included."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "OPTIONS":
            response = HttpResponse(status=204)
            response["Access-Control-Allow-Methods"] = ", ".join(ALLOWED)
            response["Access-Control-Allow-Headers"] = "If-None-Match"
            response["Access-Control-Max-Age"] = "86400"
        elif request.method not in ALLOWED:
            response = HttpResponseNotAllowed(ALLOWED)
        else:
            try:
                response = view(request, *args, **kwargs)
            except Http404:
                response = not_found()
        return _cors(response)

    return wrapper


def not_found() -> HttpResponse:
    response = HttpResponse(b"Not found\n", status=404, content_type="text/plain; charset=utf-8")
    # A file that is missing (or staged) today may be published tomorrow.
    response["Cache-Control"] = "no-cache"
    return response


def etag_matches(request, etag: str) -> bool:
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = parse_etags(header)
    # If-None-Match uses the weak comparison (RFC 9110, 13.1.2).
    return "*" in tags or etag in tags or f"W/{etag}" in tags


def _headers(response: HttpResponse, etag: str, private: bool) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = PRIVATE if private else public_cache_control()
    return response


def file_response(
    request,
    *,
    etag: str,
    content_type: str,
    private: bool = False,
    body: bytes | None = None,
    chunks: Iterable[bytes] | None = None,
    length: int | None = None,
) -> HttpResponse:
    """A mirror file: 304 when the client holds ``etag``; no body for HEAD;
    ``body`` in one piece or ``chunks`` streamed (built only when sent)."""
    if etag_matches(request, etag):
        return _headers(HttpResponseNotModified(), etag, private)
    if body is not None:
        length = len(body)
    if request.method == "HEAD":
        response = HttpResponse(content_type=content_type)
        if length is not None:
            response["Content-Length"] = str(length)
    elif body is not None:
        response = HttpResponse(body, content_type=content_type)
    else:
        assert chunks is not None  # noqa: S101 - for the type checker: body or chunks is given
        response = StreamingHttpResponse(_closing(chunks), content_type=content_type)
        if length is not None:
            response["Content-Length"] = str(length)
    return _headers(response, etag, private)


def _closing(chunks: Iterable[bytes]) -> Iterator[bytes]:
    yield from chunks
