"""The compare page's folded runs and pages of aligned rows in Chromium: a fold
opens to its steps, each leading to its event; the page fits a phone and a
laptop; axe finds nothing serious on it."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt
from tests.browser.site_pages import WIDTHS
from tests.browser.test_axe_every_page import serious
from tests.factories import import_path, pair_with_differing_checks

pytestmark = pytest.mark.browser

WAIT_MS = 15_000


@pytest.fixture
def compare_url(transactional_db, small_release_dir, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    # Small pages and short folds, so the small release's pair has both.
    settings.BENCHVIEW_LIMITS = {
        **settings.BENCHVIEW_LIMITS,
        "compare_rows_per_page": 12,
        "compare_fold_min_rows": 2,
    }
    import_path(small_release_dir)
    task, a, b, *_ = pair_with_differing_checks()
    return reverse("compare", args=[task.bench.slug, task.slug, a.model.slug, b.model.slug])


def fits(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_fold_opens_to_its_steps_and_the_page_fits(
    live_server, page: Page, compare_url, width, tmp_path
):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}{compare_url}#alignment")
    fold = page.locator("#alignment tr.fold").first
    expect(fold).to_be_visible(timeout=WAIT_MS)
    steps = fold.locator("ol.fold-steps li")
    count = steps.count()
    assert count >= 2
    expect(steps.first).to_be_hidden()
    summary = fold.locator("summary")
    expect(summary).to_contain_text(f"{count} steps only one agent took")
    summary.click()
    for k in range(count):
        expect(steps.nth(k)).to_be_visible()
    assert fits(page), "the page is wider than the window"
    fold.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"compare-{width}.png"))  # kept by pytest, to look at
    assert serious(page, Axe()) == []
    # A step in the fold leads to its event on the attempt page.
    link = steps.first.locator("a").first
    anchor = link.get_attribute("href").split("#", 1)[1]
    link.click()
    expect(page.locator(f"#{anchor}")).to_be_in_viewport(timeout=WAIT_MS)
    # The next page of rows, without script: the rows go on where they stopped.
    page.goto(f"{live_server.url}{compare_url}?rows=12#alignment")
    expect(page.locator("#alignment")).to_contain_text("Rows 13–")
    assert fits(page)
    assert serious(page, Axe()) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_transcript_and_attempt_search_fit_and_axe_finds_nothing_serious(
    live_server, page: Page, compare_url, width, tmp_path
):
    found = Attempt.objects.released().select_related("bench", "model", "task").first()
    base = reverse("attempt", args=[found.bench.slug, found.model.slug, found.task.slug])
    page.set_viewport_size({"width": width, "height": 900})
    pages = {"search": f"{base}?q=the#search", "transcript": f"{base}transcript/"}
    for name, address in pages.items():
        page.goto(live_server.url + address)
        if name == "search":
            expect(page.locator(".search-at")).to_contain_text("match", timeout=WAIT_MS)
        assert fits(page), f"{name} is wider than the window"
        page.screenshot(path=str(tmp_path / f"{name}-{width}.png"))
        assert serious(page, Axe()) == [], name
