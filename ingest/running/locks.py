"""One release import at a time, held by a lock that dies with its holder.

A killed import (``kill -9``, an out-of-memory kill, a lost machine) must not
keep later imports out, so the lock is one the operating system or the
database server drops when its holder goes:

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) taken on a
  connection of its own, so the import's transaction, its rollback or a
  closed default connection cannot release it early, and a lock taken twice
  by one process (the default connection would re-enter it) still refuses.
  The server drops it when that connection ends.
- SQLite (and anything else): ``fcntl.flock`` on a file in
  ``settings.BENCHVIEW_LOCK_DIR`` (every process importing into one database
  must use the same folder). The kernel drops it when the process ends.

Trying the lock never waits: a second import is refused at once with a message
naming the running one. Who holds it is informational only, kept where the
refused importer can read it: the ``ImportLock`` row (PostgreSQL) or the lock
file's content (SQLite). Neither decides anything, so one left behind by a
killed holder is harmless and overwritten by the next.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from ingest.models import ImportLock

RELEASE_IMPORT = "release-import"


class ImportBusy(Exception):
    """Another import holds the lock; nothing was started."""

    def __init__(self, holder: str | None = None, started_at: datetime | None = None):
        self.holder = holder or "another import"
        self.started_at = started_at
        when = f" since {started_at:%Y-%m-%d %H:%M:%S} UTC" if started_at else ""
        super().__init__(
            f"Another import is running ({self.holder}{when}). This one was not started: "
            "try again when that one has finished."
        )


@contextmanager
def import_lock(*, holder: str, name: str = RELEASE_IMPORT) -> Iterator[None]:
    """Hold the import lock for the duration of the block, or raise ImportBusy at once."""
    take = LOCKS.get(connection.vendor, _file_lock)
    kept = settings.BENCHVIEW_LIMITS["import_lock_holder_chars"]
    with take(name=name, holder=holder[:kept]):
        yield


# --- PostgreSQL ----------------------------------------------------------------------------


def advisory_key(name: str) -> int:
    """The advisory lock key (a signed 64-bit integer) for a lock name."""
    digest = hashlib.sha256(f"benchview:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextmanager
def _advisory_lock(*, name: str, holder: str) -> Iterator[None]:
    own = connections.create_connection(DEFAULT_DB_ALIAS)  # autocommit, outside any transaction
    table = connection.ops.quote_name(ImportLock._meta.db_table)
    key = advisory_key(name)
    try:
        with own.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
            if not cursor.fetchone()[0]:
                cursor.execute(f"SELECT holder, started_at FROM {table} WHERE name = %s", [name])  # noqa: S608 - a model's table name
                row = cursor.fetchone()
                raise ImportBusy(*(row or ()))
            cursor.execute(
                f"INSERT INTO {table} (name, holder, started_at) VALUES (%s, %s, %s) "  # noqa: S608
                "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, "
                "started_at = EXCLUDED.started_at",
                [name, holder, timezone.now()],
            )
        try:
            yield
        finally:
            with own.cursor() as cursor:
                cursor.execute(f"DELETE FROM {table} WHERE name = %s", [name])  # noqa: S608
                # Released here, not only by closing: the server ends a closed
                # session a moment later, and an import started in that moment
                # would be refused by a lock nobody holds.
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
    finally:
        own.close()  # ends the session, which drops the lock whatever happened above


# --- SQLite and the rest: a file lock ------------------------------------------------------


def lock_path(name: str) -> Path:
    """The lock file for ``name``: one folder serves one database."""
    return Path(settings.BENCHVIEW_LOCK_DIR) / f"{name}.lock"


@contextmanager
def _file_lock(*, name: str, holder: str) -> Iterator[None]:
    path = lock_path(name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ImportBusy(*_read_holder(fd)) from None
        os.ftruncate(fd, 0)
        note = {"holder": holder, "started_at": timezone.now().isoformat(), "pid": os.getpid()}
        os.pwrite(fd, json.dumps(note).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the only descriptor releases the lock


def _read_holder(fd: int) -> tuple[str | None, datetime | None]:
    try:
        note = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return note.get("holder"), datetime.fromisoformat(note["started_at"])
    except (ValueError, KeyError, TypeError):
        return None, None  # written this instant, or not by us: the message says less


LOCKS = {"postgresql": _advisory_lock, "sqlite": _file_lock}
