"""Fast inserts of many rows, through each database's own bulk path.

The ORM's ``bulk_create`` builds a model instance per row; for the tens of
thousands of events of one release that is most of the import's time. Here
rows are plain tuples: ``COPY`` on PostgreSQL, ``executemany`` elsewhere.

``driver_insert`` writes through the driver's own connection, for a write on
another thread (ingest.writing.background_write) that must not go through Django's
per-thread connection.

A table whose columns all have a binary ``COPY`` form here (``BINARY_COPY``:
no JSON) is copied in binary. For blobs, most of a release's bytes, the text
form wrote every byte as two hex digits for the server to decode again: ten
times the client's CPU and four times the server's of a binary copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.conf import settings
from django.db import connection
from django.db.models import Model


def _executemany(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    quote = connection.ops.quote_name
    table = model._meta.db_table
    db_columns = [model._meta.get_field(c).column for c in columns]
    sql = (
        f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in db_columns)}) "
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


# Django field type -> PostgreSQL type whose binary form psycopg writes.
BINARY_COPY: dict[str, str] = {
    "BigIntegerField": "int8",
    "BinaryField": "bytea",
    "BooleanField": "bool",
    "CharField": "text",  # varchar's binary form is text's
    "IntegerField": "int4",
    "TextField": "text",
}


def binary_copy_types(model: type[Model], columns: Sequence[str]) -> list[str] | None:
    """The types of a binary COPY of ``columns``, or None when one has no binary form here."""
    types = [BINARY_COPY.get(model._meta.get_field(c).get_internal_type()) for c in columns]
    return None if None in types else types


def _copy_rows(cursor, sql: str, rows: Iterable[tuple], types: list[str] | None) -> None:
    if types is not None:
        sql += " (FORMAT BINARY)"
    with cursor.copy(sql) as copy:
        if types is not None:
            copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def _copy(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    quote = connection.ops.quote_name
    db_columns = [quote(model._meta.get_field(c).column) for c in columns]
    sql = f"COPY {quote(model._meta.db_table)} ({', '.join(db_columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        _copy_rows(cursor.cursor, sql, rows, binary_copy_types(model, columns))


BULK_INSERTERS: dict[str, Callable[[type[Model], Sequence[str], Iterable[tuple]], None]] = {
    "postgresql": _copy,
    "sqlite": _executemany,
}


def _driver_copy(
    raw, table: str, columns: Sequence[str], rows: Iterable[tuple], types: list[str] | None
) -> None:
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with raw.cursor() as cursor:
        _copy_rows(cursor, sql, rows, types)


def _driver_values(
    raw, table: str, columns: Sequence[str], rows: Iterable[tuple], types: list[str] | None
) -> None:
    """Many rows per INSERT: SQLite works through a whole statement, triggers
    and all, without taking the GIL back, where ``executemany`` takes it back
    for every row and waits for the main thread to let go of it each time.

    ``types`` is for PostgreSQL's binary COPY; SQLite binds values as they are.

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


# (driver connection, quoted table, quoted columns, rows, binary COPY types or None)
DRIVER_INSERTERS: dict[str, Callable[..., None]] = {
    "postgresql": _driver_copy,
    "sqlite": _driver_values,
}


def driver_insert(
    model: type[Model], columns: Sequence[str], rows: Callable[[], Iterable[tuple]]
) -> Callable[[object], None]:
    """A write of ``rows()`` into ``model``'s table through a driver connection
    (ingest.writing.background_write); names are quoted here, on the calling thread."""
    inserter = DRIVER_INSERTERS[connection.vendor]
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    db_columns = [quote(model._meta.get_field(c).column) for c in columns]
    types = binary_copy_types(model, columns)
    return lambda raw: inserter(raw, table, db_columns, rows(), types)


def bulk_insert(model: type[Model], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order, values ready for the
    database: JSON already encoded) into ``model``'s table."""
    inserter = BULK_INSERTERS.get(connection.vendor, _executemany)
    inserter(model, columns, rows)
