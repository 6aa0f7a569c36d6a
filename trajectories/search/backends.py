"""Full-text matching of events, one backend per database, one interface.

A backend turns the query's phrases into a SQL subquery of matching event
ids. Both index the same text per event (its text, output, tool name and
input, each cut to ``search_index_chars``) as the same words: runs of letters
and digits, case-folded, so the two databases give the same results.

- PostgreSQL: a stored generated ``tsvector`` column with a GIN index
  (``simple`` configuration: no stemming, no stop words); each phrase is a
  ``phraseto_tsquery``.
- SQLite: a contentless FTS5 table kept in step with the events table by
  triggers; each phrase is an FTS5 phrase string.

The index is the database's own work inside the import's transaction: a
rolled-back import leaves it as it was, and deleted events leave no rows.
Migration 0004 creates both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection
from django.db.models.expressions import RawSQL

FTS_TABLE = "trajectories_event_fts"
VECTOR_COLUMN = "search_vector"
EVENT_TABLE = "trajectories_event"


def _fts_phrase(phrase: str) -> str:
    # Phrases hold only letters and digits (query.words), so quoting is safe.
    return '"' + phrase + '"'


def _sqlite_ids(terms: Sequence[str], excluded: Sequence[str], any_of: bool) -> RawSQL:
    if any_of:
        match = " OR ".join(_fts_phrase(t.lower()) for t in terms)
    else:
        match = " AND ".join(_fts_phrase(t.lower()) for t in terms)
        match += "".join(f" NOT {_fts_phrase(t.lower())}" for t in excluded)
    return RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [match])


def _postgresql_ids(terms: Sequence[str], excluded: Sequence[str], any_of: bool) -> RawSQL:
    # Words go in as typed: PostgreSQL folds their case as it folded the index's.
    parts = ["phraseto_tsquery('simple', %s)"] * len(terms)
    if any_of:
        tsquery = " || ".join(parts)
        params = list(terms)
    else:
        parts += ["!!phraseto_tsquery('simple', %s)"] * len(excluded)
        tsquery = " && ".join(parts)
        params = [*terms, *excluded]
    sql = f"SELECT id FROM {EVENT_TABLE} WHERE {VECTOR_COLUMN} @@ ({tsquery})"
    return RawSQL(sql, params)


BACKENDS: dict[str, Callable[[Sequence[str], Sequence[str], bool], RawSQL]] = {
    "postgresql": _postgresql_ids,
    "sqlite": _sqlite_ids,
}


def _backend():
    try:
        return BACKENDS[connection.vendor]
    except KeyError:
        raise NotImplementedError(f"no search backend for {connection.vendor}") from None


def matching_ids(terms: Sequence[str], excluded: Sequence[str] = ()) -> RawSQL:
    """A subquery of the ids of events holding every phrase of ``terms`` and
    none of ``excluded`` (``terms`` must not be empty)."""
    if not terms:
        raise ValueError("matching_ids needs at least one phrase to look up")
    return _backend()(terms, excluded, False)


def any_ids(phrases: Sequence[str]) -> RawSQL:
    """A subquery of the ids of events holding at least one of ``phrases``."""
    if not phrases:
        raise ValueError("any_ids needs at least one phrase to look up")
    return _backend()(phrases, (), True)
