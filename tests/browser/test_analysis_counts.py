"""The analyses' counts agree with the tables under them and with the
leaderboard, and /<bench>/analysis/ is their index (it was a 404)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Bench
from samplegen.harbor import write_sample_harbor
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir):
    return import_path(small_release_dir).bench


@pytest.fixture
def harbor_with_trials(transactional_db, tmp_path) -> Bench:
    jobs = tmp_path / "jobs"
    # Further trials of some tasks (Harbor's n_attempts), as in the demo.
    write_sample_harbor(jobs, tasks=8, passes=(4, 2))
    call_command(
        "import_harbor",
        str(jobs),
        bench="interaction-bench",
        models=str(jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return Bench.objects.get(slug="interaction-bench")


def card(page: Page, label: str) -> str:
    return page.locator("dl.stats div", has=page.locator("dt", has_text=label)).locator("dd")


def test_the_tools_card_counts_the_rows_of_the_tool_table(page: Page, live_server, release):
    page.goto(live_server.url + reverse("analysis-tool-failures", args=[release.slug]))
    rows = page.locator("table.analysis-tools tbody tr").count()
    raw = page.locator("table.analysis-tools tbody td:nth-child(2) code").count()
    assert raw > rows  # the sample's harnesses name one tool differently
    expect(card(page, "Tools")).to_have_text(re.compile(rf"^{rows}\b"))
    expect(card(page, "Tools")).to_contain_text(f"({raw} names)")


def test_the_analysis_address_is_the_index_of_the_analyses(page: Page, live_server, release):
    page.goto(live_server.url + reverse("bench", args=[release.slug]))
    page.locator("nav.site-nav").get_by_role("link", name="Analysis").click()
    expect(page).to_have_url(live_server.url + reverse("analysis", args=[release.slug]))
    expect(page.locator("h1")).to_contain_text("Analysis")
    tools = page.get_by_role("link", name="Tool failures", exact=True)
    expect(page.get_by_role("link", name="Protocol failures", exact=True)).to_be_visible()
    expect(page.locator("main")).to_contain_text(re.compile(r"\d+ of \d+ tool calls failed"))
    tools.click()
    expect(page.locator("h1")).to_contain_text("Tool failures")
    # Its breadcrumbs lead back to the index.
    page.locator(".breadcrumbs").get_by_role("link", name="Analysis").click()
    expect(page).to_have_url(live_server.url + reverse("analysis", args=[release.slug]))


def test_harbor_tool_failures_account_for_every_trial_the_leaderboard_counts(
    page: Page, live_server, harbor_with_trials
):
    bench = harbor_with_trials
    trials = bench.models.aggregate(n=Sum("trials"))["n"]
    page.goto(live_server.url + reverse("analysis-tool-failures", args=[bench.slug]))
    attempts = int(card(page, "Attempts").inner_text())
    note = page.locator("#first-trials")
    expect(note).to_be_visible()
    further = int(re.search(r"The (\d+) further trials?", note.inner_text())[1])
    assert further > 0
    assert attempts + further == trials
