"""Journey in Chromium on a bench imported from Harbor jobs: the leaderboard with
its pass rates, a failed trial, and a deep link to its failed tool call."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt, Bench
from samplegen.harbor import write_sample_harbor

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def harbor_jobs(tmp_path_factory):
    root = tmp_path_factory.mktemp("harbor") / "jobs"
    write_sample_harbor(root, tasks=8, passes=(4, 2), extra_trials=False)
    return root


@pytest.fixture
def harbor_bench(transactional_db, harbor_jobs, settings, tmp_path) -> Bench:
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command(
        "import_harbor",
        str(harbor_jobs),
        bench="interaction-bench",
        models=str(harbor_jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return Bench.objects.get(slug="interaction-bench")


def test_leaderboard_then_a_failed_trial_then_its_failed_tool_call(
    live_server, page: Page, harbor_bench
):
    page.goto(live_server.url + reverse("bench", args=[harbor_bench.slug]))
    top = page.locator("table tbody tr").first
    expect(top).to_contain_text("GPT-6 Astra")
    expect(top).to_contain_text("codex")
    expect(top).to_contain_text("50.0% (4/8)")
    top.get_by_role("link", name="GPT-6 Astra").click()

    failed = Attempt.objects.filter(bench=harbor_bench, model__slug="gpt-6-astra-codex", score=0)
    task = failed.select_related("task").order_by("task__slug").first().task
    row = page.locator("tbody tr", has=page.get_by_role("link", name=task.slug, exact=True))
    row.get_by_role("link", name="attempt").click()
    expect(page.locator("h1")).to_contain_text("GPT-6 Astra")
    failure = page.locator("tr.has-failures a").first
    anchor = failure.get_attribute("href")
    failure.click()
    expect(page).to_have_url(page.url.split("#")[0] + anchor)
    event = page.locator(anchor)
    expect(event).to_be_in_viewport()
    expect(event).to_contain_text("failed")
    expect(event).to_contain_text("pytest -q")

    # The same deep link, opened cold, lands on the failed call.
    page.goto(page.url)
    expect(page.locator(anchor)).to_be_in_viewport()
    assert page.locator(anchor).evaluate("el => el.matches(':target')")
