"""A running import job's progress and heartbeat, visible before the import commits.

The import runs in one transaction on the ``default`` connection; these rows
go through the ``progress`` alias (ingest.routers), whose connection is in
autocommit and never inside that transaction, so the job page reads them while
the import is still writing. Writes are throttled to one per ``job_beat_s``.
"""

from __future__ import annotations

import os
import socket
import time

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone

from ingest.models import ImportJobLive
from ingest.progress import Phase, Progress
from ingest.routers import PROGRESS_DB, progress_has_own_file


def live_table_ready() -> None:
    """On SQLite the side file is not migrated: create its one table on first use."""
    if not progress_has_own_file():
        return
    connection = connections[PROGRESS_DB]
    if ImportJobLive._meta.db_table in connection.introspection.table_names():
        return
    try:
        with connection.schema_editor() as editor:
            editor.create_model(ImportJobLive)
    except DatabaseError:
        # Another process created it between our look and our create.
        if ImportJobLive._meta.db_table not in connection.introspection.table_names():
            raise


def live_rows(job_ids) -> dict[int, ImportJobLive]:
    live_table_ready()
    return {row.job_id: row for row in ImportJobLive.objects.filter(job_id__in=list(job_ids))}


def live_drop(job_id: int) -> None:
    live_table_ready()
    ImportJobLive.objects.filter(job_id=job_id).delete()


def this_host() -> str:
    return socket.gethostname()[:255]


class LiveReporter:
    """The job's ProgressCallback: keeps its ImportJobLive row current."""

    def __init__(self, job_id: int):
        live_table_ready()
        now = timezone.now()
        self.row, _ = ImportJobLive.objects.update_or_create(
            job_id=job_id,
            defaults={
                "phase": Phase.READING,
                "done": 0,
                "total": 0,
                "events": 0,
                "started_at": now,
                "beat_at": now,
                "host": this_host(),
                "pid": os.getpid(),
            },
        )
        self.every_s = settings.BENCHVIEW_LIMITS["job_beat_s"]
        self.written_at = time.monotonic()

    def __call__(self, progress: Progress) -> None:
        row = self.row
        phase_changed = row.phase != progress.phase
        row.phase, row.done, row.total, row.events = (
            progress.phase,
            progress.done,
            progress.total,
            progress.events,
        )
        if phase_changed or time.monotonic() - self.written_at >= self.every_s:
            self.write()

    def write(self) -> None:
        self.row.beat_at = timezone.now()
        self.row.save(update_fields=["phase", "done", "total", "events", "beat_at"])
        self.written_at = time.monotonic()
