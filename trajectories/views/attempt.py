"""The attempt page: header, verdict, trajectory, patch and vendor log of one attempt.

The page is streamed: the header and evidence sections render first through
the template, then the events in batches as they come from the database, so a
browser parses a 10,000-event trajectory while the server is still writing it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from django.conf import settings
from django.http import StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from trajectories import queries
from trajectories.fidelity import difference_text
from trajectories.queries import trial_number
from trajectories.render.diff import parse_patch
from trajectories.render.event_html import render_events
from trajectories.render.events import event_views, tool_summary, type_toggles
from trajectories.render.evidence import vendor_logs, verdict_groups
from trajectories.search.in_attempt import search_events
from trajectories.views.event_slice import slice_ranges

PATCH_VIEWS = ("unified", "split")
# Where the events go in the rendered template. Page text never contains it:
# every value from a release is escaped, so it cannot hold a raw "<!--".
EVENTS_MARK = "<!--benchview:events-->"


def attempt(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user, bench=bench, model=model, task=task, trial=trial_number(trial)
    )
    limits = settings.BENCHVIEW_LIMITS
    evidence = found.evidence
    q = request.GET.get("q", "").strip()
    view = request.GET.get("view")

    requests = queries.vendor_requests(found)
    results = list(found.check_results.order_by("position"))
    groups = verdict_groups(results, {r.ref for r in requests})
    checks = [c for g in groups for c in g.checks]
    problems = queries.problem_events(found)
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
            "events_mark": mark_safe(EVENTS_MARK),  # noqa: S308 - a constant
            "summary": found.summary_document() or {},
            "verdict": found.verdict_document(results) if found.has_verdict else None,
            "groups": groups,
            "toggles": type_toggles(evidence.events_by_type),
            "tools": tool_summary(
                problems, evidence.tool_calls_by_tool, evidence.failed_tool_calls_by_tool
            ),
            "errors": [p[0] for p in problems if p[1] == "error"][: limits["attempt_first_errors"]],
            "q": q,
            "search": search_events(found, q) if q else None,
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
            "slices": slice_ranges(evidence.events_total, limits["event_slice_size"]),
            "differences": [(d, difference_text(d)) for d in check.differences] if check else [],
            "unmapped": check.unmapped[: limits["transcript_unmapped_shown"]] if check else [],
        },
        request,
    )
    head, tail = page.split(EVENTS_MARK, 1)
    views = event_views(queries.page_events(found), limits)
    return StreamingHttpResponse(
        _pieces(head, views, f"{request.path}events/", transcript_url, tail),
        content_type="text/html; charset=utf-8",
    )


def _pieces(
    head: str, views: Iterator[dict], event_url: str, transcript_url: str, tail: str
) -> Iterator[str]:
    yield head
    per_piece = settings.BENCHVIEW_LIMITS["attempt_events_per_piece"]
    while batch := list(islice(views, per_piece)):
        yield render_events(batch, event_url, transcript_url)
    yield tail


def _patch(evidence, limits):
    if evidence.patch is None:
        return None
    if evidence.patch.size > limits["patch_render_max_chars"]:
        return "too-large"
    return parse_patch(evidence.patch.text())
