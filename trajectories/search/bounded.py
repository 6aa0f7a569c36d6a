"""A time bound on a search's queries: past it the search is refused, not finished.

A query the planner gets wrong, or one that matches nearly everything, could
otherwise hold a worker until the server kills it. Inside ``time_bound`` every
query the search runs gets what is left of ``search_time_limit_ms``:

- PostgreSQL: the block is a transaction, and before each query
  ``statement_timeout`` is set (``SET LOCAL``: it ends with the transaction)
  to the time left, so the server cancels a query that outlives the bound.
- SQLite: a progress handler, called every few thousand steps of the
  database's virtual machine, interrupts the query once the bound has passed.

Either way the search raises ``SearchTooBroad``, which the page and the API
answer as "too broad, narrow it".
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, connection, transaction

# SQLite virtual machine steps between two looks at the clock: about a
# millisecond of work, so the bound is kept to within a few milliseconds.
SQLITE_STEPS = 10_000


class SearchRefused(Exception):
    """The search was not run, or not finished: the message says why and what to do."""


class SearchTooBroad(SearchRefused):
    def __init__(self, limit_ms: int):
        super().__init__(
            f"This search is too broad: it did not finish within {limit_ms / 1000:g} s. "
            "Narrow it: add a rarer word, a phrase, or a filter such as type:, tool: or model:."
        )


def _left_ms(deadline: float, limit_ms: int) -> int:
    left = int((deadline - time.monotonic()) * 1000)
    if left <= 0:
        raise SearchTooBroad(limit_ms)
    return left


def _set_timeout(ms: int | None) -> None:
    # On the driver's connection, not through Django's cursor: not a query of
    # the page's own (query-count tests), and not seen by the wrapper below.
    value = f"{ms}ms" if ms is not None else "0"
    connection.connection.execute("SELECT set_config('statement_timeout', %s, true)", [value])


@contextmanager
def _postgresql(deadline: float, limit_ms: int) -> Iterator[None]:
    def budget(execute, sql, params, many, context):
        _set_timeout(_left_ms(deadline, limit_ms))
        return execute(sql, params, many, context)

    # No savepoint: a query cancelled inside a caller's transaction (a test's)
    # leaves that transaction to roll back; in a request there is none.
    with transaction.atomic(savepoint=False):
        connection.ensure_connection()
        show = connection.connection.execute("SHOW statement_timeout").fetchone()[0]
        with connection.execute_wrapper(budget):
            yield
        # Back to what it was for the rest of a caller's transaction.
        connection.connection.execute("SELECT set_config('statement_timeout', %s, true)", [show])


@contextmanager
def _sqlite(deadline: float, limit_ms: int) -> Iterator[None]:
    connection.ensure_connection()
    raw = connection.connection
    raw.set_progress_handler(lambda: int(time.monotonic() > deadline), SQLITE_STEPS)
    try:
        yield
    finally:
        raw.set_progress_handler(None, SQLITE_STEPS)


BOUNDS = {"postgresql": _postgresql, "sqlite": _sqlite}


def _cancelled(exc: OperationalError) -> bool:
    cause = exc.__cause__
    sqlstate = getattr(cause, "sqlstate", None)  # psycopg: 57014 query_canceled
    return sqlstate == "57014" or "interrupted" in str(exc)


@contextmanager
def time_bound() -> Iterator[None]:
    """Run the block's queries within ``search_time_limit_ms`` in all, or raise
    SearchTooBroad. Materialise results inside the block: a queryset read
    after it is not bounded."""
    limit_ms = settings.BENCHVIEW_LIMITS["search_time_limit_ms"]
    deadline = time.monotonic() + limit_ms / 1000
    bound = BOUNDS.get(connection.vendor)
    if bound is None:
        yield
        return
    try:
        with bound(deadline, limit_ms):
            yield
    except OperationalError as exc:
        if _cancelled(exc):
            raise SearchTooBroad(limit_ms) from exc
        raise
