"""Writes on evidence that are not part of one attempt's import."""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Exists, OuterRef

from trajectories.models import BLOB_FOLDER, Blob, Evidence


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


def blob_files_sweep() -> int:
    """Delete the files in blob storage that no blob row refers to; return how many.

    A refused import rolls its blob rows back and a killed one never commits
    them, but their files were already written. Run it only while no other
    import can be writing (under ingest.running.locks' import lock, or in the importing
    transaction's own process after its rollback): a file another import is
    about to commit would look unreferenced.
    """
    if not default_storage.exists(BLOB_FOLDER):
        return 0
    referenced = set(Blob.objects.exclude(storage_name="").values_list("storage_name", flat=True))
    removed = 0
    folders, files = default_storage.listdir(BLOB_FOLDER)
    names = [f"{BLOB_FOLDER}/{name}" for name in files]
    for folder in folders:
        names += [
            f"{BLOB_FOLDER}/{folder}/{n}"
            for n in default_storage.listdir(f"{BLOB_FOLDER}/{folder}")[1]
        ]
    for name in names:
        if name not in referenced:
            default_storage.delete(name)
            removed += 1
    return removed
