"""Admin import of Terminal-Bench runs: detected by content like any registered format."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Bench
from samplegen.terminal_bench import write_submission
from tests.factories import UPLOAD, apply_and_run, make_user, token_of

# Applying goes through an import job, whose progress row has its own connection.
pytestmark = pytest.mark.django_db(databases=["default", "progress"])

TASKS = ["hello-world", "fix-permissions"]


@pytest.fixture(autouse=True)
def _private_folders(settings, tmp_path):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    (tmp_path / "imports").mkdir()


@pytest.fixture
def staff_client(client):
    client.force_login(make_user("runner"))
    return client


def runs_archive(tmp_path: Path) -> Path:
    write_submission(tmp_path / "runs", "20250101_agent_m", "agent", "v/m", runs=2, attempts=1,
                     folders=True, tasks=TASKS)  # fmt: skip
    target = tmp_path / "upload.bin"  # named like nothing in particular: the content decides
    with tarfile.open(target, "w:gz") as archive:
        archive.add(tmp_path / "runs" / "20250101_agent_m", arcname="20250101_agent_m")
    return target


def upload(client, path: Path, **data):
    with open(path, "rb") as fh:
        return client.post(reverse(UPLOAD), {"archive": fh, **data})


def test_uploaded_runs_are_previewed_and_applied_into_the_named_bench(staff_client, tmp_path):
    response = upload(staff_client, runs_archive(tmp_path), bench="tbench")
    token = token_of(response)
    preview = staff_client.get(reverse("admin:ingest_import_preview", args=[token]))
    assert "tbench" in preview.content.decode() and not Bench.objects.exists()
    job = apply_and_run(staff_client, token)
    assert job.state == "done"
    assert Attempt.all_trials.filter(bench__slug="tbench").count() == 2 * len(TASKS)


def test_runs_without_a_bench_id_are_refused_naming_the_format(staff_client, tmp_path):
    response = upload(staff_client, runs_archive(tmp_path))
    assert response.status_code == 400
    assert "Terminal-Bench runs it needs the bench id" in response.content.decode()
    assert not Bench.objects.exists()
