"""An import killed just after its commit is recorded: the record commits with the import.

The child is a real process stopped with SIGKILL right after the import's
transaction commits (an on-commit hook prints a line and sleeps), before the
blob sweep, the temporary folder's removal and everything else that follows.
"""

from __future__ import annotations

import textwrap

import pytest
from django.test import Client
from django.urls import reverse

from formats.reader import open_release
from ingest.models import ImportJob, ImportRecord
from ingest.running.jobs import job_enqueue, job_retry, jobs_reap
from leaderboard.models import Attempt
from tests import children
from tests.factories import make_user, run_jobs

pytestmark = [
    # On SQLite the test database is a file (as for worker tests), which the child shares.
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True, databases=["default", "progress"]),
]

# Registers, inside the import's transaction, a hook that runs once it has
# committed: the child says so and waits there to be killed.
STOP_AFTER_COMMIT = """
import time
from django.db import transaction
import ingest.writing.services

raise_generation = ingest.writing.services.generation_raise

def raise_then_stop_after_commit():
    raise_generation()
    transaction.on_commit(lambda: (print("committed", flush=True), time.sleep(120)))

ingest.writing.services.generation_raise = raise_then_stop_after_commit
"""


@pytest.fixture
def child_env(child_database_url, settings, tmp_path) -> dict[str, str]:
    return {
        "DATABASE_URL": child_database_url,
        "BENCHVIEW_LOCK_DIR": str(settings.BENCHVIEW_LOCK_DIR),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
    }


def killed_after_commit(code: str, env: dict[str, str], args: list[str]) -> None:
    child = children.start(STOP_AFTER_COMMIT + textwrap.dedent(code), env=env, args=args)
    try:
        children.ready(child, "committed")
    finally:
        children.kill9(child)


def test_a_command_line_import_killed_just_after_its_commit_has_its_record(
    child_env, small_release_dir
):
    killed_after_commit(
        """
        import sys
        from django.core.management import call_command
        call_command("import_release", sys.argv[1])
        """,
        child_env,
        [str(small_release_dir)],
    )
    assert Attempt.objects.exists()  # the import is visible...
    (record,) = ImportRecord.objects.filter(action="import")  # ...and recorded
    assert (record.outcome, record.via) == ("applied", "command")
    assert "attempt(s) written" in record.message


def test_a_job_killed_just_after_its_commit_is_done_not_failed(child_env, small_release_dir):
    staff = make_user("stafford")
    with open_release(small_release_dir) as source:
        sha256 = source.sha256
    job = job_enqueue(
        path=small_release_dir, name="small", expected_sha256=sha256, staged=False, user=staff
    )
    killed_after_commit(
        """
        import sys
        from ingest.running.jobs import import_job_run
        import_job_run.call(job_id=int(sys.argv[1]))
        """,
        child_env,
        [str(job.pk)],
    )
    client = Client()
    client.force_login(staff)
    # The job's page is what would reap a dead worker's job: this one finished.
    status = client.get(reverse("admin:ingest_import_job_status", args=[job.pk])).json()
    assert (status["state"], status["error"]) == ("done", "")
    job.refresh_from_db()
    assert job.record.outcome == "applied"
    assert list(ImportRecord.objects.values_list("outcome", flat=True)) == ["applied"]
    assert Attempt.objects.exists()


def test_a_reaped_jobs_failure_stays_in_the_records_when_it_is_retried(small_release_dir, settings):
    staff = make_user("stafford")
    with open_release(small_release_dir) as source:
        sha256 = source.sha256
    job = job_enqueue(
        path=small_release_dir, name="small", expected_sha256=sha256, staged=False, user=staff
    )
    # Its worker, on another machine, stopped beating.
    ImportJob.objects.filter(pk=job.pk).update(
        state="running", worker_host="elsewhere", worker_pid=1
    )
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "job_lease_s": 0}
    (reaped,) = jobs_reap()
    job.refresh_from_db()
    assert job.state == "failed" and job.record.outcome == "failed"
    assert job.record.message == job.error and "no heartbeat" in job.error
    assert (job.record.user, job.record.via, job.record.action) == (staff, "admin", "import")

    job_retry(job=job)
    run_jobs()
    job.refresh_from_db()
    assert (job.state, job.tries, job.record.outcome) == ("done", 2, "applied")
    history = ImportRecord.objects.order_by("pk").values_list("outcome", "message")
    assert [outcome for outcome, _ in history] == ["failed", "applied"]
    assert "no heartbeat" in history[0][1]
