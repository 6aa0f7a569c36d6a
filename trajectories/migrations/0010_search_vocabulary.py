"""The search index's vocabulary, for "did you mean" (trajectories.search.suggest).

- PostgreSQL: a materialized view of every word of the events' search vectors
  (``ts_stat``) with the number of events holding it, and a trigram index
  (the ``pg_trgm`` extension, part of PostgreSQL's contrib) to find the words
  spelt like a query's. An import refreshes it in its own transaction.
- SQLite: an ``fts5vocab`` table over the FTS5 index, always current.
"""

from django.db import migrations

POSTGRESQL = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE MATERIALIZED VIEW trajectories_search_vocabulary AS "
    "SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM trajectories_event')",
    # Did you mean: words spelt like the query's (similarity, the % operator).
    "CREATE INDEX trajectories_search_vocabulary_trgm ON trajectories_search_vocabulary "
    "USING gin (word gin_trgm_ops)",
    # Did you mean: is this word in the index at all.
    "CREATE UNIQUE INDEX trajectories_search_vocabulary_word ON trajectories_search_vocabulary "
    "(word)",
]
SQLITE = [
    "CREATE VIRTUAL TABLE trajectories_event_fts_vocab "
    "USING fts5vocab(trajectories_event_fts, 'row')",
]
UNDO = {
    "postgresql": ["DROP MATERIALIZED VIEW IF EXISTS trajectories_search_vocabulary"],
    "sqlite": ["DROP TABLE IF EXISTS trajectories_event_fts_vocab"],
}


def _create(apps, schema_editor):
    statements = {"postgresql": POSTGRESQL, "sqlite": SQLITE}
    for statement in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


def _drop(apps, schema_editor):
    for statement in UNDO.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("trajectories", "0009_lz4_compression"),
    ]

    operations = [migrations.RunPython(_create, _drop)]
