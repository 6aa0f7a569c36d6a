"""One release import at a time, on SQLite and PostgreSQL alike.

The lock is a committed ``ImportLock`` row with a unique name. Inserting it is
the acquire: a second importer's insert breaks the unique constraint at once,
so it is refused with a message naming the running import, instead of waiting
on a row lock (PostgreSQL) or on SQLite's single writer until a timeout says
only "database is locked". A row left behind by a crashed process is taken
over once it is older than ``BENCHVIEW_LIMITS["import_lock_stale_s"]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from ingest.models import ImportLock

RELEASE_IMPORT = "release-import"


class ImportBusy(Exception):
    """Another import holds the lock; nothing was started."""

    def __init__(self, lock: ImportLock | None):
        self.holder = lock.holder if lock else "another import"
        self.started_at = lock.started_at if lock else None
        when = f" since {self.started_at:%Y-%m-%d %H:%M:%S} UTC" if self.started_at else ""
        super().__init__(
            f"Another import is running ({self.holder}{when}). This one was not started: "
            "try again when that one has finished."
        )


@contextmanager
def import_lock(*, holder: str, name: str = RELEASE_IMPORT) -> Iterator[ImportLock]:
    """Hold the import lock for the duration of the block, or raise ImportBusy.

    Must be entered outside any transaction in production: the row has to be
    committed for other processes to see it.
    """
    lock = _acquire(name=name, holder=holder[:300])
    try:
        yield lock
    finally:
        ImportLock.objects.filter(pk=lock.pk).delete()


def _acquire(*, name: str, holder: str) -> ImportLock:
    for _ in range(2):
        try:
            with transaction.atomic():
                return ImportLock.objects.create(
                    name=name, holder=holder, started_at=timezone.now()
                )
        except IntegrityError:
            current = ImportLock.objects.filter(name=name).first()
            if current is None:
                continue  # released between our insert and our look: try again
            stale_s = settings.BENCHVIEW_LIMITS["import_lock_stale_s"]
            if timezone.now() - current.started_at < timedelta(seconds=stale_s):
                raise ImportBusy(current) from None
            # Delete exactly the stale row we saw, so two takers cannot both win.
            ImportLock.objects.filter(pk=current.pk, started_at=current.started_at).delete()
    raise ImportBusy(ImportLock.objects.filter(name=name).first())
