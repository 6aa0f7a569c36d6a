"""Fast inserts of many rows, through each database's own bulk path.

The ORM's ``bulk_create`` builds a model instance per row; for the tens of
thousands of events of one release that is most of the import's time. Here
rows are plain tuples: ``COPY`` on PostgreSQL, ``executemany`` elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.conf import settings
from django.db import connection
from django.db.models import Model


def _executemany(table: str, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    size = settings.BENCHVIEW_LIMITS["bulk_batch_size"]
    batch: list[tuple] = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) >= size:
                cursor.executemany(sql, batch)
                batch.clear()
        if batch:
            cursor.executemany(sql, batch)


def _copy(table: str, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    quote = connection.ops.quote_name
    sql = f"COPY {quote(table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


BULK_INSERTERS: dict[str, Callable[[str, Sequence[str], Iterable[tuple]], None]] = {
    "postgresql": _copy,
    "sqlite": _executemany,
}


def bulk_insert(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order, values ready for the
    database: JSON already encoded) into ``model``'s table."""
    inserter = BULK_INSERTERS.get(connection.vendor, _executemany)
    db_columns = [model._meta.get_field(c).column for c in columns]
    inserter(model._meta.db_table, db_columns, rows)
