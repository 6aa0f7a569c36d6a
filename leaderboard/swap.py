"""A bench written aside made the shown one in one small transaction, and hidden
benches deleted in batches.

A chunked import (``ingest.writing.chunked``) writes a release into a *pending*
bench, committing as it goes; nobody sees a pending bench (``Bench.objects``
shows only shown ones). ``bench_swap`` then makes it the bench of its id, and
the bench it replaces *retired*, in the caller's transaction, with a number of
queries that does not depend on the size of either. ``bench_delete`` removes a
pending or retired bench afterwards, a batch of attempts per transaction, so
that neither the swap nor any one deletion holds the whole bench.
"""

from __future__ import annotations

from django.db import transaction

from leaderboard.models import Attempt, Batch, Bench, BenchRevision
from leaderboard.revisions import Board, revision_record


def bench_swap(*, pending: Bench, board: Board, by: str = "") -> Bench | None:
    """Make ``pending`` the shown bench of its ``target_slug``; return the bench it
    replaced, now retired (its rows are left for ``bench_delete``), or None.

    Call it inside the transaction that records the import. What must outlive
    the replaced bench moves to the new one: its revisions (their addresses
    are cited) and the published or staged state of each batch both have
    (as a one-transaction import keeps a known batch's state). A revision is
    recorded from ``board`` (``revisions.board_of``, built before the swap) if
    the public board changed.
    """
    target = pending.target_slug
    with transaction.atomic():
        old = Bench.objects.select_for_update().filter(slug=target).first()
        if old is not None:
            for live in (True, False):
                known = old.batches.filter(live=live).values("number")
                Batch.objects.filter(bench=pending, number__in=known).update(live=live)
            Bench.everything.filter(pk=old.pk).update(
                state=Bench.State.RETIRED, slug=f"~retired-{old.pk}", target_slug=target
            )
            old.state, old.slug, old.target_slug = Bench.State.RETIRED, f"~retired-{old.pk}", target
            BenchRevision.objects.filter(bench_id=old.pk).update(bench=pending)
        Bench.everything.filter(pk=pending.pk).update(
            state=Bench.State.SHOWN, slug=target, target_slug=""
        )
        pending.state, pending.slug, pending.target_slug = Bench.State.SHOWN, target, ""
        revision_record(bench=pending, cause=BenchRevision.Cause.IMPORT, by=by, board=board)
    return old


def bench_delete(*, bench: Bench, batch: int) -> int:
    """Delete ``bench``, which must not be shown: ``batch`` attempts (with their
    events, checks and requests) per committed transaction, then the rest of
    its rows; return how many attempt rows went.

    Call it outside any transaction. Stopped half-way it leaves a smaller
    hidden bench, which the next call deletes. Blobs are shared by content:
    those no evidence refers to any more are the caller's to collect.
    """
    hidden = Bench.everything.exclude(state=Bench.State.SHOWN).filter(pk=bench.pk)
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                Attempt.all_trials.filter(bench_id=bench.pk, bench__in=hidden)
                .order_by("pk")
                .values_list("pk", flat=True)[:batch]
            )
            if not ids:
                break
            Attempt.all_trials.filter(pk__in=ids).delete()
        deleted += len(ids)
    with transaction.atomic():
        hidden.delete()
    return deleted
