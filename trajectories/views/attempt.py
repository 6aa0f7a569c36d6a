"""The attempt page: header, verdict, trajectory, patch and vendor log of one attempt."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render

from trajectories import queries
from trajectories.render.diff import parse_patch
from trajectories.render.event_html import render_events
from trajectories.render.events import event_views, tool_summary, type_toggles
from trajectories.render.evidence import vendor_logs, verdict_groups

PATCH_VIEWS = ("unified", "split")
# How many error events the summary links to.
FIRST_ERRORS = 5


def attempt(request, bench: str, model: str, task: str):
    found = queries.attempt_for_page(request.user, bench=bench, model=model, task=task)
    limits = settings.BENCHVIEW_LIMITS
    evidence = found.evidence
    q = request.GET.get("q", "").strip()
    view = request.GET.get("view")
    patch_view = view if view in PATCH_VIEWS else "unified"

    requests = queries.vendor_requests(found)
    results = list(found.check_results.order_by("position"))
    groups = verdict_groups(results, {r.ref for r in requests})
    checks = [c for g in groups for c in g.checks]
    events = event_views(queries.page_events(found), limits)
    search = queries.search_events(found, q) if q else None
    return render(
        request,
        "trajectories/attempt.html",
        {
            "attempt": found,
            "bench": found.bench,
            "model": found.model,
            "task": found.task,
            "evidence": evidence,
            "events_html": render_events(events, f"{request.path}events/"),
            "summary": found.summary_document() or {},
            "verdict": found.verdict_document(results) if found.has_verdict else None,
            "groups": groups,
            "events": events,
            "toggles": type_toggles(evidence.events_by_type),
            "tools": tool_summary(
                events, evidence.tool_calls_by_tool, evidence.failed_tool_calls_by_tool
            ),
            "errors": [e["index"] for e in events if e["type"] == "error"][:FIRST_ERRORS],
            "q": q,
            "search": search,
            "patch": _patch(evidence, limits),
            "patch_view": patch_view,
            "vendors": vendor_logs(
                requests, evidence.vendor_order, checks, limits["vendor_body_preview_chars"]
            ),
            "limits": limits,
        },
    )


def _patch(evidence, limits):
    if evidence.patch is None:
        return None
    if evidence.patch.size > limits["patch_render_max_chars"]:
        return "too-large"
    return parse_patch(evidence.patch.text())
