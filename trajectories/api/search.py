"""/api/search/?bench=<id>&q=…: the search page's results as JSON.

The same query language and the same field parameters as the page
(trajectories.search.query); visibility as on the page.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboard.models import Bench
from trajectories.search.bounded import SearchRefused
from trajectories.search.engine import search
from trajectories.search.query import FIELDS
from trajectories.views.search import attempt_prefix, page_number, query_from, suggestion_for

_PARAMETERS = [
    OpenApiParameter("bench", OpenApiTypes.STR, required=True, description="bench id"),
    OpenApiParameter("q", OpenApiTypes.STR, description="the query (see docs/search.md)"),
    OpenApiParameter("page", OpenApiTypes.INT, description="results page (attempts), from 1"),
    *(OpenApiParameter(name, OpenApiTypes.STR, description=text) for name, text in FIELDS.items()),
]


def _count(tally) -> dict:
    return {"value": tally.value, "capped": tally.capped}


class SearchView(APIView):
    """Events matching a query, grouped by attempt, with facet counts."""

    @extend_schema(parameters=_PARAMETERS, responses=OpenApiTypes.OBJECT)
    def get(self, request):
        slug = request.query_params.get("bench", "")
        if not slug:
            raise ValidationError({"bench": ["a bench id is required"]})
        bench = Bench.objects.filter(slug=slug).first() if "\x00" not in slug else None
        if bench is None:
            raise ValidationError({"bench": [f"no bench {slug!r}"]})
        query = query_from(request.query_params)
        try:
            found = search(
                bench=bench, user=request.user, query=query, page=page_number(request.query_params)
            )
        except SearchRefused as exc:
            raise ValidationError({"q": [str(exc)]}) from exc
        prefix = request.build_absolute_uri(attempt_prefix(bench.slug))
        return Response(
            {
                "bench": bench.slug,
                "query": query.describe(),
                "total": _count(found.total),
                "attempts": _count(found.attempts),
                "page": found.page,
                "has_next": found.has_next,
                # A respelt q that finds something, when this one found nothing.
                "did_you_mean": suggestion_for(request.query_params, bench, request.user, found),
                "results": [
                    {
                        "model": g.attempt.model.slug,
                        "display_name": g.attempt.model.display_name,
                        "task": g.attempt.task.slug,
                        "score": g.attempt.score,
                        "matches_total": g.total,
                        "matches": [
                            {
                                "index": m.index,
                                "type": m.type,
                                "tool": m.tool,
                                "ok": m.ok,
                                "exit_code": m.exit_code,
                                "url": f"{prefix}{g.attempt.model.slug}/"
                                f"{g.attempt.task.slug}/#e{m.index}",
                                "field": m.snippet.field if m.snippet else None,
                                "snippet": m.snippet.plain if m.snippet else None,
                            }
                            for m in g.matches
                        ],
                    }
                    for g in found.groups
                ],
                "facets": {
                    name: [{"value": f.value, "label": f.label, "count": f.count} for f in facets]
                    for name, facets in found.facets.items()
                },
                "facets_capped": found.facets_capped,
            }
        )
