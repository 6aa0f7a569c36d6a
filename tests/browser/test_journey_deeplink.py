"""Journey 2 of the site in Chromium: a link ending in #e1500 to an attempt with
thousands of events opens at event 1500, marked (JavaScript off: the slice
pages, in test_journey_long_trajectory.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt
from samplegen.release import generate_release
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def long_release_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("long-release") / "release"
    # One model, one task: the single attempt gets all the events.
    generate_release(root, models=1, tasks=1, released=1, events=2000, seed=3)
    return root


@pytest.fixture
def long_attempt(transactional_db, long_release_dir, settings, tmp_path) -> str:
    settings.MEDIA_ROOT = tmp_path / "media"
    import_path(long_release_dir)
    attempt = Attempt.objects.select_related("bench", "model", "task", "evidence").get()
    assert attempt.evidence.events_total > 1500
    return reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])


def lands_on_event_1500(page: Page, url: str) -> None:
    page.goto(url + "#e1500")
    event = page.locator("#e1500")
    # Generous: the event's slice is a request away on a shared machine.
    expect(event).to_be_in_viewport(timeout=45_000)
    assert event.evaluate("el => el.matches(':target')")
    # At the top: the event before it is scrolled out of view.
    expect(page.locator("#e1498")).not_to_be_in_viewport()
    assert event.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    # Events are blocks, not list items: Chromium renumbers list items one
    # insertion at a time, which held a 10,000-event deep link back by seconds.
    assert event.evaluate("el => getComputedStyle(el).display") == "block"


def test_a_deep_link_opens_at_the_event_marked(live_server, page: Page, long_attempt):
    lands_on_event_1500(page, live_server.url + long_attempt)
    # j moves to the next event, and marks it.
    page.keyboard.press("j")
    expect(page).to_have_url(live_server.url + long_attempt + "#e1501", timeout=45_000)
    expect(page.locator("#e1501")).to_be_in_viewport(timeout=45_000)
