"""Publish or unpublish a batch from the admin, with its import record and log entry."""

from __future__ import annotations

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction

from ingest.models import ImportRecord
from leaderboard.models import Batch
from leaderboard.services import batch_publish


@transaction.atomic
def batch_publish_recorded(*, batch: Batch, live: bool, user) -> ImportRecord:
    """Make ``batch`` live (or staged again) and record who did it.

    The leaderboard does not change: it already counts every public task.
    """
    batch = Batch.objects.select_for_update().select_related("bench").get(pk=batch.pk)
    changed = batch.live != live
    batch_publish(batch=batch, live=live, by=user.get_username())
    action = "publish" if live else "unpublish"
    tasks = list(batch.tasks.order_by("batch_position", "slug").values_list("slug", flat=True))
    state = "live" if live else "staged (staff only)"
    message = f"batch {batch.number} {'is now' if changed else 'was already'} {state}"
    record = ImportRecord.objects.create(
        user=user,
        via="admin",
        action=action,
        outcome="applied" if changed else "no-change",
        bench=batch.bench.slug,
        revision=batch.bench.revision,
        staged=not live,
        summary={"batch": batch.number, "tasks": tasks},
        message=message,
    )
    LogEntry.objects.log_actions(
        user_id=user.pk,
        queryset=[batch],
        action_flag=CHANGE,
        change_message=f"{action}: {message} ({len(tasks)} task(s))",
        single_object=True,
    )
    return record
