"""/<bench>/search/: events across every trajectory the visitor may see.

The query language is in ``trajectories.search.query``; form controls are
the same fields as query parameters, so every view of the results is a link.
``?format=csv`` or ``?format=json`` downloads the matches.
"""

from __future__ import annotations

import csv
from urllib.parse import urlencode

from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse

from formats.tools import TOOL_FAMILIES
from leaderboard import queries
from leaderboard.models import Model, Task
from trajectories.search.bounded import SearchRefused
from trajectories.search.engine import Results, Tally, download_rows, search
from trajectories.search.query import FIELDS, Query, parse
from trajectories.search.suggest import did_you_mean

EVENT_TYPES = ("tool_call", "message", "reasoning", "error", "user", "system")
DOWNLOAD_COLUMNS = (
    "model", "task", "score", "index", "type", "tool", "ok", "exit_code", "field", "snippet", "url",
)  # fmt: skip


def query_from(params) -> Query:
    """The query of a request's GET parameters: ``q`` and the field controls."""
    return parse(params.get("q", ""), {name: params.getlist(name) for name in FIELDS})


def suggestion_for(request_params, bench, user, results) -> str | None:
    """A respelt query when this one found nothing (trajectories.search.suggest)."""
    if results.total.value or not results.query.terms:
        return None
    params = {name: request_params.getlist(name) for name in FIELDS}
    return did_you_mean(bench=bench, user=user, q=request_params.get("q", ""), params=params)


def page_number(params) -> int:
    try:
        return max(1, int(params.get("page", "1")))
    except ValueError:
        return 1


def _state(params) -> list[tuple[str, str]]:
    """The request's search parameters, minus paging and format."""
    return [(k, v) for k in ["q", *FIELDS] for v in params.getlist(k) if v]


def _link(state: list[tuple[str, str]], **changes) -> str:
    pairs = [(k, v) for k, v in state if k not in changes]
    for key, value in changes.items():
        if value is not None:
            pairs.append((key, value))
    return "?" + urlencode(pairs)


def attempt_prefix(bench: str) -> str:
    # Attempt pages differ in their last two segments: one reverse() for all.
    return reverse("attempt", args=[bench, "m", "t"]).removesuffix("m/t/")


def _download(request, bench, query: Query, fmt: str):
    prefix = request.build_absolute_uri(attempt_prefix(bench.slug))
    rows = (
        {**row, "url": f"{prefix}{row['model']}/{row['task']}/#e{row['index']}"}
        for row in download_rows(bench, request.user, query)  # may raise SearchRefused
    )
    if fmt == "json":
        return JsonResponse({"bench": bench.slug, "query": query.describe(), "rows": list(rows)})

    class Echo:
        def write(self, value):
            return value

    writer = csv.writer(Echo())
    lines = (writer.writerow([row[c] for c in DOWNLOAD_COLUMNS]) for row in rows)
    response = StreamingHttpResponse(
        (line for part in ([writer.writerow(DOWNLOAD_COLUMNS)], lines) for line in part),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{bench.slug}-search.csv"'
    return response


def search_page(request, bench: str) -> HttpResponse:
    bench = queries.bench_or_404(bench)
    query = query_from(request.GET)
    fmt = request.GET.get("format", "")
    page, refusal = page_number(request.GET), None
    try:
        if fmt in ("csv", "json"):
            return _download(request, bench, query, fmt)
        results = search(bench=bench, user=request.user, query=query, page=page)
    except SearchRefused as exc:
        refusal = str(exc)
        results = Results(query, Tally(0, False), Tally(0, False), [], page, False)
    state = _state(request.GET)
    # A refused query is not respelt: that would run the search it refused.
    suggestion = None if refusal else suggestion_for(request.GET, bench, request.user, results)
    models = list(
        Model.objects.filter(bench=bench).ranked().values_list("slug", "display_name", "harness")
    )
    tasks = list(
        Task.objects.visible_to(request.user)
        .filter(bench=bench)
        .order_by("slug")
        .values_list("slug", "surface")
    )
    prefix = attempt_prefix(bench.slug)
    return render(
        request,
        "trajectories/search.html",
        {
            "refusal": refusal,
            "bench": bench,
            "q": request.GET.get("q", ""),
            "query": query,
            "results": results,
            "suggestion": suggestion,
            "suggestion_link": _link(state, q=suggestion, page=None) if suggestion else "",
            "prefix": prefix,
            "facet_links": {
                name: [(f, _link(state, **{name: f.value, "page": None})) for f in found]
                for name, found in results.facets.items()
            },
            "next_link": _link(state, page=str(results.page + 1)) if results.has_next else "",
            "previous_link": _link(state, page=str(results.page - 1)) if results.page > 1 else "",
            "csv_link": _link(state, format="csv"),
            "json_link": _link(state, format="json"),
            "api_url": reverse("api-search") + "?" + urlencode([("bench", bench.slug), *state]),
            "controls": {
                "type": EVENT_TYPES,
                "tool": sorted(TOOL_FAMILIES),
                "model": [(slug, name) for slug, name, _ in models],
                "harness": sorted({h for _, _, h in models}),
                "task": [slug for slug, _ in tasks],
                "surface": sorted({s for _, s in tasks}),
            },
            "selected": {name: request.GET.get(name, "") for name in FIELDS},
        },
        status=400 if refusal else 200,
    )
