"""Journey 1 of the site in Chromium: from / to an attempt, through the
leaderboard sorted by a surface and the matrix filtered to that surface.

The attempt page itself belongs to another issue; the journey ends when the
browser lands on the attempt's address.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from leaderboard.models import Model
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir, settings, tmp_path):
    # live_server flushes the database between tests: each test imports its data.
    settings.MEDIA_ROOT = tmp_path / "media"
    return import_path(small_release_dir).bench


@pytest.fixture
def step_shots(page: Page, output_path, request):
    """A screenshot of every page the journey visits, kept only when the test fails."""
    folder = Path(output_path) / "steps"
    taken = []
    failed_before = request.session.testsfailed

    def shoot(name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{len(taken) + 1:02d}-{name}.png"), full_page=True)
        taken.append(name)

    yield shoot
    # The call phase's report is counted before teardown: no new failure means
    # the journey passed and its screenshots are not needed.
    if request.session.testsfailed == failed_before:
        shutil.rmtree(folder, ignore_errors=True)


def test_journey_1_from_home_to_an_attempt_through_leaderboard_and_matrix(
    page: Page, live_server, release, step_shots
):
    bench = release
    page.goto(live_server.url + "/")
    step_shots("home")
    expect(page.locator("h1")).to_have_count(1)

    page.get_by_role("link", name=bench.title).first.click()
    step_shots("leaderboard")
    expect(page).to_have_url(f"{live_server.url}/{bench.slug}/")
    expect(page.locator("table.board tbody tr")).to_have_count(
        Model.objects.filter(bench=bench).count()
    )

    # Sort by a surface column: the first click orders best first.
    page.locator("table.board thead").get_by_role("link", name="payments").click()
    step_shots("leaderboard-sorted")
    expect(page).to_have_url(re.compile(r"\?sort=-surface%3Apayments$"))
    expect(page.locator('th[aria-sort="descending"]')).to_contain_text("payments")
    expected = sorted(
        Model.objects.filter(bench=bench),
        key=lambda m: (m.by_surface["payments"]["score"], -m.rank, m.slug),
        reverse=True,
    )
    expect(page.locator("table.board tbody th.model-name a")).to_have_text(
        [m.display_name for m in expected]
    )

    # Open the matrix filtered to that surface.
    page.locator(".board-surface-links").get_by_role("link", name="payments").click()
    step_shots("matrix")
    assert urlparse(page.url).path == f"/{bench.slug}/matrix/"
    assert parse_qs(urlparse(page.url).query) == {"surface": ["payments"]}
    expect(page.locator("th.surface")).to_have_count(1)
    expect(page.locator("th.surface")).to_have_text("payments")

    # Click a cell of a released task: it leads to that attempt's address.
    cell = page.locator("table.matrix tbody td a").first
    expect(cell).to_be_visible()
    target = cell.get_attribute("href")
    assert re.fullmatch(rf"/{bench.slug}/attempts/[a-z0-9._-]+/[a-z0-9._-]+/", target)
    model_slug, task_slug = target.strip("/").split("/")[2:]
    assert (
        Model.objects.get(bench=bench, slug=model_slug)
        .attempts.filter(task__slug=task_slug, task__surface="payments", has_detail=True)
        .exists()
    )
    cell.click()
    page.wait_for_url(f"{live_server.url}{target}")
    step_shots("attempt")
    assert urlparse(page.url).path == target


def test_choosing_a_harness_filters_the_leaderboard_at_once(page: Page, live_server, release):
    errors = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(f"{live_server.url}/{release.slug}/")
    page.get_by_label("Harness").select_option("codex")
    page.wait_for_url(re.compile(r"harness=codex"))
    expect(page.locator("table.board tbody tr")).to_have_count(
        Model.objects.filter(bench=release, harness="codex").count()
    )
    # The script ran under the Content-Security-Policy without complaint.
    assert errors == []
