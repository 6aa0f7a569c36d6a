"""Full-text matching of events, one backend per database, one interface.

A backend turns the query's phrases into a filter on events. Both index the
same text per event (its text, output, tool name and input, each cut to
``search_index_chars``) as the same words: runs of letters and digits,
case-folded, so the two databases give the same results.

- PostgreSQL: a stored generated ``tsvector`` column with a GIN index
  (``simple`` configuration: no stemming, no stop words); each phrase is a
  ``phraseto_tsquery``, matched on the row itself so the planner weighs the
  GIN index against the other filters.
- SQLite: a contentless FTS5 table kept in step with the events table by
  triggers; each phrase is an FTS5 phrase string.

The index is the database's own work inside the import's transaction: a
rolled-back import leaves it as it was, and deleted events leave no rows.
Migrations 0006 and 0007 create both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection
from django.db.models import BooleanField, F, Q
from django.db.models.expressions import Expression, RawSQL

FTS_TABLE = "trajectories_event_fts"
VECTOR_COLUMN = "search_vector"


def _fts_phrase(phrase: str) -> str:
    # Phrases hold only letters and digits (query.words), so quoting is safe.
    return '"' + phrase.lower() + '"'


def _fts_ids(match: str) -> RawSQL:
    return RawSQL(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s", [match])  # noqa: S608, S611 - a constant table; the match is a parameter


def _sqlite(terms: Sequence[str], excluded: Sequence[str]) -> Q:
    if not terms:
        # FTS5 cannot say "none of these" alone: leave out the events holding any.
        return ~Q(id__in=_fts_ids(" OR ".join(_fts_phrase(t) for t in excluded)))
    match = " AND ".join(_fts_phrase(t) for t in terms)
    match += "".join(f" NOT {_fts_phrase(t)}" for t in excluded)
    return Q(id__in=_fts_ids(match))


class VectorMatch(Expression):
    """``<events alias>.search_vector @@ <tsquery>``, on the events table of the
    query it is used in, whatever alias that table has there (a subquery's
    ``U0``): it compiles the row's id column and names its neighbour."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, terms: Sequence[str], excluded: Sequence[str]):
        super().__init__()
        self.id = F("id")
        self.terms, self.excluded = list(terms), list(excluded)

    def get_source_expressions(self):
        return [self.id]

    def set_source_expressions(self, exprs):
        (self.id,) = exprs

    def as_sql(self, compiler, connection):
        id_sql, id_params = compiler.compile(self.id)
        table = id_sql.rsplit(".", 1)[0] + "." if "." in id_sql else ""
        # Words go in as typed: PostgreSQL folds their case as it folded the index's.
        parts = ["phraseto_tsquery('simple', %s)"] * len(self.terms)
        parts += ["!!phraseto_tsquery('simple', %s)"] * len(self.excluded)
        sql = f"{table}{connection.ops.quote_name(VECTOR_COLUMN)} @@ ({' && '.join(parts)})"
        return sql, [*id_params, *self.terms, *self.excluded]


def _postgresql(terms: Sequence[str], excluded: Sequence[str]) -> Q:
    return Q(VectorMatch(terms, excluded))


BACKENDS: dict[str, Callable[[Sequence[str], Sequence[str]], Q]] = {
    "postgresql": _postgresql,
    "sqlite": _sqlite,
}


def text_condition(terms: Sequence[str], excluded: Sequence[str] = ()) -> Q:
    """A filter on events: every phrase of ``terms`` and none of ``excluded``
    (either may be empty, not both)."""
    if not (terms or excluded):
        raise ValueError("text_condition needs a phrase to look up")
    try:
        backend = BACKENDS[connection.vendor]
    except KeyError:
        raise NotImplementedError(f"no search backend for {connection.vendor}") from None
    return backend(terms, excluded)
