"""The search inside one attempt, past what the full-text index holds.

The index holds the first ``search_index_chars`` of an event's text, output
and tool input. For the few events longer than that (listed by a partial
index, ``backends.cut_condition``) the query is decided here on the whole
event instead, with the index's rules: a phrase's words follow each other
with only non-word characters between them, the first starts a word, the
last may begin one (prefix), any case.

- SQLite: this process reads the two large fields through SQLite's blob I/O
  in pieces of ``search_chunk_chars`` (an event of hundreds of megabytes is
  never held whole; see in_attempt) and matches each piece with the tail of
  the one before, so a phrase across the boundary is still found.
- PostgreSQL: the server matches the same phrases as regular expressions, in
  its own memory.
"""

from __future__ import annotations

import codecs
import re
import sqlite3
from collections.abc import Iterator
from functools import reduce
from operator import or_

from django.conf import settings
from django.db import connection
from django.db.models import F, Q, QuerySet, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from trajectories.models import Event
from trajectories.search.query import Query

LARGE_FIELDS = ("text", "output")
# Characters of the piece before kept when the next is matched: a phrase
# (at most ``search_query_max_chars`` of words) with room for the runs of
# punctuation and spaces between its words.
TAIL_CHARS = 4096


def phrase_pattern(phrase: str) -> re.Pattern:
    """``phrase`` as a Python pattern with the index's word rules (prefix)."""
    return re.compile(
        r"(?<![^\W_])" + r"[\W_]+".join(re.escape(w) for w in phrase.split()), re.IGNORECASE
    )


def _pg_pattern(phrase: str) -> str:
    # The same in PostgreSQL's regular expressions (words hold only letters and digits).
    return r"(?<![[:alnum:]])" + "[^[:alnum:]]+".join(phrase.split())


def whole_matches(events: QuerySet[Event], query: Query) -> set[int]:
    """The indexes of ``events`` (events the index holds only the start of)
    whose whole text, output, tool and input match the query's phrases."""
    return MATCHERS.get(connection.vendor, _in_the_database)(events, query)


def _in_the_database(events: QuerySet[Event], query: Query) -> set[int]:
    # Each field as text, '' when absent: a phrase excluded must hold for the
    # events that lack a field too (NOT over NULL would drop them).
    fields = {
        f"whole_{name}": Coalesce(source, Value(""), output_field=TextField())
        for name, source in [
            ("text", F("text")),
            ("output", F("output")),
            ("tool", F("tool")),
            ("input", KT("doc__input")),
        ]
    }

    def anywhere(phrase: str) -> Q:
        pattern = _pg_pattern(phrase)
        return reduce(or_, (Q(**{f"{name}__iregex": pattern}) for name in fields))

    condition = Q()
    for phrase in query.terms:
        condition &= anywhere(phrase)
    for phrase in query.excluded:
        condition &= ~anywhere(phrase)
    return set(events.annotate(**fields).filter(condition).values_list("index", flat=True))


def _streamed(events: QuerySet[Event], query: Query) -> set[int]:
    chunk = settings.BENCHVIEW_LIMITS["search_chunk_chars"]
    phrases = [*query.terms, *query.excluded]
    patterns = [phrase_pattern(p) for p in phrases]
    found = set()
    # The tool input is read whole: it is JSON the agent wrote, seldom past the index's cut.
    rows = events.annotate(input=KT("doc__input")).values_list("pk", "index", "tool", "input")
    for pk, index, tool, tool_input in rows:
        small = f"{tool or ''} {tool_input or ''}"
        seen = {i for i, pattern in enumerate(patterns) if pattern.search(small)}
        for field in LARGE_FIELDS:
            if len(seen) == len(patterns):
                break
            seen |= _seen_in(blob_pieces(pk, field, chunk), patterns, skip=seen)
        terms = set(range(len(query.terms)))
        if terms <= seen and not seen - terms:  # every term, no excluded phrase
            found.add(index)
    return found


def _seen_in(pieces: Iterator[str], patterns: list[re.Pattern], skip: set[int]) -> set[int]:
    """Which of ``patterns`` occur in the text the pieces make up (those in
    ``skip`` are not looked for). Only a piece and the tail of the one before
    are held; the tail keeps one character more than it searches, so the
    first word's start is judged on the character before it."""
    seen: set[int] = set()
    tail = ""
    for piece in pieces:
        window = tail + piece
        start = 1 if tail else 0
        for i, pattern in enumerate(patterns):
            if i not in skip and i not in seen and pattern.search(window, start):
                seen.add(i)
        if len(seen | skip) == len(patterns):
            break
        tail = window[-(TAIL_CHARS + 1) :]
    return seen


def blob_pieces(pk: int, field: str, chunk: int) -> Iterator[str]:
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


MATCHERS = {"sqlite": _streamed}
