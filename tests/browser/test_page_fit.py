"""Every page kind fits a 1366 px laptop and a 390 px phone: the page itself
never scrolls sideways (a wide table may scroll inside its own box), and the
few tables that must fit whole do (issue "Every control works, every page
fits", item 4)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.site_pages import LONG_TASK, WIDTHS, bench_pages, every_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(page: Page, live_server, site_benches, width):
    page.set_viewport_size({"width": width, "height": 900})
    wide = {}
    for name, address in every_page(*site_benches).items():
        page.goto(live_server.url + address)
        if name == "api-docs":
            page.wait_for_selector(".swagger-ui .info")
        scroll, client = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        if scroll > client:
            wide[name] = scroll
            page.screenshot(path=f"test-results/overflow-{width}-{name.replace(' ', '-')}.png")
    assert wide == {}


def test_the_v1_leaderboard_shows_every_column_at_1366px(page: Page, live_server, site_benches):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + reverse("bench", args=[site_benches[0].slug]))
    box = page.locator(".table-scroll").first
    scroll, client = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll <= client, (scroll, client)
    expect(page.get_by_role("columnheader", name="Flagged")).to_be_in_viewport()


def test_the_harbor_checks_table_fits_and_names_each_level_once(
    page: Page, live_server, site_benches
):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + reverse("task", args=[site_benches[1].slug, LONG_TASK]))
    checks = page.locator("section.checks .table-scroll")
    scroll, client = checks.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll <= client, (scroll, client)
    first = checks.locator("tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text("test")
    expect(first.locator("td").nth(2)).to_have_text("optional")


def test_the_attempt_section_bar_shows_every_section_on_a_phone(
    page: Page, live_server, site_benches
):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url + bench_pages(site_benches[1], LONG_TASK)["attempt"])
    bar = page.locator("nav.section-bar")
    right = bar.evaluate("el => el.getBoundingClientRect().right")
    for label in ("Verdict", "Patch", "Vendor log", "Trajectory"):
        link = bar.get_by_role("link", name=label)
        box = link.bounding_box()
        assert box["x"] + box["width"] <= right + 0.5, label
    # The counts' units are there for screen readers.
    expect(bar.get_by_role("link", name="Vendor log")).to_contain_text("requests")


def test_the_versus_page_shows_the_differences_on_a_phone(page: Page, live_server, site_benches):
    page.set_viewport_size({"width": 390, "height": 800})
    for bench in site_benches:
        page.goto(live_server.url + bench_pages(bench)["versus"])
        for table in ("table.versus-surfaces", "table.versus-tasks"):
            heading = page.locator(table).get_by_role("columnheader", name="difference")
            box = heading.first.bounding_box()
            assert box["x"] + box["width"] <= 390, (bench.slug, table, box)
