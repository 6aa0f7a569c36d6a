"""Search inside a 20,000-event trajectory in Chromium: the total shown, n / N
step from match to match across slices, each match marked in its event body."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt
from tests.browser.test_journey_long_trajectory import (  # noqa: F401 - fixtures
    EVENTS,
    WAIT_MS,
    long_url,
    very_long_release_dir,
)
from trajectories.models import Event

pytestmark = pytest.mark.browser

WORD = "zebrafinch"
AT = (3, EVENTS // 2, EVENTS - 3)


def test_stepping_reaches_every_match_and_marks_it_in_the_body(
    live_server,
    page: Page,
    long_url,  # noqa: F811 - the fixture imported above
    tmp_path,
):
    attempt = Attempt.objects.get()
    for index in AT:
        Event.objects.filter(attempt=attempt, index=index).update(text=f"a <b>{WORD}</b> here")
    page.goto(f"{live_server.url}{long_url}?q={WORD}#search")
    status = page.locator(".search-at")
    expect(status).to_have_text("3 matches", timeout=WAIT_MS)
    for ordinal, index in enumerate(AT, 1):
        page.locator(".search-count").click()  # focus off the search box
        page.keyboard.press("n")
        expect(status).to_have_text(f"{ordinal} of 3", timeout=WAIT_MS)
        expect(page).to_have_url(re.compile(rf"#e{index}$"), timeout=WAIT_MS)
        hit = page.locator(f"#e{index} mark.hit")
        expect(hit).to_have_text(WORD, timeout=WAIT_MS)
        expect(hit).to_be_in_viewport(timeout=WAIT_MS)
        # The event's text stays text: its "<b>" is shown, not parsed.
        expect(page.locator(f"#e{index} .ev-text")).to_contain_text(f"<b>{WORD}</b>")
    page.screenshot(path=str(tmp_path / "search-1366.png"))  # kept by pytest, to look at
    # N goes back; past the first, it wraps to the last.
    page.keyboard.press("N")
    expect(status).to_have_text("2 of 3", timeout=WAIT_MS)
    expect(page).to_have_url(re.compile(rf"#e{AT[1]}$"), timeout=WAIT_MS)
    page.get_by_role("button", name="Previous match").click()
    page.get_by_role("button", name="Previous match").click()
    expect(status).to_have_text("3 of 3", timeout=WAIT_MS)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}{long_url}?q={WORD}#search")
    page.get_by_role("button", name="Next match").click()
    expect(status).to_have_text("1 of 3", timeout=WAIT_MS)
    page.screenshot(path=str(tmp_path / "search-390.png"))
