"""The attempt page: header, verdict, trajectory, patch and vendor log of one attempt.

The page carries the header, evidence sections and the first events of the
trajectory (``attempt_first_events``); the rest of the first slice and each
later slice is a placeholder linking to its slice page
(``…/events/?from=N``), which the page's script loads in place when the reader
scrolls or follows a link to one of its events. So the page costs the same at
100 events and at 100,000. ``?all=1`` gives every event on one page (for
printing), streamed: the header renders first through the template, then the
events in batches as they come from the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string

from core.html import html
from trajectories import queries
from trajectories.fidelity import difference_text
from trajectories.queries import trial_number
from trajectories.render.diff import parse_patch
from trajectories.render.event_html import render_events, render_slice_stubs
from trajectories.render.events import event_views, tool_summary, type_toggles
from trajectories.render.evidence import vendor_logs, verdict_groups
from trajectories.search.bounded import SearchRefused
from trajectories.search.in_attempt import Matches, attempt_matches
from trajectories.views.attempt_search import event_number
from trajectories.views.event_slice import later_ranges, slice_ranges

PATCH_VIEWS = ("unified", "split")
# Where the events go in the rendered template. Page text never contains it:
# every value from a release is escaped, so it cannot hold a raw "<!--".
EVENTS_MARK = html("<!--benchview:events-->")


def attempt(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user, bench=bench, model=model, task=task, trial=trial_number(trial)
    )
    limits = settings.BENCHVIEW_LIMITS
    evidence = found.evidence
    q = request.GET.get("q", "").strip()
    view = request.GET.get("view")
    total = evidence.events_total
    size = limits["event_slice_size"]
    every = request.GET.get("all") == "1"
    # Events on the page as sent; the rest arrive by slice (the rest of the
    # first slice too, from where the page stops).
    shown = total if every else min(total, size, limits["attempt_first_events"])

    requests = queries.vendor_requests(found)
    results = list(found.check_results.order_by("position"))
    groups = verdict_groups(results, {r.ref for r in requests})
    checks = [c for g in groups for c in g.checks]
    problems = evidence.problems
    check = getattr(found, "transcript_check", None)  # None: imported before the check existed
    transcript_url = f"{request.path}transcript/"
    page = render_to_string(
        "trajectories/attempt.html",
        {
            "attempt": found,
            "bench": found.bench,
            "model": found.model,
            "task": found.task,
            "evidence": evidence,
            "events_mark": EVENTS_MARK,
            "summary": found.summary_document() or {},
            "verdict": found.verdict_document(results) if found.has_verdict else None,
            "groups": groups,
            "toggles": type_toggles(evidence.events_by_type),
            "tools": tool_summary(
                problems, evidence.tool_calls_by_tool, evidence.failed_tool_calls_by_tool
            ),
            "errors": problems.get("errors", [])[: limits["attempt_first_errors"]],
            "q": q,
            **(_search(request, found, q) if q else {"search": None}),
            "patch": _patch(evidence, limits),
            "patch_view": view if view in PATCH_VIEWS else "unified",
            "vendors": vendor_logs(
                requests, evidence.vendor_order, checks, limits["vendor_body_preview_chars"]
            ),
            "transcript_check": check,
            # The first differing event may be one only the transcript has.
            "first_difference_shown": check is not None
            and check.first_difference is not None
            and check.first_difference < evidence.events_total,
            "transcript_url": transcript_url,
            "events_url": f"{request.path}events/",
            "slices": slice_ranges(total, size),
            "shown": shown,
            "slice_size": size,
            "every": every,
            "differences": [(d, difference_text(d)) for d in check.differences] if check else [],
            "unmapped": check.unmapped[: limits["transcript_unmapped_shown"]] if check else [],
        },
        request,
    )
    head, tail = page.split(EVENTS_MARK, 1)
    events_url = f"{request.path}events/"
    views = event_views(queries.page_events(found, 0, shown), limits)
    stubs = render_slice_stubs(
        [] if every else later_ranges(total, size, shown), events_url, evidence.height_lines
    )
    pieces = _pieces(head, views, events_url, transcript_url, stubs + tail)
    if every:
        return StreamingHttpResponse(pieces, content_type="text/html; charset=utf-8")
    # One slice: small whatever the trajectory's length, so one body the page
    # cache can keep.
    return HttpResponse("".join(pieces), content_type="text/html; charset=utf-8")


def _pieces(
    head: str, views: Iterator[dict], event_url: str, transcript_url: str, tail: str
) -> Iterator[str]:
    yield head
    per_piece = settings.BENCHVIEW_LIMITS["attempt_events_per_piece"]
    while batch := list(islice(views, per_piece)):
        yield render_events(batch, event_url, transcript_url)
    yield tail


def _search(request, found, q: str) -> dict:
    """The page's search results: one page of matches and the links to the
    pages beside it (every match is reachable without the script), or why the
    search was refused."""
    after, before = event_number(request.GET, "after"), event_number(request.GET, "before")
    try:
        matches: Matches | None = attempt_matches(found, q, after=after, before=before)
    except SearchRefused as exc:
        return {"search": None, "search_refusal": str(exc)}
    base = {"q": q}
    if hide := request.GET.get("hide"):
        base["hide"] = hide
    pages = {}
    if matches.has_next:
        pages["search_next"] = "?" + urlencode({**base, "after": matches.matches[-1].index})
    if matches.has_previous:
        first = matches.matches[0].index if matches.matches else found.evidence.events_total
        pages["search_previous"] = "?" + urlencode({**base, "before": first})
    return {"search": matches, "search_url": f"{request.path}search/", **pages}


def _patch(evidence, limits):
    if evidence.patch is None:
        return None
    if evidence.patch.size > limits["patch_render_max_chars"]:
        return "too-large"
    return parse_patch(evidence.patch.text())
