"""The attempt page's search: events whose text, output, tool or JSON contain a string, any case.

An event's ``text`` or ``output`` may be hundreds of megabytes, and asking
SQLite to lower-case and search such a value builds several whole copies of it
inside this process (2.3 GB for one 255 MB event). On SQLite the two large
fields are therefore read through its incremental blob I/O in pieces of
``search_chunk_chars`` and searched as they stream, so memory stays a few
pieces whatever the size. A database server (PostgreSQL) searches them itself,
in its own memory, and sends only a snippet around the first hit.
"""

from __future__ import annotations

import codecs
import sqlite3
from collections.abc import Iterator

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, F, IntegerField, Q, Value
from django.db.models.functions import Greatest, Lower, StrIndex, Substr

from leaderboard.models import Attempt
from trajectories.models import Event
from trajectories.search.snippets import snippet_window

LARGE_FIELDS = ("text", "output")
ROW_FIELDS = ("index", "type", "tool")


def search_events(attempt: Attempt, q: str) -> tuple[list[dict], bool]:
    """Up to ``search_max_results`` matching events in index order, and whether more matched.

    One query. Each row has ``index``, ``type``, ``tool`` and, for ``text``
    and ``output``, ``<field>_hit`` (1-based position of the first hit, 0 or
    None for none), ``<field>_start`` (where the snippet starts) and
    ``<field>_snippet``.
    """
    limit = settings.BENCHVIEW_LIMITS["search_max_results"]
    search = SEARCHES.get(connection.vendor, _search_in_the_database)
    rows = search(Event.objects.filter(attempt=attempt).order_by("index"), q, limit + 1)
    return rows[:limit], len(rows) > limit


# --- a database server searches ---------------------------------------------------------------


def _snippet(field: str, needle: str) -> dict:
    before, length = snippet_window()
    hit = StrIndex(Lower(field), Lower(Value(needle)))
    start = Greatest(F(f"{field}_hit") - before, Value(1), output_field=IntegerField())
    return {
        f"{field}_hit": hit,
        f"{field}_snippet": Substr(field, start, length),
        f"{field}_start": start,
    }


def _search_in_the_database(events, q: str, count: int) -> list[dict]:
    matches = (
        events.filter(
            Q(text__icontains=q)
            | Q(output__icontains=q)
            | Q(tool__icontains=q)
            | Q(doc__icontains=q)
        )
        .annotate(**_snippet("text", q))
        .annotate(**_snippet("output", q))
        .values(
            *ROW_FIELDS,
            *(f"{f}_{part}" for f in LARGE_FIELDS for part in ("hit", "snippet", "start")),
        )
    )
    return list(matches[:count])


# --- SQLite: this process searches, piece by piece --------------------------------------------


def _search_streamed(events, q: str, count: int) -> list[dict]:
    chunk = settings.BENCHVIEW_LIMITS["search_chunk_chars"]
    needle = q.lower()
    # The small fields are searched by the database, in the same query.
    elsewhere = ExpressionWrapper(
        Q(tool__icontains=q) | Q(doc__icontains=q), output_field=BooleanField()
    )
    rows: list[dict] = []
    for event in events.values("pk", *ROW_FIELDS, elsewhere=elsewhere).iterator():
        row = {name: event[name] for name in ROW_FIELDS}
        for field in LARGE_FIELDS:
            hit, start, snippet = _scan(_blob_pieces(event["pk"], field, chunk), needle) or (
                0,
                0,
                "",
            )
            row |= {f"{field}_hit": hit, f"{field}_start": start, f"{field}_snippet": snippet}
        if row["text_hit"] or row["output_hit"] or event["elsewhere"]:
            rows.append(row)
            if len(rows) >= count:
                break
    return rows


def _scan(pieces: Iterator[str], needle: str) -> tuple[int, int, str] | None:
    """The first hit of ``needle`` (lower case) in the text the pieces make up.

    Returns (hit, start, snippet), positions 1-based as in SQL, or None. Only
    the current piece and a tail of the one before are held: the tail is long
    enough for a hit across the boundary and for the context before it.
    """
    before, length = snippet_window()
    keep = len(needle) - 1 + before
    consumed = 0  # characters dropped from the front of ``window``
    window = ""
    for piece in pieces:
        window += piece
        at = window.lower().find(needle)
        if at >= 0:
            rel = max(at - before, 0)
            while len(window) < rel + length:  # the snippet's end is in later pieces
                more = next(pieces, None)
                if more is None:
                    break
                window += more
            return consumed + at + 1, consumed + rel + 1, window[rel : rel + length]
        if len(window) > keep:
            consumed += len(window) - keep
            window = window[-keep:]
    return None


def _blob_pieces(pk: int, field: str, chunk: int) -> Iterator[str]:
    """The field's text in pieces, read through SQLite's blob I/O, never the whole value."""
    connection.ensure_connection()
    try:
        blob = connection.connection.blobopen(Event._meta.db_table, field, pk, readonly=True)
    except sqlite3.OperationalError:
        return  # NULL: the event has no such field
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    with blob:
        while data := blob.read(chunk):
            yield decoder.decode(data)
    if tail := decoder.decode(b"", final=True):
        yield tail


SEARCHES = {"sqlite": _search_streamed}
