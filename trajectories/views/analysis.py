"""The analysis pages: tool failures and protocol failures across a bench."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from leaderboard.models import Bench
from trajectories import analysis


def _scope(request, bench_slug: str):
    bench = get_object_or_404(Bench, slug=bench_slug)
    form = analysis.AnalysisFilters(request.GET)
    used = {k: v for k, v in form.cleaned_data.items() if v} if form.is_valid() else {}
    attempts = analysis.attempts_in_scope(bench, request.user, used)
    models = list(bench.models.order_by("slug").values_list("slug", "display_name", "harness"))
    context = {
        "bench": bench,
        "filters": used,
        "models": models,
        "harnesses": sorted({h for _, _, h in models}),
    }
    return bench, used, attempts, context


def _api_url(name: str, bench: Bench, used: dict) -> str:
    params = {"bench": bench.slug, **{k: v for k, v in used.items() if k != "tool"}}
    return f"{reverse(name)}?{urlencode(params)}"


def tool_failures(request, bench):
    bench, used, attempts, context = _scope(request, bench)
    found = analysis.tool_failures(attempts)
    tool = used.get("tool")
    context.update(
        found=found,
        tool=tool,
        failed_calls=analysis.failed_calls(attempts, tool) if tool else None,
        limit=settings.BENCHVIEW_LIMITS["analysis_max_rows"],
        base_query=urlencode({k: v for k, v in used.items() if k != "tool"}),
        api_url=_api_url("api-analysis-tool-failures", bench, used),
    )
    return render(request, "trajectories/analysis_tool_failures.html", context)


def protocol(request, bench):
    bench, used, attempts, context = _scope(request, bench)
    context.update(
        found=analysis.protocol_failures(attempts),
        api_url=_api_url("api-analysis-protocol", bench, used),
    )
    return render(request, "trajectories/analysis_protocol.html", context)
