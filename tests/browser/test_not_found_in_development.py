"""`make demo` runs with DEBUG on, and what it shows is what a newcomer judges the
site by: its 404s are the designed "Not found" and "Not released yet" pages,
never Django's debug page listing every URL pattern."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Task
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir):
    return import_path(small_release_dir).bench


@pytest.mark.parametrize("width", [1366, 390])
def test_with_debug_on_a_404_is_the_designed_page(
    page: Page, live_server, release, settings, width
):
    settings.DEBUG = True
    page.set_viewport_size({"width": width, "height": 800})
    unreleased = Task.objects.filter(bench=release, batch__isnull=True).first()
    pages = {
        "/no-such-bench/": "Not found",
        reverse("task", args=[release.slug, unreleased.slug]): "Not released yet",
    }
    for address, heading in pages.items():
        response = page.goto(live_server.url + address)
        assert response.status == 404
        expect(page.locator("h1")).to_have_text(heading)
        expect(page.locator("body")).not_to_contain_text("URLconf")
        expect(page.locator("nav.site-nav")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        serious = [
            v["id"]
            for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], address
    expect(page.get_by_role("link", name="Its scores in the matrix")).to_be_visible()
