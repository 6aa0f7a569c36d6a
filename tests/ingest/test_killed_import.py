"""A refused or killed import leaves nothing behind: no lock held, no unpacked folder, no blob file.

The killed holder is a real child process stopped with SIGKILL at a known
point (it prints a line and sleeps there), so nothing here relies on timing.
"""

from __future__ import annotations

import io
import tempfile

import pytest
from django.core.management import call_command

from ingest.running.locks import ImportBusy, import_lock
from leaderboard.models import Bench
from tests import children
from tests.factories import edit_json, import_path, tar_gz
from trajectories.models import Blob
from trajectories.services import blob_files_sweep

SMALL_BLOBS = 1000  # blob_db_max_bytes for these tests: every transcript becomes a file


@pytest.fixture
def child_env(child_database_url, settings, tmp_path) -> dict[str, str]:
    """What a child needs to share this test's lock, media folder and database."""
    return {
        "DATABASE_URL": child_database_url,
        "BENCHVIEW_LOCK_DIR": str(settings.BENCHVIEW_LOCK_DIR),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "TMPDIR": str(tmp_path / "scratch"),
    }


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    path = tmp_path / "scratch"
    path.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(path))
    return path


def blob_files(settings) -> set[str]:
    root = settings.MEDIA_ROOT / "blobs"
    return {p.relative_to(settings.MEDIA_ROOT).as_posix() for p in root.rglob("*") if p.is_file()}


@pytest.mark.django_db(transaction=True)
def test_a_lock_whose_holder_was_killed_is_free_at_once(child_env, small_release_dir):
    child = children.start(
        """
        import time
        from ingest.running.locks import import_lock
        with import_lock(holder="victim importing doomed.tar.gz"):
            print("held", flush=True)
            time.sleep(120)
        """,
        env=child_env,
    )
    try:
        children.ready(child, "held")
        with pytest.raises(ImportBusy) as busy, import_lock(holder="bob"):
            pass
        assert "victim importing doomed.tar.gz" in str(busy.value)
    finally:
        children.kill9(child)
    out = io.StringIO()
    call_command("import_release", str(small_release_dir), stdout=out, stderr=io.StringIO())
    assert "imported" in out.getvalue()
    assert Bench.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_killed_tar_import_leaves_no_folder_and_no_blob_file_once_the_next_one_ran(
    child_env, small_release_dir, tmp_path, scratch, settings
):
    archive = tar_gz(small_release_dir, tmp_path / "small.tar.gz")
    child = children.start(
        """
        import sys, time
        from django.core.management import call_command
        from trajectories.models import Blob

        store = Blob.store.__func__

        def store_then_stop(cls, digest, content):
            blob = store(cls, digest, content)
            if blob.storage_name:
                print("stored", flush=True)
                time.sleep(120)
            return blob

        Blob.store = classmethod(store_then_stop)
        call_command("import_release", sys.argv[1])
        """,
        env={**child_env, "BENCHVIEW_BLOB_DB_MAX_BYTES": str(SMALL_BLOBS)},
        args=[str(archive)],
    )
    try:
        children.ready(child, "stored")
    finally:
        children.kill9(child)
    # What kill -9 left: the unpacked release and a blob file no committed row names.
    (unpacked,) = scratch.iterdir()
    (stranded,) = blob_files(settings)
    # A kill during the write leaves part of the file: cut it as such a kill would.
    stranded_path = settings.MEDIA_ROOT / stranded
    stranded_path.write_bytes(stranded_path.read_bytes()[: SMALL_BLOBS // 2])

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": SMALL_BLOBS}
    call_command("import_release", str(archive), stdout=io.StringIO(), stderr=io.StringIO())
    assert not unpacked.exists()
    assert list(scratch.iterdir()) == []
    referenced = set(Blob.objects.exclude(storage_name="").values_list("storage_name", flat=True))
    assert referenced and blob_files(settings) == referenced
    # The partial file was not taken for the finished blob of the same name.
    for blob in Blob.objects.exclude(storage_name=""):
        assert len(blob.read()) == blob.size


@pytest.mark.django_db
def test_a_refused_import_leaves_no_blob_file(release_copy, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": SMALL_BLOBS}
    # The last attempt is broken, so the ones before it wrote their blob files first.
    last = sorted((release_copy / "attempts").glob("*/*"))[-1]
    edit_json(last / "trajectory.json", lambda t: t["events"][0].update(index="zero"))
    with pytest.raises(pytest.fail.Exception, match="problem"):
        import_path(release_copy)
    assert Blob.objects.count() == 0
    assert blob_files(settings) == set()


@pytest.mark.django_db
def test_the_sweep_keeps_every_file_a_blob_refers_to(small_release_dir, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": SMALL_BLOBS}
    import_path(small_release_dir)
    kept = blob_files(settings)
    assert kept
    stray = settings.MEDIA_ROOT / "blobs" / "ab" / "stray"
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_bytes(b"x")
    assert blob_files_sweep() == 1
    assert blob_files(settings) == kept
