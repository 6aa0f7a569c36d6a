"""The attempt page's search: the matches of a query inside one trajectory.

The query is the site's search language (``trajectories.search.query``:
words, "phrases", -excluded, type:, tool:, ok:, exit:), matched by the
full-text index (``backends``) restricted to the attempt, so the count of a
word held by every one of 200,000 events costs a walk of the index's entries,
not a read of every event's text. Matches are paged in event order: the
first page, the page after an event or the page before one, each with how
many matches come before it, so a reader (or the page's script) can step
from any match to the next or the previous, "3 of 41".

The snippet of each match on the page is cut around the first word of the
query. On SQLite the two large fields are read through SQLite's incremental
blob I/O in pieces of ``search_chunk_chars`` until that word, so an event of
hundreds of megabytes is never held whole in this process. A database server
(PostgreSQL) cuts it itself.

A search word also finds the words it begins (``refund``: ``refunds``), and
the few events longer than the index holds (``search_index_chars`` of each
field) are matched whole (``beyond_index``), so a word far into a huge output
is found, counted and reached like any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, Func, IntegerField, Max, Min, Q, QuerySet

from leaderboard.models import Attempt
from trajectories.models import Event
from trajectories.search import backends, beyond_index, snippets
from trajectories.search.bounded import SearchRefused, time_bound
from trajectories.search.engine import _matching
from trajectories.search.query import Query, parse

LARGE_FIELDS = ("text", "output")
ATTEMPT_FIELDS = ("type", "tool", "ok", "exit")  # the query's fields that apply to one attempt


@dataclass(frozen=True)
class Match:
    index: int
    type: str
    tool: str
    snippet: snippets.Snippet | None


@dataclass
class Matches:
    """One page of a trajectory's matches, in event order."""

    query: Query
    total: int  # every match in the trajectory
    offset: int  # matches before the first of ``matches``
    matches: list[Match]

    @property
    def last_number(self) -> int:
        """The 1-based number of the page's last match."""
        return self.offset + len(self.matches)

    @property
    def has_next(self) -> bool:
        return self.offset + len(self.matches) < self.total

    @property
    def has_previous(self) -> bool:
        return self.offset > 0


def in_attempt_query(q: str) -> Query:
    """``q`` parsed; fields that name attempts (model:, task:, …) are reported,
    since the search is inside one attempt already."""
    query = parse(q)
    for name in [n for n in query.filters if n not in ATTEMPT_FIELDS]:
        del query.filters[name]
        query.problems.append(f"{name}: is ignored here: this search is inside one attempt.")
    return query


# The matching events (unordered, unevaluated), and their count when it came cheaper on the way.
Found = tuple[QuerySet[Event], int | None]
# The attempt's events, the index's condition on them, and its count when FTS5 gave it.
Indexed = tuple[QuerySet[Event], Q, int | None]


def _events(attempt: Attempt, query: Query) -> Found:
    """The attempt's events the query matches: the index's answer, except for
    the events it holds only the beginning of, which are matched whole."""
    events = _matching(Event.objects.filter(attempt=attempt), replace(query, terms=[], excluded=[]))
    if not (query.terms or query.excluded):
        return events, None
    events, condition, total = WORDS_IN_ATTEMPT.get(connection.vendor, _words_anywhere)(
        attempt, events, query
    )
    cut = list(events.filter(backends.cut_condition()).values_list("index", flat=True))
    if not cut:
        return events.filter(condition), total
    whole = beyond_index.whole_matches(events.filter(index__in=cut), query)
    if total is not None:
        total += len(whole) - events.filter(condition, index__in=cut).count()
    return events.filter((condition & ~Q(index__in=cut)) | Q(index__in=whole)), total


def _words_anywhere(attempt: Attempt, events: QuerySet[Event], query: Query) -> Indexed:
    # PostgreSQL: the planner weighs the GIN index against (attempt, index) itself.
    return events, backends.text_condition(query.terms, query.excluded, prefix=True), None


