"""The analysis pages: their index, tool failures and protocol failures across a bench."""

from __future__ import annotations

import math
from urllib.parse import urlencode

from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from formats.tools import tool_family
from leaderboard.models import Bench
from leaderboard.render import download
from trajectories import analysis, analysis_pages


def _scope(request, bench_slug: str):
    bench = get_object_or_404(Bench, slug=bench_slug)
    form = analysis.AnalysisFilters(request.GET)
    used = {k: v for k, v in form.cleaned_data.items() if v} if form.is_valid() else {}
    attempts = analysis.attempts_in_scope(bench, request.user, used)
    models = list(bench.models.order_by("slug").values_list("slug", "display_name", "harness"))
    context = {
        "bench": bench,
        # Harbor's n_attempts: the leaderboard counts every trial, the analyses
        # the first of each; the pages say how many further trials they leave out.
        "further_trials": analysis.attempts_in_scope(bench, request.user, used, every_trial=True)
        .filter(trial__gt=0)
        .count(),
        "filters": used,
        "models": models,
        "harnesses": sorted({h for _, _, h in models}),
    }
    return bench, used, attempts, context


def _api_url(name: str, bench: Bench, used: dict) -> str:
    params = {"bench": bench.slug, **{k: v for k, v in used.items() if k != "tool"}}
    return f"{reverse(name)}?{urlencode(params)}"


def _page(request, total: int, per_page: int) -> tuple[int, int]:
    """(page number, page count) from ?page=, clamped to the pages there are."""
    pages = max(1, math.ceil(total / per_page))
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    return min(max(page, 1), pages), pages


def index(request, bench):
    """/<bench>/analysis/: each analysis with its headline figures, over the same
    attempts its page reads (the filters apply here too)."""
    bench, used, attempts, context = _scope(request, bench)
    found = analysis.tool_failures(attempts)
    checks, failed_checks = analysis.protocol_checks(attempts)
    query = f"?{urlencode(used)}" if used else ""
    rows = [
        {
            "name": "tool-failures",
            "title": "Tool failures",
            "what": "Tool calls that came back failed, by tool (the harnesses' names for one "
            "tool folded together) and by model, with each failed call's command.",
            "figure": f"{found.failed} of {found.calls} tool calls failed",
            "url": reverse("analysis-tool-failures", args=[bench.slug]) + query,
            "api": _api_url("api-analysis-tool-failures", bench, used),
        },
        {
            "name": "protocol",
            "title": "Protocol failures",
            "what": "Failed L2 checks (how the vendor API was used: auth, idempotency, "
            "signatures, retries), by check, each with the vendor requests its verdict names.",
            "figure": f"{failed_checks} of {checks} L2 checks failed"
            if checks
            else "No L2 checks in these attempts",
            "url": reverse("analysis-protocol", args=[bench.slug]) + query,
            "api": _api_url("api-analysis-protocol", bench, used),
        },
    ]
    fmt = download.wanted(request)
    if fmt:
        columns = ["name", "title", "figure", "url", "api"]
        return download.table_response(
            fmt,
            name=f"{bench.slug}-analyses",
            columns=columns,
            rows=([row[c] for c in columns] for row in rows),
        )
    context.update(analyses=rows, attempt_count=found.attempts)
    return render(request, "trajectories/analysis_index.html", context)


def tool_failures(request, bench):
    bench, used, attempts, context = _scope(request, bench)
    found = analysis.tool_failures(attempts)
    families = analysis_pages.tool_families(found)
    tool = tool_family(used["tool"]) if used.get("tool") else None
    family = next((f for f in families if f.tool == tool), None)
    limit = settings.BENCHVIEW_LIMITS["analysis_max_rows"]
    calls = summary = None
    page = pages = total = 0
    if family is not None:
        failed = analysis_pages.failed_calls_of(attempts, family.raw)
        total = failed.count()
        page, pages = _page(request, total, limit)
        calls = analysis_pages.failed_calls_page(failed, offset=(page - 1) * limit, limit=limit)
        summary = analysis_pages.failed_summary(failed)
    fmt = download.wanted(request)
    if fmt and calls is not None:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-failed-{tool}",
            columns=["model", "task", "event", "tool", "exit_code", "command", "output"],
            rows=(
                [
                    e.attempt.model.slug,
                    e.attempt.task.slug,
                    e.index,
                    e.tool,
                    e.exit_code,
                    e.command,
                    (e.output or "")[:500],
                ]
                for e in calls
            ),
        )
    if fmt:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-tool-failures",
            columns=["tool", "raw_names", "calls", "failed", "failure_rate"],
            rows=(
                [f.tool, " ".join(f.raw), f.calls, f.failed, round(f.failure_rate, 6)]
                for f in families
            ),
        )
    context.update(
        found=found,
        families=families,
        tool=tool,
        family=family,
        failed_calls=calls,
        summary=summary,
        failed_total=total,
        page=page,
        pages=pages,
        first_row=(page - 1) * limit + 1,
        last_row=(page - 1) * limit + len(calls or []),
        base_query=urlencode({k: v for k, v in used.items() if k != "tool"}),
        api_url=_api_url("api-analysis-tool-failures", bench, used),
    )
    return render(request, "trajectories/analysis_tool_failures.html", context)


def protocol(request, bench):
    bench, used, attempts, context = _scope(request, bench)
    found = analysis.protocol_failures(attempts)
    check = request.GET.get("check", "")
    rows = [r for r in found.rows if r.name == check] if check else found.rows
    fmt = download.wanted(request)
    if fmt:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-protocol-failures",
            columns=["model", "task", "check", "mandatory", "detail", "requests"],
            rows=(
                [
                    r.attempt.model.slug,
                    r.attempt.task.slug,
                    r.name,
                    r.mandatory,
                    r.detail,
                    " ".join(v.ref for v in r.vendor_requests.all()),
                ]
                for r in rows
            ),
        )
    context.update(
        found=found,
        rows=rows,
        check=check,
        by_check=analysis_pages.protocol_by_check(attempts),
        base_query=urlencode(used),
        api_url=_api_url("api-analysis-protocol", bench, used),
    )
    return render(request, "trajectories/analysis_protocol.html", context)
