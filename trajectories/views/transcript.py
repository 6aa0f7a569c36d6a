"""The raw transcript of one attempt, line by line with anchors (``#L120``).

The attempt page links each event to the lines it came from; here each line
links back to its event, and a line that gave no event shows why. Same
visibility as the attempt page (staged: staff only). Streamed: the head
renders through the template, the lines as the blob is read.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.http import StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from trajectories import queries
from trajectories.documents import blob_chunks
from trajectories.queries import trial_number
from trajectories.render.transcript_html import render_lines

# Where the lines go in the rendered template (escaped page text cannot hold it).
LINES_MARK = "<!--benchview:lines-->"


def transcript(request, bench: str, model: str, task: str, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user, bench=bench, model=model, task=task, trial=trial_number(trial)
    )
    check = getattr(found, "transcript_check", None)
    blob = queries.transcript_blob(found)
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
            "lines_mark": mark_safe(LINES_MARK),  # noqa: S308 - a constant
        },
        request,
    )
    head, tail = page.split(LINES_MARK, 1)
    lines = render_lines(
        blob_chunks(blob),
        events=queries.event_of_line(found),
        unmapped={line: reason for line, reason in check.unmapped} if check else {},
        piece_bytes=settings.BENCHVIEW_LIMITS["transcript_page_chunk_bytes"],
    )
    return StreamingHttpResponse(
        _pieces(head, lines, tail), content_type="text/html; charset=utf-8"
    )


def _pieces(head: str, lines: Iterator[str], tail: str) -> Iterator[str]:
    yield head
    yield from lines
    yield tail
