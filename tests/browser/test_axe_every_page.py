"""axe finds no serious or critical violation on any page kind, the API's
browsable pages and docs included, at a laptop's width and a phone's (issue
"Every control works, every page fits", item 6 and "What must show")."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.site_pages import WIDTHS, every_page

pytestmark = pytest.mark.browser


def serious(page: Page, axe: Axe) -> list[tuple[str, int]]:
    violations = axe.run(page).response["violations"]
    bad = ("serious", "critical")
    return [(v["id"], len(v["nodes"])) for v in violations if v["impact"] in bad]


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_serious_on_any_page_kind(page: Page, live_server, site_benches, width):
    page.set_viewport_size({"width": width, "height": 900})
    axe = Axe()
    pages = {
        **every_page(*site_benches),
        "api-list": "/api/benches/",
        "api-detail": f"/api/benches/{site_benches[0].slug}/",
    }
    found = {}
    for name, address in pages.items():
        page.goto(live_server.url + address)
        if name == "api-docs":
            page.wait_for_selector(".swagger-ui .info")
        found[name] = serious(page, axe)
    assert found == {name: [] for name in found}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_api_docs_pass_axe_with_an_operation_and_a_schema_open(
    page: Page, live_server, db, width
):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/api/docs/")
    page.get_by_role("button", name="/api/attempts/").first.click()
    page.locator(".swagger-ui .model-container").first.click()
    expect(page.locator(".opblock.is-open .responses-wrapper")).to_be_visible()
    assert serious(page, Axe()) == []
    scroll, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll <= client


def test_the_api_pages_wear_the_site_navigation(page: Page, live_server, db):
    for address in ("/api/", "/api/benches/", "/api/docs/"):
        page.goto(live_server.url + address)
        nav = page.locator("nav.site-nav")
        expect(nav.get_by_role("link", name="API")).to_have_attribute("aria-current", "page")
        expect(page.locator("html")).to_have_attribute("lang", "en")
