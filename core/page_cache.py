"""Rendered pages and API answers, cached per state of the site.

Every page is a function of the published data, its address (query string
included), who asks (staff see staged batches), the negotiated format and the
encoding. The key holds each: the site's generation (``Generation``, raised in
the transaction of every import and publish, so once a write commits no worker
serves a page from before it), the address, ``can_see_staged``, the Accept
header and gzip-or-not. An entry keeps the body and its gzip, each with a
strong ETag of its own, so a hit costs one query and no rendering or
compressing, and a matching If-None-Match is a 304.

Only plain 200 answers to GET and HEAD are kept: not streamed ones (whole
trajectories and transcripts), not those setting a cookie or marked private
or no-store. The cache is its own alias ("pages"), apart from the API
throttle's counters.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from core.hooks import hook

ALIAS = "pages"
# What a cached answer varies on, said to every cache between us and the reader.
VARY = ("Cookie", "Accept", "Accept-Encoding")
# Every header the view set is kept with its answer (a download's
# Content-Disposition names its file; a list of kept headers once dropped it),
# except these, which the cache writes itself on each answer from an entry: one
# ETag per encoding, and the encoding and length of the body it sends. The CSP
# and security headers are not here to keep: the middleware above this one
# writes them on every answer, hit or not.
REWRITTEN_HEADERS = frozenset({"etag", "content-encoding", "content-length"})
# The same test GZipMiddleware makes.
_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Entry:
    headers: tuple[tuple[str, str], ...]
    body: bytes
    etag: str
    gzipped: bytes | None
    gzip_etag: str


def _gzip_accepted(request) -> bool:
    return bool(_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def key(request, variant: str = "") -> str:
    """The entry's key: generation, visibility, format, address (hashed: keys must
    be short and plain for every backend)."""
    address = hashlib.sha256(
        "\n".join((request.get_full_path(), request.META.get("HTTP_ACCEPT", ""), variant)).encode()
    ).hexdigest()[:40]
    audience = "staff" if hook("sees_staged")(getattr(request, "user", None)) else "public"
    return f"page:{hook('generation')()}:{audience}:{address}"


def cacheable_request(request) -> bool:
    """False too when the cache is off (``page_cache_s`` 0): then no query either."""
    return (
        settings.BENCHVIEW_LIMITS["page_cache_s"] > 0
        and request.method in ("GET", "HEAD")
        and "HTTP_AUTHORIZATION" not in request.META
    )


def _etag(body: bytes, suffix: str = "") -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:40] + suffix + '"'


def lookup(request, cache_key: str) -> HttpResponse | None:
    """The cached answer for this request (or a 304 for it), else None."""
    entry = caches[ALIAS].get(cache_key)
    if entry is None:
        return None
    return _answer(request, entry)


def _answer(request, entry: Entry) -> HttpResponse:
    gzipped = entry.gzipped is not None and _gzip_accepted(request)
    etag = entry.gzip_etag if gzipped else entry.etag
    if etag in _if_none_match(request):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(entry.gzipped if gzipped else entry.body)
        for name, value in entry.headers:
            response[name] = value
        if gzipped:
            # GZipMiddleware leaves an answer with a Content-Encoding alone.
            response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    patch_vary_headers(response, VARY)
    return response


def _if_none_match(request) -> list[str]:
    raw = request.META.get("HTTP_IF_NONE_MATCH", "")
    return [tag.strip() for tag in raw.split(",") if tag.strip()]


def store(request, cache_key: str, response) -> HttpResponse:
    """Keep ``response`` if it may be shared, and answer this request from the
    entry (so the first answer already carries the ETag and the gzip)."""
    limits = settings.BENCHVIEW_LIMITS
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or response.has_header("Content-Encoding")
        or any(word in response.get("Cache-Control", "") for word in ("private", "no-store"))
        or len(response.content) > limits["page_cache_max_bytes"]
    ):
        return response
    body = response.content
    gzipped = compress_string(body)
    own = response.get("ETag")
    entry = Entry(
        headers=tuple(
            (name, value)
            for name, value in response.items()
            if name.lower() not in REWRITTEN_HEADERS
        ),
        body=body,
        # A view's own strong ETag (slices) is kept; each encoding has its own.
        etag=own if own and not own.startswith("W/") else _etag(body),
        gzipped=gzipped if len(gzipped) < len(body) else None,
        gzip_etag=(own[:-1] + '-gzip"')
        if own and not own.startswith("W/")
        else _etag(body, "-gzip"),
    )
    caches[ALIAS].set(cache_key, entry, limits["page_cache_s"])
    return _answer(request, entry)


# Addresses answered elsewhere: the admin (per user, with forms), the release
# files (their own cache and ETags), the API (trajectories.api.answer_cache,
# which counts each answer for the rate limit), health checks and static files.
SKIPPED_PREFIXES = ("/admin/", "/data/", "/api/", "/healthz", "/static/", "/media/")


class PageCacheMiddleware:
    """Last in MIDDLEWARE: it knows the user, and what it returns still passes
    the CSP and compression middleware above it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not cacheable_request(request) or request.path.startswith(SKIPPED_PREFIXES):
            return self.get_response(request)
        cache_key = key(request)
        found = lookup(request, cache_key)
        if found is not None:
            return found
        return store(request, cache_key, self.get_response(request))
