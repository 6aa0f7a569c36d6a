"""A release written a chunk at a time into a hidden bench, then swapped in.

At the size of a public leaderboard (100 models × 1,000 tasks × 5 trials:
about 100 million events) one import in one transaction would hold some
100 GB until it commits. A chunked import (``import_release --chunked``)
holds none of that size:

1. the documents are checked (a problem there: nothing is written);
2. the bench's rows go into a *pending* bench (``leaderboard.models.Bench``,
   state pending, a slug no address can name), which nobody sees, staff
   included: the one an interrupted chunked import of the same bench left
   (resumed), else a new one; its bench, batch, model and task rows and the
   unreleased cells are one transaction;
3. the attempts are checked and written as one import writes them, and each
   time about ``BENCHVIEW_LIMITS["import_chunk_bytes"]`` of attempt files
   were written, committed; an attempt the pending bench already holds with
   the same files (a resumed import) is kept, not read or written again;
4. the figures (``bench_recompute``) and the board a revision freezes are
   computed on the pending bench, still hidden;
5. one small transaction swaps it in (``leaderboard.swap.bench_swap``): the
   bench it replaces is retired, the pending one takes its id, the revision,
   the generation and the import record are written. Its queries do not
   depend on the release's size;
6. after it, the retired bench is deleted in batches and the blobs nothing
   refers to any more are collected.

A process killed before the swap leaves the pending bench, hidden: the next
chunked import of the bench resumes it, ``manage.py import_cleanup`` deletes
it. This is the one exception to "a failed import leaves the database as it
was": hidden rows may remain until then. A release with problems in its
attempt folders is refused likewise with what it had written kept hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from formats.reader import ReleaseSource
from ingest.progress import ProgressCallback
from ingest.reading.plan import ReleaseCheck, check_release
from ingest.writing.background_write import background_writes
from ingest.writing.db_statistics import statistics_refresh
from ingest.writing.hidden import hidden_delete, pending_create, usable_pending
from ingest.writing.services import ImportRefused, ImportResult, _Writer
from leaderboard.models import Bench
from leaderboard.revisions import board_of
from leaderboard.services import generation_raise
from leaderboard.swap import bench_swap
from trajectories.search.suggest import refresh_vocabulary
from trajectories.services import blob_files_sweep


@dataclass(frozen=True)
class Step:
    """How far a chunked import is: "chunk" (one more committed), "swap" (about
    to begin the swap's transaction) or "swapped" (committed)."""

    name: str
    chunks: int
    written: int


StepCallback = Callable[[Step], object]


def write_release_chunked(
    *,
    source: ReleaseSource,
    staged: bool = False,
    expected_sha256: str | None = None,
    scrub: bool = False,
    progress: ProgressCallback | None = None,
    by: str = "",
    before_commit: Callable[[ImportResult], object] | None = None,
    steps: StepCallback | None = None,
) -> ImportResult:
    """Check ``source`` and write it into a hidden bench a chunk at a time, then
    make that the bench of its id in one small transaction (see the module).

    The arguments are ``write_release``'s; ``before_commit`` is called inside
    the swap's transaction. ``steps`` is told of each committed chunk and of
    the swap. A release with problems raises ImportRefused: nothing was made
    visible, and what was written stays hidden for the next import to resume.
    """
    if expected_sha256 is not None and source.sha256 != expected_sha256:
        raise ImportRefused("the release changed since it was previewed; preview it again")
    # Blob files a killed import wrote in a chunk it never committed.
    blob_files_sweep()
    release = check_release(source, progress=progress, scrub=scrub, resume=True)
    plan = release.plan
    if not plan.ok:
        for _ in release.attempts():
            pass  # every problem reported at once; nothing was written
        raise ImportRefused(f"{len(plan.problems)} problem(s)", plan)
    found = usable_pending(plan)
    try:
        with transaction.atomic():
            writer = _Writer(staged=staged, by=by, into=found or pending_create(plan))
            writer.begin(plan, release.folders)
        pending = writer.bench
        chunks = _write_chunks(writer, release, steps)
        if not plan.ok:
            raise ImportRefused(
                f"{len(plan.problems)} problem(s); nothing was made visible "
                f"({writer.written + writer.kept} attempt(s) are kept hidden for the next "
                "import of this bench to resume; manage.py import_cleanup deletes them)",
                plan,
            )
    except BaseException:
        # The files of the chunk that did not commit (those of committed ones are kept).
        blob_files_sweep()
        raise
    if plan.is_noop:
        # The bench already is this release: the copy written aside goes.
        with transaction.atomic():
            shown = Bench.objects.get(slug=pending.target_slug)
            result = ImportResult(bench=shown, plan=plan, written_attempts=0)
            if before_commit is not None:
                before_commit(result)
        hidden_delete(pending)
        return result
    with transaction.atomic():
        writer.recompute(plan)
    board = board_of(pending, slug=pending.target_slug)
    if steps is not None:
        steps(Step("swap", chunks, writer.written))
    with transaction.atomic():
        retired = bench_swap(pending=pending, board=board, by=by)
        generation_raise()
        result = ImportResult(
            bench=pending,
            plan=plan,
            written_attempts=writer.written,
            chunks=chunks,
            kept=writer.kept,
        )
        if before_commit is not None:
            before_commit(result)
    if steps is not None:
        steps(Step("swapped", chunks, writer.written))
    if retired is not None:
        result.blobs_removed = hidden_delete(retired)[1]
    refresh_vocabulary()
    statistics_refresh()
    return result


def _write_chunks(writer: _Writer, release: ReleaseCheck, steps: StepCallback | None) -> int:
    """Write every checked attempt, committing about every ``import_chunk_bytes``
    of attempt files; return how many chunks were committed."""
    limit = settings.BENCHVIEW_LIMITS["import_chunk_bytes"]
    plan = release.plan
    attempts = release.attempts(writing=True)
    chunks, more = 0, True
    while more:
        more = False
        with transaction.atomic(), background_writes() as background:
            writer.batch.background = background
            start, seen = writer.batch.added, 0
            for checked in attempts:
                writer.attempt(plan, checked)
                seen += 1
                if writer.batch.added - start >= limit:
                    more = True
                    break
            writer.batch.flush()
        writer.batch.background = None
        if seen:
            chunks += 1
            if steps is not None:
                steps(Step("chunk", chunks, writer.written))
    return chunks
