"""One recorded import: the command line and the admin's job record every outcome alike."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from formats.reader import open_release
from ingest.models import ImportJob, ImportLock, ImportRecord
from ingest.running.imports import Outcome
from ingest.running.jobs import job_enqueue
from ingest.running.locks import import_lock
from leaderboard.models import Attempt, Bench
from tests.factories import edit_json, import_path, make_user, run_jobs

pytestmark = pytest.mark.django_db(databases=["default", "progress"])

# What must match whoever imported the release (who and how long may differ).
SAME = ["action", "outcome", "bench", "revision", "source_sha256", "staged", "summary", "problems"]


def by_command(path) -> ImportRecord:
    # Refused and failed imports exit with an error; the record is what is compared.
    with contextlib.suppress(CommandError):
        call_command("import_release", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    return ImportRecord.objects.latest("pk")


def by_admin_job(path) -> ImportRecord:
    with open_release(path) as source:
        sha256 = source.sha256
    job = job_enqueue(
        path=path, name=path.name, expected_sha256=sha256, staged=False, user=make_user("j")
    )
    run_jobs()
    job.refresh_from_db()
    assert job.record is not None, job.error
    assert job.state == ("done" if job.record.outcome in ("applied", "no-change") else "failed")
    return job.record


def fields(record: ImportRecord) -> dict:
    return {name: getattr(record, name) for name in SAME}


def test_an_applied_import_is_recorded_alike(small_release_dir):
    command = by_command(small_release_dir)
    Bench.objects.all().delete()
    admin = by_admin_job(small_release_dir)
    assert command.outcome == Outcome.APPLIED
    assert fields(admin) == fields(command)
    assert (command.via, admin.via) == ("command", "admin")
    assert admin.user is not None and command.user is None


def test_an_unchanged_import_is_recorded_alike(small_release_dir):
    import_path(small_release_dir)
    command = by_command(small_release_dir)
    admin = by_admin_job(small_release_dir)
    assert command.outcome == Outcome.NO_CHANGE
    assert fields(admin) == fields(command)


def test_a_release_with_problems_is_refused_and_recorded_alike(release_copy):
    edit_json(release_copy / "manifest.json", lambda m: m["counts"].update(attempts=999))
    command = by_command(release_copy)
    admin = by_admin_job(release_copy)
    assert command.outcome == Outcome.REFUSED
    assert "manifest.json: counts.attempts: says 999" in command.problems[0]
    assert fields(admin) == fields(command)
    assert not Bench.objects.exists()


def test_an_unexpected_error_is_recorded_as_failed_alike_and_writes_nothing(
    small_release_dir, monkeypatch
):
    def broken(**kwargs):
        raise RuntimeError("recompute exploded")

    monkeypatch.setattr("ingest.writing.services.bench_recompute", broken)
    command = by_command(small_release_dir)
    admin = by_admin_job(small_release_dir)
    for record in (command, admin):
        assert record.outcome == Outcome.FAILED
        assert record.message == "RuntimeError: recompute exploded"
    assert fields(admin) == fields(command)
    assert not Bench.objects.exists() and not Attempt.objects.exists()
    assert not ImportLock.objects.exists()
    assert ImportJob.objects.get().error == "RuntimeError: recompute exploded"


def test_a_busy_lock_is_refused_and_recorded_alike(small_release_dir):
    with import_lock(holder="someone else"):
        command = by_command(small_release_dir)
        admin = by_admin_job(small_release_dir)
    assert command.outcome == Outcome.REFUSED
    assert "Another import is running (someone else" in command.message
    assert fields(admin) == fields(command)
    assert not Bench.objects.exists()


def test_the_command_says_to_migrate_a_database_that_never_was(small_release_dir, tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'never-migrated.sqlite3'}"}
    done = subprocess.run(
        [sys.executable, "manage.py", "import_release", str(small_release_dir), "--dry-run"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "run `python manage.py migrate` first" in done.stderr
    assert "Traceback" not in done.stderr
