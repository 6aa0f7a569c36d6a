"""The apply form of a one-bench preview in the admin: "Publish new batches at
once" and "Write in chunks" (unticked), each with its help, fit a laptop's and a
phone's width, and axe finds nothing serious on the page."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.browser.site_pages import WIDTHS
from tests.browser.test_axe_every_page import serious
from tests.factories import tar_gz

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_apply_form_offers_chunks_fits_and_passes_axe(
    page: Page, live_server, settings, tmp_path, small_release_dir, width
):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    archive = tar_gz(small_release_dir, tmp_path / "small.tar.gz")
    get_user_model().objects.create_user("stafford", password="pw-apply", is_staff=True)
    page.set_viewport_size({"width": width, "height": 900})

    page.goto(f"{live_server.url}/admin/")
    page.fill("#id_username", "stafford")
    page.fill("#id_password", "pw-apply")
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/ingest/importrecord/import/")
    page.set_input_files("#id_archive", str(archive))
    page.click("text=Upload and preview")
    expect(page.locator("h1")).to_contain_text("Preview:")

    form = page.locator("form.import-apply")
    chunked = form.get_by_label("Write in chunks")
    expect(chunked).not_to_be_checked()
    expect(chunked).to_have_accessible_description(
        page.locator("#id_chunked_helptext").inner_text()
    )
    expect(page.locator("#id_chunked_helptext")).to_contain_text("nothing shows")
    expect(form.get_by_label("Publish new batches at once")).to_be_checked()
    form.scroll_into_view_if_needed()
    form.screenshot(path=str(tmp_path / f"apply-form-{width}.png"))  # kept by pytest, to look at
    page.screenshot(path=str(tmp_path / f"apply-page-{width}.png"))

    scroll, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert scroll <= client, (scroll, client)
    assert serious(page, Axe()) == []
