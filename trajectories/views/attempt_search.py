"""…/<model>/<task>/search/?q=…: the matches of a search inside one trajectory, as JSON.

What the attempt page's script asks for to count the matches and step from
one to the next or the previous, loading the slices they are in: the first
page of matches, the page after an event (``after=N``) or before one
(``before=N``), each with ``offset``, the matches before it. The attempt page
itself (``?q=…``) lists the same pages as HTML for readers without the script.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.utils.cache import patch_vary_headers

from trajectories import queries
from trajectories.queries import trial_number
from trajectories.search.bounded import SearchRefused
from trajectories.search.in_attempt import Matches, attempt_matches


def event_number(params, name: str) -> int | None:
    """An event index from the query string, None when absent; 404 when not one."""
    raw = params.get(name)
    if raw is None:
        return None
    # isdecimal and a bounded length: int() refuses "²" and numbers of thousands of digits.
    if not (raw.isdecimal() and len(raw) < 12):
        raise Http404(f"{name} must be an event number.")
    return int(raw)


def matches_document(found: Matches, events_url: str) -> dict:
    return {
        "query": found.query.describe(),
        "words": found.query.highlight_words,
        "total": found.total,
        "offset": found.offset,
        "matches": [
            {
                "index": m.index,
                "type": m.type,
                "tool": m.tool,
                "field": m.snippet.field if m.snippet else "",
                # Escaped first, then the query's words put in <mark>.
                "snippet_html": str(m.snippet.html) if m.snippet else "",
                "cut_before": bool(m.snippet and m.snippet.cut_before),
                "url": f"{events_url}{m.index}/",
            }
            for m in found.matches
        ],
    }


def attempt_search(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user,
        bench=bench,
        model=model,
        task=task,
        trial=trial_number(trial),
        relations=queries.SLICE_RELATIONS,
    )
    after, before = event_number(request.GET, "after"), event_number(request.GET, "before")
    try:
        matches = attempt_matches(found, request.GET.get("q", ""), after=after, before=before)
    except SearchRefused as exc:
        response = JsonResponse(
            {"error": {"code": "invalid", "parameters": {"q": [str(exc)]}}}, status=400
        )
    else:
        events_url = request.path.removesuffix("search/") + "events/"
        response = JsonResponse(matches_document(matches, events_url))
    # Staff may see staged attempts: what a search finds depends on who asks.
    patch_vary_headers(response, ("Cookie",))
    return response
