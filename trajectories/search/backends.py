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

With ``prefix`` (the search inside one attempt, where a reader types the
start of a word: ``refund`` finds ``refunds``), a phrase's last word also
matches the words it begins: FTS5's ``"…"*``, PostgreSQL's ``word:*``.

The index is the database's own work inside the import's transaction: a
rolled-back import leaves it as it was, and deleted events leave no rows.
Migrations 0006 and 0007 create both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, F, Q
from django.db.models.expressions import Expression, RawSQL

FTS_TABLE = "trajectories_event_fts"
VECTOR_COLUMN = "search_vector"


def _fts_phrase(phrase: str, prefix: bool = False) -> str:
    # Phrases hold only letters and digits (query.words), so quoting is safe.
    return '"' + phrase.lower() + '"' + ("*" if prefix else "")


def _ts_phrase(phrase: str, prefix: bool) -> str:
    # A to_tsquery operand: the words follow each other; the last one may begin a word.
    # Words hold only letters and digits (query.words): nothing in them is an operator.
    return " <-> ".join(phrase.split()) + (":*" if prefix else "")


def fts_ids(match: str, within: tuple[int, int] | None = None) -> RawSQL:
    """The rowids (event ids) FTS5 finds for ``match``; ``within``, an id range
    FTS5 restricts its walk to (one attempt's events)."""
    sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"  # noqa: S608 - a constant table
    if within is None:
        return RawSQL(sql, [match])  # noqa: S611 - the match is a parameter
    return RawSQL(sql + " AND rowid BETWEEN %s AND %s", [match, *within])  # noqa: S611 - parameters


def fts_count(match: str, within: tuple[int, int]) -> tuple[str, list]:
    """SQL and parameters counting the rowids FTS5 finds for ``match`` in a range of ids."""
    sql = f"SELECT count(*) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s AND rowid BETWEEN %s AND %s"  # noqa: S608 - a constant table
    return sql, [match, *within]


def fts_match(
    terms: Sequence[str], excluded: Sequence[str], prefix: bool = False
) -> tuple[str, bool]:
    """The FTS5 query of the phrases, and whether the events it finds are the
    matches (True) or those to leave out (False: FTS5 cannot say "none of
    these" alone, so excluded words without a term to find are inverted)."""
    if not terms:
        return " OR ".join(_fts_phrase(t, prefix) for t in excluded), False
    match = " AND ".join(_fts_phrase(t, prefix) for t in terms)
    match += "".join(f" NOT {_fts_phrase(t, prefix)}" for t in excluded)
    return match, True


def _sqlite(terms: Sequence[str], excluded: Sequence[str], prefix: bool) -> Q:
    match, holding = fts_match(terms, excluded, prefix)
    found = Q(id__in=fts_ids(match))
    return found if holding else ~found


class VectorMatch(Expression):
    """``<events alias>.search_vector @@ <tsquery>``, on the events table of the
    query it is used in, whatever alias that table has there (a subquery's
    ``U0``): it compiles the row's id column and names its neighbour."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, terms: Sequence[str], excluded: Sequence[str], prefix: bool = False):
        super().__init__()
        self.id = F("id")
        self.terms, self.excluded, self.prefix = list(terms), list(excluded), prefix

    def get_source_expressions(self):
        return [self.id]

    def set_source_expressions(self, exprs):
        (self.id,) = exprs

    def as_sql(self, compiler, connection):
        id_sql, id_params = compiler.compile(self.id)
        table = id_sql.rsplit(".", 1)[0] + "." if "." in id_sql else ""
        # Words go in as typed: PostgreSQL folds their case as it folded the index's.
        if self.prefix:
            function = "to_tsquery('simple', %s)"
            phrases = [_ts_phrase(p, True) for p in (*self.terms, *self.excluded)]
        else:
            function = "phraseto_tsquery('simple', %s)"
            phrases = [*self.terms, *self.excluded]
        parts = [function] * len(self.terms) + ["!!" + function] * len(self.excluded)
        sql = f"{table}{connection.ops.quote_name(VECTOR_COLUMN)} @@ ({' && '.join(parts)})"
        return sql, [*id_params, *phrases]


def _postgresql(terms: Sequence[str], excluded: Sequence[str], prefix: bool) -> Q:
    return Q(VectorMatch(terms, excluded, prefix))


# The events whose indexed text was cut (a field longer than the index
# holds), word for word the condition of the partial index of migration 0012,
# so the database answers it from that index without reading any text.
CUT = {
    "postgresql": "(length(text) > {n} OR length(output) > {n} OR length(doc ->> 'input') > {n})",
    "sqlite": (
        "(length(text) > {n} OR length(output) > {n} OR length(json_extract(doc, '$.input')) > {n})"
    ),
}


def cut_condition() -> RawSQL:
    """A filter on events: those the index holds only the beginning of."""
    n = int(settings.BENCHVIEW_LIMITS["search_index_chars"])
    # A constant condition and an integer setting: nothing from a request.
    return RawSQL(CUT[connection.vendor].format(n=n), [], output_field=BooleanField())  # noqa: S611


BACKENDS: dict[str, Callable[[Sequence[str], Sequence[str], bool], Q]] = {
    "postgresql": _postgresql,
    "sqlite": _sqlite,
}


def text_condition(
    terms: Sequence[str], excluded: Sequence[str] = (), *, prefix: bool = False
) -> Q:
    """A filter on events: every phrase of ``terms`` and none of ``excluded``
    (either may be empty, not both); ``prefix``: a phrase's last word also
    matches the words it begins."""
    if not (terms or excluded):
        raise ValueError("text_condition needs a phrase to look up")
    try:
        backend = BACKENDS[connection.vendor]
    except KeyError:
        raise NotImplementedError(f"no search backend for {connection.vendor}") from None
    return backend(terms, excluded, prefix)
