"""The raw transcript of one attempt, line by line with anchors (``#L120``).

The attempt page links each event to the lines it came from; here each line
links back to its event, and a line that gave no event shows why. Same
visibility as the attempt page (staged: staff only). Streamed: the head
renders through the template, the lines as the blob is read.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string

from core.html import html
from trajectories import queries
from trajectories.documents import blob_chunks
from trajectories.queries import trial_number
from trajectories.render.transcript_html import page_start, render_lines, whole_line

# Where the lines go in the rendered template (escaped page text cannot hold it).
LINES_MARK = html("<!--benchview:lines-->")


def transcript(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user, bench=bench, model=model, task=task, trial=trial_number(trial)
    )
    check = getattr(found, "transcript_check", None)
    blob = queries.transcript_blob(found)
    if "line" in request.GET:
        return _one_line(request, blob)
    pages = _page(request, check.lines_total if check else None)
    page = render_to_string(
        "trajectories/transcript.html",
        {
            "attempt": found,
            "bench": found.bench,
            "model": found.model,
            "task": found.task,
            "evidence": found.evidence,
            "size": blob.size,
            "transcript_check": check,
            "lines_mark": LINES_MARK,
            "pages": pages,
        },
        request,
    )
    head, tail = page.split(LINES_MARK, 1)
    lines = render_lines(
        blob_chunks(blob),
        events=queries.event_of_line(found),
        unmapped={line: reason for line, reason in check.unmapped} if check else {},
        piece_bytes=settings.BENCHVIEW_LIMITS["transcript_page_chunk_bytes"],
        first_line=pages["first"],
        last_line=pages["last"],
        line_bytes=settings.BENCHVIEW_LIMITS["transcript_line_bytes"],
    )
    return StreamingHttpResponse(
        _pieces(head, lines, tail), content_type="text/html; charset=utf-8"
    )


def _one_line(request, blob) -> HttpResponse:
    """``?line=N``: that line whole, as plain text (the page shows long lines cut)."""
    raw = request.GET["line"]
    number = int(raw) if raw.isdecimal() and len(raw) < 12 else 0
    line = whole_line(blob_chunks(blob), number) if number else None
    if line is None:
        raise Http404("The transcript has no such line.")
    response = HttpResponse(line, content_type="text/plain; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _page(request, lines_total: int | None) -> dict:
    """Which lines this page shows (``?from=N``, ``?all=1``) and its neighbours.

    Pages are fixed runs of lines, so any line's page is known without reading
    the transcript (render.transcript_html.line_href).
    """
    per_page = settings.BENCHVIEW_LIMITS["transcript_page_lines"]
    if request.GET.get("all") == "1":
        return {"first": 1, "last": None, "all": True, "prev": None, "next": None}
    raw = request.GET.get("from", "1")
    first = page_start(int(raw) if raw.isdecimal() and len(raw) < 12 else 1, per_page)
    last = first + per_page - 1
    more = lines_total is None or last < lines_total
    return {
        "first": first,
        "last": last,
        "all": False,
        "shown_last": last if lines_total is None else min(last, lines_total),
        "prev": max(first - per_page, 1) if first > 1 else None,
        "next": last + 1 if more else None,
        "paged": first > 1 or more,
    }


def _pieces(head: str, lines: Iterator[str], tail: str) -> Iterator[str]:
    yield head
    yield from lines
    yield tail
