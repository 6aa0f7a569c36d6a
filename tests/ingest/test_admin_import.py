"""Admin import: permissions, preview, apply (as a job), refusals, bad uploads, staged files."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ingest.models import ImportJob, ImportRecord
from ingest.running.locks import import_lock
from ingest.running.staging import staging_root
from leaderboard.models import Batch, Bench, Model
from tests.factories import (
    START,
    UPLOAD,
    apply,
    apply_and_run,
    dump,
    edit_json,
    make_user,
    run_jobs,
    staged_folders,
    tar_gz,
    token_of,
    upload,
)

# Applying goes through an import job, whose progress row has its own connection.
pytestmark = pytest.mark.django_db(databases=["default", "progress"])


@pytest.fixture(autouse=True)
def _private_folders(settings, tmp_path):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    (tmp_path / "imports").mkdir()


@pytest.fixture
def staff(db):
    return make_user("stafford")


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture(scope="session")
def small_archive(small_release_dir, tmp_path_factory) -> Path:
    return tar_gz(small_release_dir, tmp_path_factory.mktemp("archives") / "small.tar.gz")


# --- permissions ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_anonymous_and_non_staff_get_nothing(small_archive, imported):
    batch = Batch.objects.get(bench=imported, number=1)
    token = "a" * 32
    requests = [
        ("get", reverse(START), {}),
        ("post", reverse(START), {"name": "release"}),
        ("get", reverse("admin:ingest_import_preview", args=[token]), {}),
        ("post", reverse("admin:ingest_import_apply", args=[token]), {"publish": "on"}),
        ("post", reverse("admin:ingest_import_cancel", args=[token]), {}),
        ("post", reverse("admin:leaderboard_bench_publish", args=[imported.pk]), {"batch": "1"}),
        ("get", reverse("admin:ingest_importrecord_changelist"), {}),
        ("get", reverse("admin:leaderboard_batch_changelist"), {}),
    ]
    before = dump()
    outsider = Client()
    outsider.force_login(make_user("outsider", staff=False))
    for client in (Client(), outsider):
        for method, url, data in requests:
            response = getattr(client, method)(url, data)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("admin:login")), url
        with open(small_archive, "rb") as fh:
            response = client.post(reverse(UPLOAD), {"archive": fh})
        assert response["Location"].startswith(reverse("admin:login"))
    assert dump() == before
    assert not ImportRecord.objects.filter(via="admin").exists()
    assert Batch.objects.get(pk=batch.pk).live
    assert staged_folders() == []


def test_the_upload_is_csrf_protected(staff, small_archive):
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    assert upload(client, small_archive).status_code == 403
    assert staged_folders() == []  # the streamed file went with the refusal
    assert not ImportRecord.objects.exists()


def test_the_admin_index_links_to_the_import_page(staff_client):
    response = staff_client.get(reverse("admin:index"))
    assert f'href="{reverse(START)}"' in response.content.decode()
    assert "Import a release" in response.content.decode()


# --- preview ---------------------------------------------------------------------------------


def test_an_upload_is_previewed_without_writing_anything(staff_client, small_archive, imported):
    before = dump()
    token = token_of(upload(staff_client, small_archive))
    page = staff_client.get(reverse("admin:ingest_import_preview", args=[token]))
    assert dump() == before
    html = page.content.decode()
    assert page.status_code == 200
    assert "integration-bench" in html
    assert "Leaderboard after the import" in html
    assert "Apply this import" in html
    assert [p.name for p in staged_folders()] == [token]
    record = ImportRecord.objects.get(via="admin")
    assert (record.action, record.outcome, record.via) == ("preview", "checked", "admin")
    assert record.source_name == "small.tar.gz"


def test_a_release_with_problems_shows_each_problem_and_cannot_be_applied(
    staff_client, release_copy, tmp_path
):
    edit_json(release_copy / "manifest.json", lambda m: m["counts"].update(models=99))
    response = upload(staff_client, tar_gz(release_copy, tmp_path / "bad.tar.gz"))
    html = response.content.decode()
    assert response.status_code == 400
    assert "cannot be applied" in html
    assert "<code>manifest.json</code>" in html and "<code>counts.models</code>" in html
    assert "Apply this import" not in html
    assert staged_folders() == []
    assert not Bench.objects.exists()
    record = ImportRecord.objects.get()
    assert record.outcome == "refused"
    assert any("counts.models" in p for p in record.problems)


# --- apply -----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True, databases=["default", "progress"])
def test_an_admin_import_gives_the_same_database_as_the_command_line(
    small_release_dir, small_archive
):
    # Both imports start from restarted id sequences, so equal rows have equal pks.
    call_command("flush", interactive=False, verbosity=0)
    client = Client()
    client.force_login(make_user("stafford"))
    job = apply_and_run(client, token_of(upload(client, small_archive)))
    assert job.state == "done"
    from_admin = dump()
    assert staged_folders() == []
    page = client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    bench = Bench.objects.get()
    assert reverse("admin:leaderboard_bench_change", args=[bench.pk]) in page

    call_command("flush", interactive=False, verbosity=0)
    call_command("import_release", str(small_release_dir), stdout=io.StringIO())
    assert dump() == from_admin


def test_applying_answers_at_once_with_the_queued_job_and_writes_nothing(
    staff_client, small_archive
):
    token = token_of(upload(staff_client, small_archive))
    response = apply(staff_client, token)
    job = ImportJob.objects.get()
    assert response["Location"] == reverse("admin:ingest_import_job", args=[job.pk])
    assert not Bench.objects.exists()
    assert not ImportRecord.objects.filter(action="import").exists()
    page = staff_client.get(response["Location"]).content.decode()
    assert "Waiting for a worker" in page
    assert '<meta http-equiv="refresh"' in page  # inside <noscript>: works without scripts
    status = staff_client.get(reverse("admin:ingest_import_job_status", args=[job.pk])).json()
    assert (status["state"], status["finished"]) == ("queued", False)
    assert [p.name for p in staged_folders()] == [token]  # kept for the worker


def test_applying_records_the_import_and_logs_it(staff_client, staff, small_archive):
    job = apply_and_run(staff_client, token_of(upload(staff_client, small_archive)))
    record = ImportRecord.objects.get(action="import")
    assert job.record == record and job.state == "done"
    assert (record.outcome, record.user, record.via, record.staged) == (
        "applied",
        staff,
        "admin",
        False,
    )
    assert record.bench == "integration-bench" and len(record.source_sha256) == 64
    assert record.summary["changes"]["batches"]["new"] == ["1"]
    assert LogEntry.objects.filter(user=staff, object_id=str(record.pk)).exists()
    assert all(b.live for b in Batch.objects.all())


def test_the_done_job_page_reports_the_changes_and_the_disagreements(staff_client, small_archive):
    job = apply_and_run(staff_client, token_of(upload(staff_client, small_archive)))
    page = staff_client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "integration-bench revision" in page and "applied" in page
    assert 'class="import-changes"' in page
    assert "http-equiv" not in page and "admin-import-job.js" not in page  # finished: no polling
    disagreements = job.record.summary["disagreements"]
    if disagreements:
        assert disagreements[0]["task"] in page
    status = staff_client.get(reverse("admin:ingest_import_job_status", args=[job.pk])).json()
    assert status["finished"] and status["state"] == "done"
    assert status["done"] == status["total"] == job.record.summary["attempts"]


def test_unchecking_publish_keeps_the_new_batches_staged(staff_client, small_archive):
    apply_and_run(staff_client, token_of(upload(staff_client, small_archive)), publish=False)
    assert Batch.objects.exists()
    assert not Batch.objects.filter(live=True).exists()
    assert ImportRecord.objects.get(action="import").staged


def test_a_release_that_changed_since_its_preview_is_refused(
    staff_client, small_release_dir, settings
):
    imports = Path(settings.BENCHVIEW_IMPORT_DIR)
    shutil.copytree(small_release_dir, imports / "release")
    token = token_of(staff_client.post(reverse(START), {"name": "release"}))
    edit_json(imports / "release" / "manifest.json", lambda m: m.update(title="Changed"))

    job = apply_and_run(staff_client, token)
    assert not Bench.objects.exists()
    assert staged_folders() == []
    record = ImportRecord.objects.get(action="import")
    assert record.outcome == "refused" and job.record == record
    assert job.state == "failed" and "changed since it was previewed" in job.error
    page = staff_client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "changed since it was previewed" in page and "Retry this job" in page


def test_a_job_finding_another_import_running_fails_and_can_be_retried(staff_client, small_archive):
    token = token_of(upload(staff_client, small_archive))
    with import_lock(holder="alice importing other.tar.gz"):
        job = apply_and_run(staff_client, token)
        assert job.state == "failed"
        assert "Another import is running (alice importing other.tar.gz" in job.error
        assert not Bench.objects.exists()
        assert [p.name for p in staged_folders()] == [token]  # kept, to try again
    assert ImportRecord.objects.get(action="import").outcome == "refused"

    retry = reverse("admin:ingest_import_job_retry", args=[job.pk])
    assert staff_client.post(retry)["Location"] == reverse("admin:ingest_import_job", args=[job.pk])
    job.refresh_from_db()
    assert (job.state, job.tries, job.error) == ("queued", 2, "")
    run_jobs()
    job.refresh_from_db()
    assert job.state == "done" and job.record.outcome == "applied"
    assert Bench.objects.exists()
    assert staged_folders() == []


def test_only_a_failed_job_can_be_retried(staff_client, small_archive):
    job = apply_and_run(staff_client, token_of(upload(staff_client, small_archive)))
    staff_client.post(reverse("admin:ingest_import_job_retry", args=[job.pk]))
    job.refresh_from_db()
    assert (job.state, job.tries) == ("done", 1)


def test_the_history_lists_every_job_with_its_state(staff_client, small_archive):
    done = apply_and_run(staff_client, token_of(upload(staff_client, small_archive)))
    apply(staff_client, token_of(upload(staff_client, small_archive)))
    queued = ImportJob.objects.latest("pk")
    page = staff_client.get(reverse("admin:ingest_importjob_changelist")).content.decode()
    for job in (done, queued):
        assert reverse("admin:ingest_import_job", args=[job.pk]) in page
    assert ">done<" in page and ">queued<" in page


# --- staged files ------------------------------------------------------------------------------


def test_cancel_removes_the_staged_upload(staff_client, small_archive):
    token = token_of(upload(staff_client, small_archive))
    staff_client.post(reverse("admin:ingest_import_cancel", args=[token]))
    assert staged_folders() == []
    response = staff_client.get(reverse("admin:ingest_import_preview", args=[token]))
    assert response["Location"] == reverse(START)


def test_a_token_from_another_session_is_not_honoured(staff_client, small_archive):
    token = token_of(upload(staff_client, small_archive))
    other = Client()
    other.force_login(make_user("other"))
    assert apply(other, token)["Location"] == reverse(START)
    assert not Bench.objects.exists()
    assert [p.name for p in staged_folders()] == [token]


def test_stale_staged_uploads_are_swept_on_the_next_visit(staff_client, small_archive, settings):
    token = token_of(upload(staff_client, small_archive))
    old = time.time() - settings.BENCHVIEW_LIMITS["upload_stale_s"] - 60
    os.utime(staging_root() / token, (old, old))
    fresh = token_of(upload(staff_client, small_archive))
    staff_client.get(reverse(START))
    assert [p.name for p in staged_folders()] == [fresh]


# --- bad uploads ------------------------------------------------------------------------------


def _not_an_archive(tmp_path, release):
    path = tmp_path / "notes.zip"
    path.write_text("this is not an archive\n")
    return path


def _truncated(tmp_path, release):
    whole = tar_gz(release, tmp_path / "whole.tar.gz").read_bytes()
    path = tmp_path / "cut.tar.gz"
    path.write_bytes(whole[: len(whole) // 2])
    return path


def _bomb(tmp_path, release):
    # 64 MiB of zeros in a few kilobytes, past the (lowered) unpacked-size limit.
    path = tmp_path / "bomb.zip"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("release/manifest.json", "w", force_zip64=True) as member,
    ):
        for _ in range(64):
            member.write(b"\0" * 1024**2)
    return path


def _path_escape(tmp_path, release):
    path = tmp_path / "escape.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        data = b"{}"
        info = tarfile.TarInfo("../../etc/evil.json")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return path


def _gzip_not_tar(tmp_path, release):
    path = tmp_path / "plain.tar.gz"
    path.write_bytes(gzip.compress(b"just text, no tar inside" * 100))
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_not_an_archive, "not"),
        (_truncated, "truncated"),
        (_bomb, "limit"),
        (_path_escape, "escapes"),
        (_gzip_not_tar, "not a tar archive"),
    ],
    ids=["not-an-archive", "truncated", "compression-bomb", "path-escape", "gzip-not-tar"],
)
def test_a_bad_upload_gets_a_clear_message_and_leaves_nothing(
    staff_client, small_release_dir, tmp_path, settings, make, says
):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "archive_max_bytes": 8 * 1024**2}
    response = upload(staff_client, make(tmp_path, small_release_dir))
    html = response.content.decode()
    assert response.status_code == 400
    assert "This release cannot be read, so nothing was written" in html
    record = ImportRecord.objects.get()
    assert record.outcome == "refused"
    assert says in record.message, record.message
    assert record.message in html.replace("&#x27;", "'")
    assert staged_folders() == []
    assert not Bench.objects.exists()


def test_an_upload_over_the_size_limit_is_stopped_while_streaming(
    staff_client, small_archive, settings
):
    limit = small_archive.stat().st_size // 2
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "upload_max_bytes": limit}
    response = upload(staff_client, small_archive)
    assert response.status_code == 413
    assert "larger than the limit" in response.content.decode()
    assert staged_folders() == []
    assert not ImportRecord.objects.exists()


def test_a_body_far_over_the_limit_is_refused_unread(staff_client, small_archive, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "upload_max_bytes": 1024}
    response = upload(staff_client, small_archive)
    assert response.status_code == 413
    assert staged_folders() == []  # no folder was even created


# --- picking on the server --------------------------------------------------------------------


def test_a_release_on_the_server_is_picked_by_name(staff_client, small_release_dir, settings):
    shutil.copytree(small_release_dir, Path(settings.BENCHVIEW_IMPORT_DIR) / "release")
    page = staff_client.get(reverse(START)).content.decode()
    assert '<option value="release">release</option>' in page
    token = token_of(staff_client.post(reverse(START), {"name": "release"}))
    apply_and_run(staff_client, token)
    assert Model.objects.count() == 5
    assert staged_folders() == []
    assert (Path(settings.BENCHVIEW_IMPORT_DIR) / "release").is_dir()  # the pick is not removed


@pytest.mark.parametrize("name", ["../outside", "/etc", "link-out"])
def test_nothing_outside_the_import_folder_can_be_picked(
    staff_client, small_release_dir, settings, tmp_path, name
):
    shutil.copytree(small_release_dir, tmp_path / "outside")
    (Path(settings.BENCHVIEW_IMPORT_DIR) / "link-out").symlink_to(tmp_path / "outside")
    page = staff_client.get(reverse(START)).content.decode()
    assert "link-out" not in page
    response = staff_client.post(reverse(START), {"name": name})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not ImportRecord.objects.exists()
    assert staged_folders() == []


def test_the_upload_limit_reads_as_its_exact_size(staff_client, small_archive, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "upload_max_bytes": 2_000_000}
    page = staff_client.get(reverse("admin:ingest_import")).content.decode()
    assert "At most 2,000,000 bytes (1.9 MiB)." in page
    assert 'data-max-label="2,000,000 bytes (1.9 MiB)"' in page
    assert "1 MiB" not in page
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "upload_max_bytes": 1000}
    said = upload(staff_client, small_archive).content.decode()
    assert "larger than the limit of 1,000 bytes (BENCHVIEW_UPLOAD_MAX_BYTES)" in said
