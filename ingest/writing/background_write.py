"""Write one batch's events on a second thread while the import reads the next attempts.

An import alternates between work in Python (reading, parsing, normalising
attempts) and work in the database (inserting events and keeping the search
index: PostgreSQL's ``tsvector`` and GIN index, SQLite's FTS5 triggers).
Done in turn, one of the machine's cores always idles. Here the largest write
of a batch, its events, runs on a thread of its own, on the import's own
connection and so inside its transaction, while the main thread goes on
reading. Both databases' drivers let go of the GIL while the database works.

Only one write runs at a time, and nothing else touches the connection while
it does: every query the main thread makes through Django first waits for the
write (an execute wrapper), and leaving ``background_writes`` waits too, so
the transaction commits or rolls back only once the write is over. A write
that fails raises its error in the main thread at that wait, which rolls the
import back as any other error would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from django.db import connection


class BackgroundWrites:
    """At most one write in flight on the default connection's driver connection."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def submit(self, *writes: Callable[[object], None]) -> None:
        """Run each ``write(driver_connection)`` in turn on another thread, after
        any write before them."""
        self.wait()
        connection.ensure_connection()
        raw = connection.connection

        def run() -> None:
            try:
                for write in writes:
                    write(raw)
            except BaseException as exc:  # raised again in the main thread by wait()
                self._error = exc

        self._thread = threading.Thread(target=run, name="import-write", daemon=True)
        self._thread.start()

    def busy(self) -> bool:
        """Whether a write is still in flight (a caller that can go on without
        the connection need not wait for it yet)."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self) -> None:
        """Return once no write is in flight; raise the error of one that failed."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _before_query(self, execute, sql, params, many, context):
        self.wait()
        return execute(sql, params, many, context)


@contextmanager
def background_writes() -> Iterator[BackgroundWrites]:
    """Writes that are over, failed or not, when the block is left."""
    writes = BackgroundWrites()
    try:
        with connection.execute_wrapper(writes._before_query):
            yield writes
    except BaseException:
        # The block's own error wins; the write only has to be over before
        # the transaction is rolled back under it.
        with suppress(BaseException):
            writes.wait()
        raise
    writes.wait()
