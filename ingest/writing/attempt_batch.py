"""Write the rows of many attempts together: a few statements per table, not per attempt.

At the seed's scale (4,000 attempts) one INSERT per attempt and table, one
SELECT of known blobs and one of vendor requests per attempt were most of an
import's time. Attempts' rows wait here until they hold about
``BENCHVIEW_LIMITS["import_batch_bytes"]``, so memory stays flat however many
attempts a release has; then each table gets one bulk insert (``COPY`` on
PostgreSQL for events and vendor requests, ingest.writing.bulk). A batch's blobs and
events, the largest writes (the database compresses the one and indexes the
other for search), go last, on a thread of their own
(ingest.writing.background_write) when the import gives one: the next batch is read
meanwhile.
"""

from __future__ import annotations

from django.conf import settings
from django.db import reset_queries

from ingest.writing.attempt_rows import EVENT_COLUMNS, REQUEST_COLUMNS, PendingAttempt
from ingest.writing.background_write import BackgroundWrites
from ingest.writing.bulk import bulk_insert, driver_insert
from leaderboard.models import Attempt, CheckResult
from trajectories.models import Blob, Event, Evidence, TranscriptCheck, VendorRequest

BLOB_COLUMNS = ("sha256", "size", "data", "storage_name")
# How far a batch may grow past its limit while the write before it still runs.
# Twice the limit was no faster at the seed's scale and peaked 10 MB higher.
GROWTH = 1.5


class AttemptBatch:
    """Attempts waiting to be written, and the old rows they replace."""

    def __init__(self, background: BackgroundWrites | None = None) -> None:
        self.background = background
        self.limit = settings.BENCHVIEW_LIMITS["import_batch_bytes"]
        self.pending: list[PendingAttempt] = []
        self.replaced: list[int] = []
        self.size = 0
        # Every attempt's bytes queued so far: a chunked import commits by it.
        self.added = 0

    def add(self, pending: PendingAttempt, *, replaces: int | None = None) -> None:
        """Queue one attempt (replacing the attempt row ``replaces``); writes when full."""
        self.pending.append(pending)
        if replaces is not None:
            self.replaced.append(replaces)
        self.size += pending.size
        self.added += pending.size
        # Writing a batch first waits for the write of the one before. While
        # that is still running the batch grows instead, up to GROWTH times its size,
        # so that a slow write (long outputs for the search index to read)
        # is hidden behind reading the next attempts rather than waited for.
        if self.size >= GROWTH * self.limit or (
            self.size >= self.limit and not (self.background and self.background.busy())
        ):
            self.flush()

    def flush(self) -> None:
        """Write every queued attempt, after deleting the rows they replace."""
        # With DEBUG on, Django keeps every query (with its parameters: whole
        # trajectories) in memory; an import must not grow with the release.
        reset_queries()
        if self.replaced:
            Attempt.all_trials.filter(pk__in=self.replaced).delete()
        if self.pending:
            _write(self.pending, self.background)
        self.pending, self.replaced, self.size = [], [], 0


def _write(batch: list[PendingAttempt], background: BackgroundWrites | None) -> None:
    blob_rows = _new_blobs(batch)
    Attempt.all_trials.bulk_create([p.attempt for p in batch])
    for p in batch:
        for result in p.results:
            result.attempt = p.attempt
    CheckResult.objects.bulk_create([r for p in batch for r in p.results])
    Evidence.objects.bulk_create([Evidence(attempt=p.attempt, **p.evidence) for p in batch])
    TranscriptCheck.objects.bulk_create(
        TranscriptCheck(attempt=p.attempt, **p.transcript_check)
        for p in batch
        if p.transcript_check is not None
    )
    bulk_insert(VendorRequest, REQUEST_COLUMNS, (row for p in batch for row in p.request_rows()))
    _link_checks_to_requests(batch)

    def event_rows():
        return (row for p in batch for row in p.event_rows())

    # Blobs (raw transcripts: most of a release's bytes, compressed by
    # PostgreSQL as they are stored) and events go last, together. The rows
    # above refer to the blobs, which is allowed: foreign keys are checked at
    # commit.
    if background is None:
        bulk_insert(Blob, BLOB_COLUMNS, blob_rows)
        bulk_insert(Event, EVENT_COLUMNS, event_rows())
    else:
        background.submit(
            driver_insert(Blob, BLOB_COLUMNS, lambda: blob_rows),
            driver_insert(Event, EVENT_COLUMNS, event_rows),
        )


def _new_blobs(batch: list[PendingAttempt]) -> list[tuple]:
    """Rows of the blobs not stored yet, for the database (one query to know
    which); a large one goes to storage at once (Blob.store).

    Written through bulk_insert, not bulk_create: one INSERT of many blobs
    would, with DEBUG on, be logged with every byte quoted into its text.
    """
    wanted: dict[str, bytes] = {}
    for p in batch:
        wanted.update(p.blobs)
    known = set(Blob.objects.filter(pk__in=list(wanted)).values_list("pk", flat=True))
    limit = settings.BENCHVIEW_LIMITS["blob_db_max_bytes"]
    rows = []
    for digest, data in wanted.items():
        if digest in known:
            continue
        if len(data) > limit:
            Blob.store(digest, data)
        else:
            rows.append((digest, len(data), data, ""))
    return rows


def _link_checks_to_requests(batch: list[PendingAttempt]) -> None:
    """Check results to the vendor requests they name: one query for the whole batch."""
    named = {p.attempt.pk: [r for r in p.results if r.requests] for p in batch}
    named = {pk: results for pk, results in named.items() if results}
    if not named:
        return
    by_ref = {
        (attempt_id, f"{vendor}:{request_id}"): pk
        for attempt_id, pk, vendor, request_id in VendorRequest.objects.filter(
            attempt_id__in=list(named)
        ).values_list("attempt_id", "pk", "vendor", "request_id")
    }
    through = VendorRequest.checks.through
    through.objects.bulk_create(
        through(vendorrequest_id=by_ref[(attempt_id, ref)], checkresult_id=result.pk)
        for attempt_id, results in named.items()
        for result in results
        for ref in dict.fromkeys(result.requests)
        if (attempt_id, ref) in by_ref
    )
