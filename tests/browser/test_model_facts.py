"""The leaderboard shows and filters what the field's leaderboards show:
organisation, results date, open weights, open system, verified (issue
"Every control works, every page fits", item 10)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_board_shows_the_facts_and_a_tick_filters_by_them(
    page: Page, live_server, site_benches
):
    harbor = site_benches[1]
    page.goto(live_server.url + reverse("bench", args=[harbor.slug]))
    top = page.locator("table.board tbody tr").first
    expect(top.locator(".model-facts")).to_contain_text("OpenAI")
    expect(top.locator(".model-facts")).to_contain_text("✓ verified")
    expect(top.locator(".model-facts time")).to_have_attribute(
        "datetime", re.compile(r"^\d{4}-\d\d-\d\d$")
    )
    page.get_by_label("verified").check()
    page.wait_for_url(re.compile(r"verified=1"))
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        expect(rows.nth(i).locator(".model-facts")).to_contain_text("verified")
    page.get_by_label("verified").uncheck()
    page.wait_for_url(re.compile(r"^(?!.*verified=1)"))
    expect(rows).to_have_count(3)
