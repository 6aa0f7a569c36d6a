"""Did you mean: a query's unknown words respelt from the index's own vocabulary.

"tiemout" finds nothing where "timeout" finds hundreds. When a search finds
nothing, each of its words that no event holds is replaced by the indexed
word spelt most like it (trigram similarity, as PostgreSQL's ``pg_trgm``
measures it, at its default threshold of 0.3; ties go to the word more
events hold). The respelt query is offered only if it finds something among
the attempts the visitor may see, so a word known only from a hidden
trajectory is never suggested.

The vocabulary (migration 0010): PostgreSQL's materialized view of the
events' search vectors, refreshed by every import; SQLite's ``fts5vocab``
table over its FTS5 index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.db import connection, transaction

from leaderboard.models import Bench
from trajectories.search.engine import matching_events
from trajectories.search.query import FIELDS, PIECE, parse, words

# pg_trgm's default similarity threshold (its % operator).
THRESHOLD = 0.3
# Candidates differ from the typed word by at most this many letters in length.
LENGTH_SLACK = 2
PG_VIEW = "trajectories_search_vocabulary"
SQLITE_VOCAB = "trajectories_event_fts_vocab"


def trigrams(word: str) -> set[str]:
    """pg_trgm's trigrams of one word: lower-cased, padded with two spaces
    before and one after."""
    padded = f"  {word.lower()} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def similarity(a: str, b: str) -> float:
    """pg_trgm's ``similarity``: shared trigrams over all trigrams of both."""
    ta, tb = trigrams(a), trigrams(b)
    return len(ta & tb) / len(ta | tb) if ta or tb else 0.0


def _pg_known(found: Sequence[str]) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT word FROM {PG_VIEW} WHERE word = ANY(%s)", [list(found)])  # noqa: S608 - a constant view; values are parameters
        return {row[0] for row in cursor.fetchall()}


def _pg_candidates(word: str) -> list[tuple[str, int]]:
    with connection.cursor() as cursor:
        # The % operator uses the trigram index at pg_trgm's threshold (0.3).
        cursor.execute(
            f"SELECT word, ndoc FROM {PG_VIEW} WHERE word %% %s AND length(word) BETWEEN %s AND %s",  # noqa: S608 - a constant view
            [word, len(word) - LENGTH_SLACK, len(word) + LENGTH_SLACK],
        )
        return cursor.fetchall()


def _sqlite_known(found: Sequence[str]) -> set[str]:
    marks = ", ".join("%s" for _ in found)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT term FROM {SQLITE_VOCAB} WHERE term IN ({marks})", list(found))  # noqa: S608 - a constant view; values are parameters
        return {row[0] for row in cursor.fetchall()}


def _sqlite_candidates(word: str) -> list[tuple[str, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT term, doc FROM {SQLITE_VOCAB} WHERE length(term) BETWEEN %s AND %s",  # noqa: S608 - a constant view
            [len(word) - LENGTH_SLACK, len(word) + LENGTH_SLACK],
        )
        return cursor.fetchall()


# Per database: which of these words the index holds; the indexed words
# near one (with the number of events holding each).
VOCABULARIES: dict[str, tuple[Callable, Callable]] = {
    "postgresql": (_pg_known, _pg_candidates),
    "sqlite": (_sqlite_known, _sqlite_candidates),
}


def respell(word: str, candidates: Iterable[tuple[str, int]]) -> str | None:
    """The candidate spelt most like ``word`` (then the commoner, then the
    first alphabetically), if any is similar enough."""
    scored = [(similarity(word, c), n, c) for c, n in candidates if c != word and c.isalnum()]
    scored = [s for s in scored if s[0] >= THRESHOLD]
    if not scored:
        return None
    return min(scored, key=lambda s: (-s[0], -s[1], s[2]))[2]


def corrections(found: Sequence[str]) -> dict[str, str]:
    """Each word of ``found`` (case-folded) the index does not hold, mapped
    to its respelling where there is one."""
    known_of, candidates_of = VOCABULARIES[connection.vendor]
    folded = sorted({w.casefold() for w in found})
    if not folded:
        return {}
    known = known_of(folded)
    fixes = {}
    for word in folded:
        if word not in known:
            better = respell(word, candidates_of(word))
            if better:
                fixes[word] = better
    return fixes


def rewrite(q: str, fixes: dict[str, str]) -> str:
    """``q`` with the words of its plain and quoted terms respelt; fields and
    excluded words stay as typed."""

    def piece(match) -> str:
        text = match.group(0)
        if match["neg"] or (match["field"] and match["field"] in FIELDS):
            return text
        for word in set(words(text)):
            if word.casefold() in fixes:
                text = text.replace(word, fixes[word.casefold()])
        return text

    return PIECE.sub(piece, q)


def did_you_mean(*, bench: Bench, user, q: str, params: dict[str, list[str]]) -> str | None:
    """A respelt ``q`` that finds events ``user`` may see in ``bench``, or None
    (also when ``q`` has no word the index lacks)."""
    query = parse(q, params)
    fixes = corrections([w for term in query.terms for w in term.split()])
    if not fixes:
        return None
    better = rewrite(q, fixes)
    return better if matching_events(bench, user, parse(better, params)).exists() else None


def refresh_vocabulary() -> None:
    """Bring the vocabulary up to the events table: PostgreSQL's view is a
    snapshot (SQLite's table reads the index itself). Inside the caller's
    transaction, so a rolled-back import leaves the old vocabulary."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"REFRESH MATERIALIZED VIEW {PG_VIEW}")
