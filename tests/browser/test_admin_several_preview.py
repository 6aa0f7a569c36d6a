"""The admin's preview of an input of several benches (swebench.com's
leaderboards.json): a row per bench linking to its own preview, the page fits a
laptop's and a phone's width, and axe finds nothing serious on it."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.site_pages import WIDTHS
from tests.browser.test_axe_every_page import serious
from tests.formats.leaderboards.fixtures import write_leaderboards

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_preview_of_several_benches_shows_each_fits_and_passes_axe(
    page: Page, live_server, settings, tmp_path, width
):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    path = write_leaderboards(tmp_path / "in")
    get_user_model().objects.create_user("stafford", password="pw-several", is_staff=True)
    page.set_viewport_size({"width": width, "height": 900})

    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", "stafford")
    page.fill("#id_password", "pw-several")
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/ingest/importrecord/import/")
    page.set_input_files("#id_archive", str(path))
    page.locator("form.import-upload #id_bench").fill("swe")
    page.click("text=Upload and preview")

    expect(page.locator("h1")).to_have_text("Preview: 2 benches from leaderboards.json")
    rows = page.locator("table.import-benches tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator(".import-bench-heading")).to_have_text(
        ["Bench swe-verified: Swe Verified", "Bench swe-lite: Swe Lite"]
    )
    rows.nth(1).get_by_role("link", name="swe-lite").click()
    expect(page.locator("#b2-bench-heading")).to_be_in_viewport()
    expect(page.get_by_role("button", name="Apply this import")).to_be_visible()
    # Several benches are written all or none: no chunks offered.
    expect(page.get_by_label("Write in chunks")).to_have_count(0)

    scroll, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll <= client, (scroll, client)
    assert serious(page, Axe()) == []
