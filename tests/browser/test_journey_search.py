"""The search journey in Chromium: search a phrase, narrow by a facet, open a
result, land on the event marked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def planted_bench(transactional_db, planted_dir, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    root, pairs = planted_dir
    return import_path(root).bench, pairs


def test_search_a_phrase_narrow_by_a_facet_and_land_on_the_event(
    live_server, page: Page, planted_bench
):
    bench, (first, second) = planted_bench
    page.goto(live_server.url + reverse("search", args=[bench.slug]))
    page.get_by_label("Words,").fill('"echo zebrafish"')
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("status")).to_contain_text("1 matching event in 1 attempt")

    page.get_by_label("Words,").fill("zebrafish")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("status")).to_contain_text("3 matching events in 2 attempts")
    page.locator(f'.facet-model a[href*="model={first[0]}"]').click()
    expect(page.get_by_role("status")).to_contain_text("2 matching events in 1 attempt")
    expect(page.locator(".search-group")).to_have_count(1)

    link = page.locator(".search-matches a.event-link").last
    anchor = link.get_attribute("href").split("#")[1]
    link.click()
    expect(page).to_have_url(re.compile(rf"/attempts/{first[0]}/{first[1]}/#{anchor}$"))
    event = page.locator(f"#{anchor}")
    expect(event).to_be_in_viewport()
    assert event.evaluate("el => el.matches(':target')")
    expect(event).to_contain_text("zebrafish")


def test_a_misspelt_search_offers_did_you_mean_and_its_link_finds_the_events(
    live_server, page: Page, planted_bench
):
    bench, _ = planted_bench
    page.goto(live_server.url + reverse("search", args=[bench.slug]))
    page.get_by_label("Words,").fill("zebrafsh")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("status")).to_contain_text("0 matching events")
    page.get_by_role("link", name="zebrafish").click()
    expect(page.get_by_label("Words,")).to_have_value("zebrafish")
    expect(page.get_by_role("status")).to_contain_text("3 matching events in 2 attempts")
