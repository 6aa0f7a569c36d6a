"""Journey 4 of the site: staff upload a batch, preview, apply (a worker's job), publish."""

from __future__ import annotations

import re
import tarfile

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ingest.models import ImportJob
from leaderboard.models import Batch, Task
from samplegen.release import generate_release
from tests.factories import import_path
from tests.workers import db_worker

SIZE = {"models": 3, "tasks": 14, "events": 6, "seed": 11}


@pytest.fixture
def two_releases(tmp_path):
    """The same bench twice: one batch of 10 tasks, then a second batch of 3 more."""
    generate_release(tmp_path / "first", released=10, **SIZE)
    generate_release(tmp_path / "second", released=13, **SIZE)
    archive = tmp_path / "second.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tmp_path / "second", arcname="second")
    return tmp_path / "first", archive


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.django_db(transaction=True, databases=["default", "progress"])
def test_staff_upload_preview_apply_and_publish_a_new_batch(
    page, live_server, two_releases, settings, tmp_path
):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    first, archive = two_releases
    import_path(first)
    get_user_model().objects.create_user("stafford", password="pw-journey-4", is_staff=True)
    base = live_server.url

    page.goto(f"{base}/admin/")
    page.fill("#id_username", "stafford")
    page.fill("#id_password", "pw-journey-4")
    page.click("input[type=submit]")
    page.click("text=Import a release")
    expect(page.locator("h1")).to_have_text("Import a release")

    page.set_input_files("#id_archive", str(archive))
    page.click("text=Upload and preview")
    expect(page.locator("h1")).to_have_text("Preview: integration-bench")
    changes = page.locator("table.import-changes")
    expect(changes.locator("tr", has_text="batches").locator("td").first).to_have_text("1")
    expect(page.locator("table.import-scores tbody tr")).to_have_count(3)

    expect(page.get_by_label("Write in chunks")).not_to_be_checked()  # one transaction
    page.uncheck("#id_publish")
    page.click("text=Apply this import")
    # Apply answers at once with the job's page; nothing runs until a worker does.
    expect(page.locator("h1")).to_contain_text("Import job")
    expect(page.locator("#job-state")).to_have_text("queued")
    expect(page.locator("#job-bar")).to_be_visible()
    assert not Batch.objects.filter(number=2).exists()

    with db_worker():
        # The page follows the job by itself (status polling), then shows the report.
        expect(page.locator("#job-report")).to_contain_text(
            "new batches staged (staff only)", timeout=90_000
        )
    job = ImportJob.objects.get()
    assert job.state == "done" and job.record.outcome == "applied"
    report_batches = page.locator("table.import-changes tr", has_text="batches")
    expect(report_batches.locator("td").first).to_have_text("1")
    page.click("text=integration-bench: batches and publishing")
    new_tasks = list(Task.objects.filter(batch__number=2).values_list("slug", flat=True))
    assert len(new_tasks) == 3
    assert not Batch.objects.get(number=2).live

    anonymous = page.context.browser.new_page()
    task_url = f"{base}/integration-bench/tasks/{new_tasks[0]}/"
    assert anonymous.goto(task_url).status == 404

    page.click("text=Publish batch 2")
    expect(page.locator(".messagelist")).to_contain_text("batch 2 is now live")
    for slug in new_tasks:
        response = anonymous.goto(f"{base}/integration-bench/tasks/{slug}/")
        assert response.status == 200
        expect(anonymous.locator("h1")).to_have_text(re.compile(r"\S"))
    anonymous.close()
