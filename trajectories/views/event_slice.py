"""One slice of a trajectory (…/events/?from=N): its events in the attempt page's
markup, as a page with the site layout or (``?fragment=1``) as the bare markup a
script inserts into the attempt page.

Slices start at multiples of the slice size, so each has one address and its
ETag (the attempt's content hash and the range) holds until a re-import. A
fragment is any part of one slice (``from`` inside it, ``to`` at most its
end): what the attempt page's script asks for, a few events around a deep
link's first, then the rest."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified, HttpResponseRedirect
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers

from leaderboard.visibility import can_see_staged
from trajectories import queries
from trajectories.mirror.http import etag_matches
from trajectories.queries import trial_number
from trajectories.render.event_html import render_events
from trajectories.render.events import event_views

# Bumped when the events' markup changes, so old ETags stop matching.
MARKUP_VERSION = "2"


def slice_ranges(total: int, size: int) -> list[tuple[int, int]]:
    """``(first, last)`` index of every slice of a trajectory of ``total`` events."""
    return [(start, min(start + size, total) - 1) for start in range(0, total, size)]


def later_ranges(total: int, size: int, shown: int) -> list[tuple[int, int]]:
    """The ranges of events not on an attempt page that holds the first ``shown``:
    the rest of the first slice (from ``shown``), then every later slice."""
    ranges = slice_ranges(total, size)
    rest = [(shown, ranges[0][1])] if ranges and shown <= ranges[0][1] else []
    return rest + ranges[1:]


def _number(request, name: str, default: str) -> int:
    raw = request.GET.get(name, default)
    # isdecimal, not isdigit: int() refuses "²"; and a bounded length, since
    # int() refuses numbers of thousands of digits. Either would be a 500.
    if not (raw.isdecimal() and len(raw) < 12):
        raise Http404(f"{name} must be an event number.")
    return int(raw)


def _event(request, total: int) -> int:
    event = _number(request, "from", "0")
    if event >= total:
        raise Http404(f"This trajectory has {total} events; there is no event {event}.")
    return event


def _fragment_stop(request, start: int, end: int) -> int:
    """Where a fragment stops: ``to`` (exclusive), within the slice that holds
    ``start``, whose end is ``end``; the slice's end without it."""
    if "to" not in request.GET:
        return end
    stop = _number(request, "to", "")
    if not start < stop <= end:
        raise Http404(f"to must follow from and stay within its slice (at most {end}).")
    return stop


def event_slice(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user,
        bench=bench,
        model=model,
        task=task,
        trial=trial_number(trial),
        relations=queries.SLICE_RELATIONS,
    )
    limits = settings.BENCHVIEW_LIMITS
    size = limits["event_slice_size"]
    total = found.evidence.events_total
    event = _event(request, total)
    start = event // size * size
    fragment = request.GET.get("fragment") == "1"
    if fragment:
        # Part of a slice, from ``event`` to ``to``: the attempt page holds
        # only the first events of its first slice, and its script asks first
        # for the few events around a deep link's, then for the rest.
        start = event
    elif event != start:
        # One address per slice (one cache entry, one ETag); the event asked
        # for is marked there (the "Go to event" form lands here).
        query = request.GET.copy()
        query["from"] = str(start)
        return HttpResponseRedirect(f"{request.path}?{query.urlencode()}#e{event}")
    stop = min(event // size * size + size, total)
    if fragment:
        stop = _fragment_stop(request, start, stop)
    seed = (
        f"{MARKUP_VERSION}/{found.content_hash}/{start}-{stop}/{fragment}/"
        f"{limits['event_preview_chars']}/{limits['event_input_preview_chars']}"
    )
    etag = '"' + hashlib.sha256(seed.encode()).hexdigest()[:40] + '"'
    if etag_matches(request, etag):
        response = HttpResponseNotModified()
    else:
        attempt_url = request.path.removesuffix("events/")
        rows = queries.page_events(found, start, stop)
        views = event_views(rows, limits, first_ts=queries.first_event_time(found))
        events = render_events(list(views), request.path, f"{attempt_url}transcript/")
        if fragment:
            response = HttpResponse(events, content_type="text/html; charset=utf-8")
        else:
            page = render_to_string(
                "trajectories/event_slice.html",
                {
                    "attempt": found,
                    "bench": found.bench,
                    "model": found.model,
                    "task": found.task,
                    "events": events,
                    "first": start,
                    "last": stop - 1,
                    "total": total,
                    "previous": start - size if start else None,
                    "next": stop if stop < total else None,
                    "next_last": min(stop + size, total) - 1,
                    "attempt_url": attempt_url,
                },
                request,
            )
            response = HttpResponse(page)
    response["ETag"] = etag
    # Staff may see staged attempts: what a slice holds depends on who asks.
    patch_vary_headers(response, ("Cookie",))
    # Cacheable, but checked each time (a cheap 304): a re-import changes the
    # ETag, and a page must never mix slices of two imports.
    if can_see_staged(request.user):
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, public=True, no_cache=True)
    return response
