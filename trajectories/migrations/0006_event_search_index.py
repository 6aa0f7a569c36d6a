"""The full-text index of events (trajectories.search.backends).

PostgreSQL: a stored generated tsvector column and its GIN index. SQLite: a
contentless FTS5 table and the triggers that keep it in step with the events
table (filled here for events imported before this migration). Both index the
same words: ASCII punctuation becomes a space before PostgreSQL's parser sees
the text, as FTS5's unicode61 tokenizer separates words on it.
"""

from django.conf import settings
from django.db import migrations

# Characters of each field indexed; fixed when this migration runs.
N = int(settings.BENCHVIEW_LIMITS["search_index_chars"])

PG_BODY = (
    f"left(coalesce(text, ''), {N}) || ' ' || left(coalesce(output, ''), {N}) || ' ' || tool"
    f" || ' ' || left(coalesce(doc ->> 'input', ''), {N})"
)
PG_FORWARD = [
    "ALTER TABLE trajectories_event ADD COLUMN search_vector tsvector GENERATED ALWAYS AS "
    "(to_tsvector('simple'::regconfig, regexp_replace("
    f"{PG_BODY}, '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g'))) STORED",
    # Search: events holding words and phrases (trajectories.search.backends).
    "CREATE INDEX trajectories_event_search ON trajectories_event USING gin (search_vector)",
]
PG_BACKWARD = ["ALTER TABLE trajectories_event DROP COLUMN search_vector"]


def _sqlite_body(row: str) -> str:
    return (
        f"substr(coalesce({row}.text, ''), 1, {N}) || ' ' || "
        f"substr(coalesce({row}.output, ''), 1, {N}) || ' ' || {row}.tool || ' ' || "
        f"substr(coalesce(json_extract({row}.doc, '$.input'), ''), 1, {N})"
    )


_INSERT = f"INSERT INTO trajectories_event_fts (rowid, body) VALUES (new.id, {_sqlite_body('new')});"
_DELETE = (
    "INSERT INTO trajectories_event_fts (trajectories_event_fts, rowid, body) "
    f"VALUES ('delete', old.id, {_sqlite_body('old')});"
)
SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE trajectories_event_fts USING fts5("
    "body, content='', tokenize='unicode61 remove_diacritics 0')",
    f"CREATE TRIGGER trajectories_event_fts_insert AFTER INSERT ON trajectories_event "
    f"BEGIN {_INSERT} END",
    f"CREATE TRIGGER trajectories_event_fts_delete AFTER DELETE ON trajectories_event "
    f"BEGIN {_DELETE} END",
    "CREATE TRIGGER trajectories_event_fts_update AFTER UPDATE OF text, output, tool, doc "
    f"ON trajectories_event BEGIN {_DELETE} {_INSERT} END",
    "INSERT INTO trajectories_event_fts (rowid, body) "
    f"SELECT id, {_sqlite_body('trajectories_event')} FROM trajectories_event",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER trajectories_event_fts_update",
    "DROP TRIGGER trajectories_event_fts_delete",
    "DROP TRIGGER trajectories_event_fts_insert",
    "DROP TABLE trajectories_event_fts",
]

SQL = {
    "postgresql": (PG_FORWARD, PG_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def _run(direction: int):
    def run(apps, schema_editor):
        statements = SQL.get(schema_editor.connection.vendor)
        if statements is None:
            return  # no search index on other databases; search reports it
        for statement in statements[direction]:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("trajectories", "0005_transcript_checks_and_event_lines"),
    ]

    operations = [migrations.RunPython(_run(0), _run(1))]
