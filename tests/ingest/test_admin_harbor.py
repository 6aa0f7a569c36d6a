"""Admin import of Harbor jobs: told apart from releases by content, with a bench id."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Bench, Model
from tests.factories import START, UPLOAD, apply_and_run, make_user, token_of
from tests.ingest.harbor_trials import atif, job, trial

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


def raw_job_archive(tmp_path: Path) -> Path:
    """A job whose trajectory names the runner's home folder, as raw Harbor output does."""
    root = tmp_path / "raw"
    steps = [
        {"step_id": 1, "source": "user", "message": "Fix it."},
        {
            "step_id": 2,
            "source": "agent",
            "message": "ok",
            "tool_calls": [
                {"tool_call_id": "c1", "function_name": "Bash", "arguments": {"command": "ls"}}
            ],
            "observation": {"results": [{"source_call_id": "c1", "content": "/home/alice/a.py"}]},
        },
    ]
    trial(job(root), "t1", trajectory=atif(steps=steps), model="m-1", agent="codex")
    target = tmp_path / "raw.tar.gz"
    with tarfile.open(target, "w:gz") as archive:
        archive.add(root, arcname="jobs")
    return target


def test_the_start_page_offers_scrubbing_on_by_default_and_a_models_file_field(staff_client):
    html = staff_client.get(reverse(START)).content.decode()
    assert 'name="scrub"' in html and "checked" in html.split('name="scrub"')[1].split(">")[0]
    assert 'name="models"' in html and "Models file (Harbor jobs)" in html


def test_uploaded_raw_jobs_are_scrubbed_by_default_and_the_preview_lists_each_rewrite(
    staff_client, tmp_path
):
    response = upload(staff_client, raw_job_archive(tmp_path), bench="hb", scrub="on")
    token = token_of(response)
    html = staff_client.get(reverse("admin:ingest_import_preview", args=[token])).content.decode()
    assert html.count("runner home path &#x27;/home/alice/&#x27;") == 1
    assert "agent/trajectory.json" in html
    assert apply_and_run(staff_client, token).state == "done"
    attempt = Attempt.objects.select_related("model").get()
    page = staff_client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"]))
    assert "/home/user/a.py" in page.content.decode()
    assert "alice" not in page.content.decode()


def test_uploaded_raw_jobs_without_scrubbing_are_refused_naming_both_choices(
    staff_client, tmp_path
):
    response = upload(staff_client, raw_job_archive(tmp_path), bench="hb")
    assert response.status_code == 400
    html = response.content.decode()
    assert "/home/alice/" in html and "--no-scrub" in html and "--scrub" in html
    assert not Bench.objects.exists()


def test_the_models_field_gives_the_jobs_models_their_ids_names_and_providers(
    staff_client, tmp_path
):
    entries = [
        {
            "model_name": "claude-sonnet-4-5",
            "agent": "claude-code",
            "id": "sonnet",
            "display_name": "Claude Sonnet 4.5",
            "provider": "Anthropic",
        }
    ]
    response = upload(
        staff_client, jobs_archive(tmp_path), bench="hb", scrub="on", models=json.dumps(entries)
    )
    assert apply_and_run(staff_client, token_of(response)).state == "done"
    model = Model.objects.get()
    assert (model.slug, model.display_name, model.provider) == (
        "sonnet",
        "Claude Sonnet 4.5",
        "Anthropic",
    )


def test_a_broken_models_field_is_refused_naming_the_entry(staff_client, tmp_path):
    response = upload(
        staff_client, jobs_archive(tmp_path), bench="hb", models='[{"model_name": "m"}]'
    )
    assert response.status_code == 200
    assert "models file: [0].agent: expected a string" in response.content.decode()
    assert not Bench.objects.exists()


def test_transcripts_in_no_known_format_are_said_once_with_a_count(staff_client, tmp_path):
    root = tmp_path / "jobs"
    j = job(root)
    for task in ("alpha_task", "beta_task", "gamma_task"):
        trial(j, task, raw_log=b"plain words from a harness nobody can parse\n")
    response = upload(staff_client, _archive(root, tmp_path), bench="ibench")
    html = staff_client.get(
        reverse("admin:ingest_import_preview", args=[token_of(response)])
    ).content.decode()
    said = html.split('class="transcripts-unchecked"', 1)[1].split("</p>", 1)[0]
    assert "of 3 attempts, in no format this site knows" in said
    assert "<code>claude-stream-json</code>" in said
    # Not one row per attempt.
    assert "transcript not checked" not in html


def _archive(root: Path, tmp_path: Path) -> Path:
    target = tmp_path / "jobs.tar.gz"
    with tarfile.open(target, "w:gz") as archive:
        archive.add(root, arcname="jobs")
    return target
