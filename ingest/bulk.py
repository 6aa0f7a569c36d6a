"""Fast inserts of many rows, through each database's own bulk path.

The ORM's ``bulk_create`` builds a model instance per row; for the tens of
thousands of events of one release that is most of the import's time. Here
rows are plain tuples: ``COPY`` on PostgreSQL, ``executemany`` elsewhere.

``driver_insert`` writes through the driver's own connection, for a write on
another thread (ingest.background_write) that must not go through Django's
per-thread connection.
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


def _driver_copy(raw, table: str, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with raw.cursor() as cursor, cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def _driver_values(raw, table: str, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Many rows per INSERT: SQLite works through a whole statement, triggers
    and all, without taking the GIL back, where ``executemany`` takes it back
    for every row and waits for the main thread to let go of it each time.

    Statements hold a power of two of rows, at most ``bulk_values_rows``: the
    driver keeps each distinct statement it prepared (over a hundred), and a
    prepared INSERT of many rows is large, so their number stays small.
    """
    import sqlite3

    most = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // len(columns)
    wanted = settings.BENCHVIEW_LIMITS["bulk_values_rows"]
    size = 1 << (max(1, min(wanted, most)).bit_length() - 1)
    one = "(" + ", ".join("?" * len(columns)) + ")"
    head = f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
    width = len(columns)
    cursor = raw.cursor()
    try:
        chunk: list = []
        for row in rows:
            chunk.extend(row)
            if len(chunk) == size * width:
                cursor.execute(head + ", ".join([one] * size), chunk)
                chunk = []
        # What is left, as a sum of powers of two.
        start, left = 0, len(chunk) // width
        while left:
            part = 1 << (left.bit_length() - 1)
            cursor.execute(head + ", ".join([one] * part), chunk[start : start + part * width])
            start, left = start + part * width, left - part
    finally:
        cursor.close()


DRIVER_INSERTERS: dict[str, Callable[[object, str, Sequence[str], Iterable[tuple]], None]] = {
    "postgresql": _driver_copy,
    "sqlite": _driver_values,
}


def driver_insert(
    model: type[Model], columns: Sequence[str], rows: Callable[[], Iterable[tuple]]
) -> Callable[[object], None]:
    """A write of ``rows()`` into ``model``'s table through a driver connection
    (ingest.background_write); names are quoted here, on the calling thread."""
    inserter = DRIVER_INSERTERS[connection.vendor]
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    db_columns = [quote(model._meta.get_field(c).column) for c in columns]
    return lambda raw: inserter(raw, table, db_columns, rows())


def bulk_insert(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order, values ready for the
    database: JSON already encoded) into ``model``'s table."""
    inserter = BULK_INSERTERS.get(connection.vendor, _executemany)
    db_columns = [model._meta.get_field(c).column for c in columns]
    inserter(model._meta.db_table, db_columns, rows)
