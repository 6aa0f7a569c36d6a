"""Admin import of Harbor jobs: told apart from releases by content, with a bench id."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Bench
from tests.factories import START, UPLOAD, apply_and_run, make_user, token_of
from tests.ingest.harbor_trials import job, trial

# Applying goes through an import job, whose progress row has its own connection.
pytestmark = pytest.mark.django_db(databases=["default", "progress"])


@pytest.fixture(autouse=True)
def _private_folders(settings, tmp_path):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    (tmp_path / "imports").mkdir()


@pytest.fixture
def staff_client(client):
    client.force_login(make_user("harbourmaster"))
    return client


def jobs_archive(tmp_path: Path, name: str = "ibench-results.bin") -> Path:
    root = tmp_path / "jobs"
    j = job(root)
    trial(j, "etl_checkpoint_resume_bug", reward=1.0)
    trial(j, "fix_async_worker", reward=0.0)
    # Named like nothing in particular: the content decides.
    target = tmp_path / name
    with tarfile.open(target, "w:gz") as archive:
        archive.add(root, arcname="jobs")
    return target


def upload(client, path: Path, **data):
    with open(path, "rb") as fh:
        return client.post(reverse(UPLOAD), {"archive": fh, **data})


def test_an_uploaded_harbor_archive_is_previewed_and_applied_into_the_named_bench(
    staff_client, tmp_path
):
    response = upload(staff_client, jobs_archive(tmp_path), bench="ibench")
    token = token_of(response)
    preview = staff_client.get(reverse("admin:ingest_import_preview", args=[token]))
    html = preview.content.decode()
    assert "ibench" in html and not Bench.objects.exists()
    job = apply_and_run(staff_client, token)
    assert job.state == "done"
    bench = Bench.objects.get(slug="ibench")
    assert bench.scoring_rule == "reward-threshold"
    assert set(Attempt.objects.values_list("task__slug", "score")) == {
        ("etl-checkpoint-resume-bug", 1.0),
        ("fix-async-worker", 0.0),
    }


def test_harbor_jobs_without_a_bench_id_are_refused_with_a_message(staff_client, tmp_path):
    response = upload(staff_client, jobs_archive(tmp_path))
    assert response.status_code == 400
    assert "needs the bench id" in response.content.decode()
    assert not Bench.objects.exists()


def test_the_start_page_offers_the_bench_id_field(staff_client):
    html = staff_client.get(reverse(START)).content.decode()
    assert 'name="bench"' in html and "Harbor jobs" in html


def test_the_admin_import_scores_trials_that_raised_by_the_chosen_rule(staff_client, tmp_path):
    root = tmp_path / "jobs"
    trial(job(root), "t1", reward=1.0, exception={"exception_type": "AgentTimeoutError"})
    target = tmp_path / "jobs.tar.gz"
    with tarfile.open(target, "w:gz") as archive:
        archive.add(root, arcname="jobs")
    start = staff_client.get(reverse(START)).content.decode()
    assert 'name="exceptions"' in start and "terminal-bench" in start
    response = upload(staff_client, target, bench="ibench", exceptions="fail")
    token = token_of(response)
    preview = staff_client.get(reverse("admin:ingest_import_preview", args=[token]))
    assert "scored by the <code>fail</code> rule" in preview.content.decode()
    job_row = apply_and_run(staff_client, token)
    assert job_row.state == "done" and job_row.exceptions_rule == "fail"
    assert Bench.objects.get(slug="ibench").exceptions_rule == "fail"
    assert Attempt.objects.get().score == 0.0