def _words_sqlite(attempt: Attempt, events: QuerySet[Event], query: Query) -> Indexed:
    """FTS5 walks only the attempt's id range (one more query: its ends), and
    ``+id`` keeps SQLite from looking up each id it finds in the events table
    (a read of every matching row): it walks the attempt's entries of the
    (attempt, index) index, which hold their ids, in event order, and looks
    each id up among FTS5's instead."""
    span = Event.objects.filter(attempt=attempt).aggregate(
        low=Min("id"), high=Max("id"), events=Count("id")
    )
    if span["low"] is None:
        return events.none(), Q(), 0
    within = (span["low"], span["high"])
    match, holding = backends.fts_match(query.terms, query.excluded, prefix=True)
    found = Q(row__in=backends.fts_ids(match, within))
    unindexed = Func(F("id"), template="+%(expressions)s", output_field=IntegerField())
    events = events.annotate(row=unindexed)
    total = None
    if holding and not query.filters and span["high"] - span["low"] + 1 == span["events"]:
        # The attempt's events are exactly the id range (imports write them
        # together, so usually they are): FTS5 counts them without a lookup.
        with connection.cursor() as cursor:
            cursor.execute(*backends.fts_count(match, within))
            total = cursor.fetchone()[0]
    return events, found if holding else ~found, total


WORDS_IN_ATTEMPT = {"sqlite": _words_sqlite}


def attempt_matches(
    attempt: Attempt, q: str, *, after: int | None = None, before: int | None = None
) -> Matches:
    """The matches of ``q`` in ``attempt``: the first ``search_max_results``,
    those right after event ``after`` or right before event ``before``.

    Two queries (three with ``after`` or ``before``: the matches before the
    page are counted), and one for the snippets. Raises SearchRefused for a
    query past the limits or slower than ``search_time_limit_ms``.
    """
    query = in_attempt_query(q)
    if query.refusal:
        raise SearchRefused(query.refusal)
    if query.is_empty:
        return Matches(query, 0, 0, [])
    size = settings.BENCHVIEW_LIMITS["search_max_results"]
    with time_bound():
        events, total = _events(attempt, query)
        total = events.count() if total is None else total
        if before is not None:
            indexes = list(
                events.filter(index__lt=before)
                .order_by("-index")
                .values_list("index", flat=True)[:size]
            )[::-1]
            offset = events.filter(index__lt=indexes[0]).count() if indexes else total
        elif after is not None:
            indexes = list(
                events.filter(index__gt=after)
                .order_by("index")
                .values_list("index", flat=True)[:size]
            )
            offset = events.filter(index__lte=after).count()
        else:
            indexes = list(events.order_by("index").values_list("index", flat=True)[:size])
            offset = 0
        found = _with_snippets(attempt, indexes, query)
    return Matches(query, total, offset, found)


def _needle(query: Query) -> str | None:
    return query.terms[0].split()[0] if query.terms else None


def _with_snippets(attempt: Attempt, indexes: list[int], query: Query) -> list[Match]:
    """The page's matches with their snippets (one query): only the shown events are cut."""
    if not indexes:
        return []
    words, needle = query.highlight_words, _needle(query)
    cuts = snippets.annotations(needle)
    streamed = connection.vendor == "sqlite" and needle is not None
    if streamed:  # the tool input is small (part of the event's document): the database cuts it
        cuts = {k: v for k, v in cuts.items() if k.startswith("input_")}
    rows = (
        Event.objects.filter(attempt=attempt, index__in=indexes)
        .annotate(**cuts)
        .order_by("index")
        .values("pk", "index", "type", "tool", *cuts)
    )
    found = []
    for row in rows:
        if streamed:
            row |= _streamed_cuts(row["pk"], needle)
        snippet = snippets.pick(row, words, prefix=True)
        found.append(Match(row["index"], row["type"], row["tool"], snippet))
    return found


# --- SQLite: this process cuts the large fields, piece by piece -------------------------------


def _streamed_cuts(pk: int, needle: str) -> dict:
    chunk = settings.BENCHVIEW_LIMITS["search_chunk_chars"]
    cut = {}
    for field in LARGE_FIELDS:
        pieces = beyond_index.blob_pieces(pk, field, chunk)
        hit, start, snippet = _scan(pieces, needle.lower()) or (0, 0, "")
        if not hit:  # no hit: the field's beginning, as the database would cut it
            _, length = snippets.snippet_window()
            snippet = next(beyond_index.blob_pieces(pk, field, length), "")[:length]
        cut |= {f"{field}_hit": hit, f"{field}_start": start, f"{field}_snippet": snippet}
    return cut


def _scan(pieces: Iterator[str], needle: str) -> tuple[int, int, str] | None:
    """The first hit of ``needle`` (lower case) in the text the pieces make up.

    Returns (hit, start, snippet), positions 1-based as in SQL, or None. Only
    the current piece and a tail of the one before are held: the tail is long
    enough for a hit across the boundary and for the context before it.
    """
    before, length = snippets.snippet_window()
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
