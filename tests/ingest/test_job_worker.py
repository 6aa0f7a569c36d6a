"""Import jobs in a real worker process: one killed mid-import loses nothing and can be retried."""

from __future__ import annotations

import re
import signal

import pytest
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from formats.reader import open_release
from ingest.models import ImportJob, ImportJobLive, ImportRecord
from ingest.running.jobs import job_enqueue
from ingest.running.locks import import_lock
from leaderboard.models import Attempt, Bench
from samplegen.release import generate_release
from tests.factories import dump, import_path, make_user, run_jobs
from tests.workers import db_worker, wait_for

# Enough attempts that the worker is still writing when it is killed.
SIZE = {"models": 4, "tasks": 40, "seed": 5}

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True, databases=["default", "progress"]),
]


@pytest.fixture(scope="module")
def first_and_second(tmp_path_factory):
    """The same bench twice: 10 tasks released, then all 40 (only read, so one pair
    serves the module)."""
    tmp_path = tmp_path_factory.mktemp("releases")
    generate_release(tmp_path / "first", released=10, **SIZE)
    generate_release(tmp_path / "second", released=40, **SIZE)
    return tmp_path / "first", tmp_path / "second"


def queue(path, user, *, chunked: bool = False) -> ImportJob:
    with open_release(path) as source:
        sha256 = source.sha256
    return job_enqueue(
        path=path, name=path.name, expected_sha256=sha256, staged=False, user=user, chunked=chunked
    )


def live_writing(job: ImportJob):
    row = ImportJobLive.objects.filter(job_id=job.pk).first()
    return row if row and row.phase == "writing" and 0 < row.done < row.total else None


def test_a_worker_killed_mid_import_leaves_the_database_and_the_lock_and_fails_the_job(
    first_and_second,
):
    first, second = first_and_second
    import_path(first)
    before = dump()
    staff = make_user("stafford")
    job = queue(second, staff)
    client = Client()
    client.force_login(staff)
    status_url = reverse("admin:ingest_import_job_status", args=[job.pk])

    with db_worker() as worker:
        wait_for(lambda: live_writing(job), timeout=120, what="the job to be writing")
        # The page sees the progress while the import's transaction is still open.
        running = client.get(status_url).json()
        assert (running["state"], running["phase"]) == ("running", "writing")
        assert 0 < running["done"] < running["total"] and running["events"] > 0
        job.refresh_from_db()
        assert job.state == "running" and job.worker_pid == worker.pid
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)

    # The job's page is what notices: the worker's process is gone.
    status = client.get(status_url).json()
    assert (status["state"], status["finished"]) == ("failed", True)
    job.refresh_from_db()
    assert f"pid {worker.pid}" in job.error and "its process is gone" in job.error
    assert "during writing" in job.error
    assert "nothing of it was written" in job.error
    assert DBTaskResult.objects.get(id=job.task_id).status == "FAILED"  # the queue agrees

    assert dump() == before
    # It never finished: its failure is the job's only import record, with the
    # reason (the first release came in through the command line's door).
    (failure,) = ImportRecord.objects.filter(action="import", via="admin")
    assert (failure.outcome, failure.message) == ("failed", job.error)
    with import_lock(holder="the next import"):
        pass  # free: no ImportBusy
    page = client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "Retry this job" in page

    client.post(reverse("admin:ingest_import_job_retry", args=[job.pk]))
    run_jobs()
    job.refresh_from_db()
    assert (job.state, job.tries, job.record.outcome) == ("done", 2, "applied")
    assert dump() != before
    # The first try's failure stays in the history.
    assert ImportRecord.objects.filter(pk=failure.pk, outcome="failed").exists()


def test_a_job_whose_worker_went_silent_is_failed_by_the_next_worker(first_and_second, settings):
    first, _ = first_and_second
    staff = make_user("stafford")
    silent = queue(first, staff)
    # A worker on another machine that stopped beating: no process to look at here.
    ImportJob.objects.filter(pk=silent.pk).update(
        state="running", worker_host="elsewhere", worker_pid=1
    )
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "job_lease_s": 0}
    fresh = queue(first, staff)
    run_jobs()
    silent.refresh_from_db()
    fresh.refresh_from_db()
    assert silent.state == "failed" and "no heartbeat" in silent.error
    assert fresh.state == "done"


def test_a_chunked_job_killed_mid_import_shows_nothing_and_its_retry_resumes(
    first_and_second, settings
):
    _, second = first_and_second
    staff = make_user("stafford")
    job = queue(second, staff, chunked=True)
    client = Client()
    client.force_login(staff)

    def pending_attempts() -> int:
        return Attempt.all_trials.filter(bench__state=Bench.State.PENDING).count()

    # A chunk of about one attempt, committed one after another by the worker.
    with db_worker(BENCHVIEW_IMPORT_CHUNK_BYTES="1") as worker:
        wait_for(lambda: pending_attempts() >= 5, timeout=120, what="chunks to be committed")
        # Committed, and seen by nobody: the site's benches do not include it.
        assert not Bench.objects.exists()
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    committed = pending_attempts()

    status = client.get(reverse("admin:ingest_import_job_status", args=[job.pk])).json()
    assert status["state"] == "failed"
    job.refresh_from_db()
    assert "its process is gone" in job.error and "kept hidden" in job.error
    assert not Bench.objects.exists() and pending_attempts() == committed

    client.post(reverse("admin:ingest_import_job_retry", args=[job.pk]))
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "import_chunk_bytes": 1}
    run_jobs()
    job.refresh_from_db()
    assert (job.state, job.tries, job.chunked, job.record.outcome) == (
        "done", 2, True, "applied",
    )  # fmt: skip
    # The retry kept what the killed try had committed, and swapped the bench in.
    kept = int(re.search(r"(\d+) kept from an interrupted import", job.record.message).group(1))
    assert kept == committed
    assert Bench.objects.count() == 1 and not Bench.everything.exclude(state="shown").exists()
