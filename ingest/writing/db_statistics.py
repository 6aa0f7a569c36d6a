"""Fresh planner statistics after an import.

An import can multiply a table's rows; until the database samples them again
its planner plans searches and pages for the tables as they were (on an empty
table, a per-attempt index scan repeated hundreds of times where one scan
would do). Nothing else samples them where autovacuum is off, so the import
does, once, after it commits.
"""

from __future__ import annotations

import logging

from django.apps import apps
from django.db import DatabaseError, connection

log = logging.getLogger(__name__)

# The apps whose tables an import writes.
IMPORTED_APPS = ("leaderboard", "trajectories")
# SQLite rows examined per index (PRAGMA analysis_limit): an estimate is all
# the planner needs, and a full ANALYZE reads every index of every table.
SQLITE_ANALYSIS_ROWS = 1000


def _tables() -> list[str]:
    return sorted(
        model._meta.db_table
        for label in IMPORTED_APPS
        for model in apps.get_app_config(label).get_models()
        if model._meta.managed
    )


def _postgresql(cursor, tables: list[str]) -> None:
    cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(t) for t in tables))


def _sqlite(cursor, tables: list[str]) -> None:
    cursor.execute(f"PRAGMA analysis_limit = {SQLITE_ANALYSIS_ROWS}")
    for table in tables:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")


ANALYSERS = {"postgresql": _postgresql, "sqlite": _sqlite}


def statistics_refresh() -> None:
    """Sample the imported apps' tables for the planner (ANALYZE). A failure
    is logged, not raised: the import it follows has committed."""
    analyse = ANALYSERS.get(connection.vendor)
    if analyse is None:
        return
    try:
        with connection.cursor() as cursor:
            analyse(cursor, _tables())
    except DatabaseError:
        log.exception("ANALYZE after the import failed; searches may plan badly until it runs")
