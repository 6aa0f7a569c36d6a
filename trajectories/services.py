"""Writes on evidence that are not part of one attempt's import."""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Exists, OuterRef

from trajectories.models import Blob, Evidence


def blobs_collect() -> int:
    """Delete the blobs no evidence refers to any more; return how many.

    A re-imported or withdrawn attempt leaves its old patch, transcript and
    ticket behind (blobs are shared by content, so they are not deleted with
    the attempt). Files in storage go once the transaction commits, so a
    rollback keeps them.
    """
    referring = [
        Exists(Evidence.objects.filter(**{field: OuterRef("pk")}))
        for field in ("patch", "transcript", "problem")
    ]
    orphans = Blob.objects.exclude(referring[0]).exclude(referring[1]).exclude(referring[2])
    found = list(orphans.values_list("pk", "storage_name"))
    if not found:
        return 0
    Blob.objects.filter(pk__in=[pk for pk, _ in found]).delete()
    files = [name for _, name in found if name]
    if files:
        transaction.on_commit(lambda: [default_storage.delete(name) for name in files])
    return len(found)
