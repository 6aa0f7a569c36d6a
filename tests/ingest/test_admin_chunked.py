"""The admin's "Write in chunks": an apply whose job writes the bench a chunk at a
time into a hidden copy and swaps it in (ingest.writing.chunked), as
``import_release --chunked`` does; unticked, the one-transaction import as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from ingest.models import ImportJob
from ingest.running.jobs import job_enqueue, jobs_reap
from ingest.running.locks import import_lock
from leaderboard.models import Bench
from samplegen.release import generate_release
from tests.factories import (
    apply_and_run,
    make_user,
    run_jobs,
    tar_gz,
    token_of,
    upload,
)
from tests.ingest.chunked import hidden, small_chunks

BENCH = "chunky-admin"
CHUNKS = re.compile(r"attempt\(s\) written in (\d+) chunk\(s\)")

# The chunks really commit (as in tests/ingest/test_chunked_import.py); the
# job's progress row has its own connection.
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "progress"])


@pytest.fixture(autouse=True)
def _private_folders_and_small_chunks(settings, tmp_path):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    (tmp_path / "imports").mkdir()
    small_chunks(settings)  # about one attempt a chunk


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> tuple[Path, Path]:
    """The same bench twice: then its next release (one more model, other scores)."""
    root = tmp_path_factory.mktemp("chunked-admin")
    first, second = root / "first" / "release", root / "second" / "release"
    generate_release(first, models=3, tasks=5, released=4, seed=21, bench=BENCH)
    generate_release(second, models=4, tasks=5, released=4, seed=22, bench=BENCH)
    return tar_gz(first, root / "first.tar.gz"), tar_gz(second, root / "second.tar.gz")


@pytest.fixture
def staff_client(db) -> Client:
    client = Client()
    client.force_login(make_user("stafford"))
    return client


def chunks_of(job: ImportJob) -> int | None:
    found = CHUNKS.search(job.record.message)
    return int(found.group(1)) if found else None


def job_page(client: Client, job: ImportJob) -> str:
    return client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()


def test_the_preview_offers_writing_in_chunks_unticked_and_says_what_it_does(
    staff_client, archives
):
    token = token_of(upload(staff_client, archives[0]))
    html = staff_client.get(reverse("admin:ingest_import_preview", args=[token])).content.decode()
    box = re.search(r'<input type="checkbox" name="chunked"[^>]*>', html).group(0)
    assert "checked" not in box and 'aria-describedby="id_chunked_helptext"' in box
    assert '<label for="id_chunked" class="vCheckboxLabel">Write in chunks</label>' in html
    help_text = re.search(r'id="id_chunked_helptext">([^<]*)<', html).group(1)
    for said in ("nothing shows", "resumes", "import_cleanup", "new bench", "replacing"):
        assert said in help_text


def test_a_chunked_apply_writes_a_hidden_copy_in_chunks_and_swaps_it_in(staff_client, archives):
    first, second = archives
    job = apply_and_run(staff_client, token_of(upload(staff_client, first)), chunked=True)
    assert job.chunked is True
    assert job.state == "done" and job.record.outcome == "applied"
    assert chunks_of(job) > 1  # committed a chunk at a time
    replaced = Bench.objects.get(slug=BENCH)

    job = apply_and_run(staff_client, token_of(upload(staff_client, second)), chunked=True)
    assert (job.state, job.chunked, job.record.outcome) == ("done", True, "applied")
    assert chunks_of(job) > 1
    # The bench of that id is the hidden copy, swapped in; the one it replaced is gone.
    shown = Bench.objects.get(slug=BENCH)
    assert shown.pk != replaced.pk
    assert not Bench.everything.filter(pk=replaced.pk).exists()
    assert shown.models.count() == 4
    assert hidden() == []  # nothing left behind
    page = job_page(staff_client, job)
    assert '<td id="job-writing">in chunks, into a hidden copy swapped in at the end</td>' in page
    assert re.search(r"written in \d+ chunk\(s\)", page)


def test_unticked_the_job_writes_in_one_transaction_as_before(staff_client, archives):
    first, second = archives
    job = apply_and_run(staff_client, token_of(upload(staff_client, first)))
    assert job.chunked is False
    assert job.state == "done" and job.record.outcome == "applied"
    assert "chunk" not in job.record.message
    bench = Bench.objects.get(slug=BENCH)

    job = apply_and_run(staff_client, token_of(upload(staff_client, second)))
    assert (job.state, job.record.outcome, chunks_of(job)) == ("done", "applied", None)
    # Written in place: the same bench row, four models now.
    assert Bench.objects.get(slug=BENCH).pk == bench.pk
    assert bench.models.count() == 4
    assert '<td id="job-writing">in one transaction</td>' in job_page(staff_client, job)


def test_a_retried_chunked_job_is_still_chunked(staff_client, archives):
    token = token_of(upload(staff_client, archives[0]))
    with import_lock(holder="alice importing other.tar.gz"):
        job = apply_and_run(staff_client, token, chunked=True)
        assert job.state == "failed" and "Another import is running" in job.error
    staff_client.post(reverse("admin:ingest_import_job_retry", args=[job.pk]))
    run_jobs()
    job.refresh_from_db()
    assert (job.state, job.tries, job.chunked) == ("done", 2, True)
    assert chunks_of(job) > 1


def test_a_chunked_job_whose_worker_died_says_its_chunks_are_kept_hidden(
    staff_client, archives, settings
):
    staff = make_user("other")
    jobs = {
        chunked: job_enqueue(
            path=archives[0],
            name=archives[0].name,
            expected_sha256="0" * 64,
            staged=False,
            user=staff,
            chunked=chunked,
        )
        for chunked in (True, False)
    }
    # Workers on another machine that stopped beating.
    ImportJob.objects.update(state="running", worker_host="elsewhere", worker_pid=1)
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "job_lease_s": 0}
    assert len(jobs_reap()) == 2
    chunked, whole = (ImportJob.objects.get(pk=jobs[c].pk) for c in (True, False))
    assert "chunks it committed are kept hidden" in chunked.error
    assert "Retry the job to resume them" in chunked.error and "import_cleanup" in chunked.error
    assert "nothing of it was written" not in chunked.error
    assert "nothing of it was written" in whole.error and "chunk" not in whole.error
