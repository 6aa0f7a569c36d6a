"""The hidden benches of chunked imports: the pending one an import writes into,
and deleting those no longer wanted (retired ones, and pending ones on request).

Run under the import lock: a pending bench may be the one a running import
is writing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from ingest.reading.plan import ImportPlan
from leaderboard.models import Bench
from leaderboard.swap import bench_delete
from trajectories.services import blobs_collect


def usable_pending(plan: ImportPlan) -> Bench | None:
    """The pending bench an interrupted chunked import of this bench left, if the
    release scores by its rules (its attempts are then kept where their files
    are the same); one scored by other rules is deleted. Outside a transaction."""
    m = plan.manifest
    found = Bench.everything.pending().filter(target_slug=m.bench).first()
    if found is None:
        return None
    if (found.scoring_rule, found.exceptions_rule) == (m.scoring_rule, plan.exceptions_rule):
        return found
    hidden_delete(found)
    return None


def pending_create(plan: ImportPlan) -> Bench:
    """A new pending bench for the release: its slug (``~pending-…``) is one no
    address can name; ``target_slug`` is the id it takes at the swap."""
    m = plan.manifest
    return Bench.everything.create(
        slug=f"~pending-{secrets.token_hex(8)}",
        state=Bench.State.PENDING,
        target_slug=m.bench,
        title=m.title,
        revision=m.revision,
        scoring_rule=m.scoring_rule,
        exceptions_rule=plan.exceptions_rule,
        generated_at=m.generated_at,
    )


def hidden_delete(bench: Bench) -> tuple[int, int]:
    """Delete a pending or retired bench in batches, then the blobs nothing refers
    to any more (their files once that commits); return (attempt rows, blobs)."""
    attempts = bench_delete(
        bench=bench, batch=settings.BENCHVIEW_LIMITS["bench_delete_batch_attempts"]
    )
    with transaction.atomic():
        blobs = blobs_collect()
    return attempts, blobs


@dataclass
class Cleaned:
    benches: list[str]  # what each was: "pending <id>" or "retired <id>"
    attempts: int = 0
    blobs: int = 0


def hidden_cleanup(*, pending: bool = False) -> Cleaned:
    """Delete every retired bench (what a chunked import killed after its swap
    had not deleted yet; every import does this first), and with ``pending``
    every pending one too (an interrupted chunked import then starts afresh)."""
    states = [Bench.State.RETIRED, *([Bench.State.PENDING] if pending else [])]
    hidden = Bench.everything.filter(state__in=states)
    cleaned = Cleaned(benches=[])
    for bench in hidden.order_by("pk"):
        cleaned.benches.append(f"{bench.state} {bench.target_slug}")
        attempts, blobs = hidden_delete(bench)
        cleaned.attempts += attempts
        cleaned.blobs += blobs
    return cleaned
