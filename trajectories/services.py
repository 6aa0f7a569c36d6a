"""Writes on evidence that are not part of one attempt's import."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef

from trajectories import blob_files
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
        transaction.on_commit(lambda: blob_files.delete(files))
    return len(found)


def blob_files_sweep() -> int:
    """Delete the files in blob storage that no blob row refers to; return how many.

    A refused import rolls its blob rows back and a killed one never commits
    them, but their files were already written. Run it only while no other
    import can be writing (under ingest.running.locks' import lock, or in the importing
    transaction's own process after its rollback): a file another import is
    about to commit would look unreferenced.
    """
    referenced = set(Blob.objects.exclude(storage_name="").values_list("storage_name", flat=True))
    return blob_files.delete(name for name in blob_files.stored_names() if name not in referenced)
