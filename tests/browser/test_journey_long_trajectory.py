"""A 20,000-event trajectory in Chromium: the attempt page holds its first events,
and any event is reached from a link to it, at the start, the middle and the
end, with JavaScript on (the slice is loaded in place) and off (slice pages)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from leaderboard.models import Attempt
from samplegen.release import generate_release
from tests.factories import import_path
from trajectories.models import Event

pytestmark = pytest.mark.browser

EVENTS = 20_000
SLICE = 500  # the default event_slice_size
FIRST = 100  # the default attempt_first_events: what the page carries as sent
NEEDLE = "needle-only-in-the-last-slice"
# Generous: each slice is a request away, and test machines are shared (the
# suite runs in two processes, other work beside it).
WAIT_MS = 45_000


@pytest.fixture(scope="session")
def very_long_release_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("very-long-release") / "release"
    generate_release(root, models=1, tasks=1, released=1, events=EVENTS, seed=5)
    return root


@pytest.fixture
def long_url(transactional_db, very_long_release_dir, settings, tmp_path) -> str:
    settings.MEDIA_ROOT = tmp_path / "media"
    import_path(very_long_release_dir)
    attempt = Attempt.objects.select_related("bench", "model", "task", "evidence").get()
    assert attempt.evidence.events_total == EVENTS
    Event.objects.filter(attempt=attempt, index=EVENTS - 3).update(text=NEEDLE)
    return reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])


HUGE = 100_000
# Layout shift (Core Web Vitals), summed from the first paint, before the
# page's own scripts run.
WATCH_SHIFTS = """window.__shift = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) {
  if (!e.hadRecentInput) window.__shift += e.value; } })
  .observe({type: 'layout-shift', buffered: true});"""


@pytest.fixture(scope="session")
def huge_release_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("huge-release") / "release"
    generate_release(root, models=1, tasks=1, released=1, events=HUGE, seed=7)
    return root


@pytest.fixture
def huge_url(transactional_db, huge_release_dir, settings, tmp_path) -> str:
    settings.MEDIA_ROOT = tmp_path / "media"
    import_path(huge_release_dir)
    attempt = Attempt.objects.select_related("bench", "model", "task").get()
    return reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])


def marked_in_view(page: Page, index: int) -> None:
    event = page.locator(f"#e{index}")
    expect(event).to_be_in_viewport(timeout=WAIT_MS)
    expect(event).to_have_css("outline-style", "solid", timeout=WAIT_MS)  # the :target marking
    assert event.evaluate("el => el.matches(':target')")


def test_any_event_is_reached_and_marked_with_javascript(live_server, page: Page, long_url):
    url = live_server.url + long_url
    # On the page as sent, in the rest of the first slice, in the middle, the last.
    for index in (3, FIRST + 150, EVENTS // 2 + 7, EVENTS - 1):
        page.goto("about:blank")  # each a fresh load, not a move within the page
        page.goto(f"{url}#e{index}")
        marked_in_view(page, index)
        # Only the first events and the slices around the event are on the page.
        assert page.locator("li.ev").count() <= FIRST + 3 * SLICE
    # Reload lands on the same event.
    page.goto(f"{url}#e{EVENTS // 2 + 7}")
    marked_in_view(page, EVENTS // 2 + 7)
    # The events around it came first; the rest of its slice follows, either side.
    expect(page.locator(f"#e{EVENTS // 2}")).to_be_attached(timeout=WAIT_MS)
    expect(page.locator(f"#e{EVENTS // 2 + SLICE - 1}")).to_be_attached(timeout=WAIT_MS)
    marked_in_view(page, EVENTS // 2 + 7)
    page.reload()
    marked_in_view(page, EVENTS // 2 + 7)
    # j from the last event of a slice reaches the first event of the next.
    last_of_slice = 3 * SLICE - 1
    page.goto(f"{url}#e{last_of_slice}")
    marked_in_view(page, last_of_slice)
    page.keyboard.press("j")
    expect(page).to_have_url(f"{url}#e{last_of_slice + 1}", timeout=WAIT_MS)
    marked_in_view(page, last_of_slice + 1)
    # k goes back across the boundary.
    page.keyboard.press("k")
    expect(page).to_have_url(f"{url}#e{last_of_slice}", timeout=WAIT_MS)
    marked_in_view(page, last_of_slice)
    # Back returns to the event before.
    page.go_back()
    marked_in_view(page, EVENTS // 2 + 7)
    # j from the last event the page carries reaches the next, loaded.
    page.goto(f"{url}#e{FIRST - 1}")
    marked_in_view(page, FIRST - 1)
    page.keyboard.press("j")
    expect(page).to_have_url(f"{url}#e{FIRST}", timeout=WAIT_MS)
    marked_in_view(page, FIRST)


def test_a_search_match_in_the_last_slice_is_reached_and_scrolling_loads_slices(
    live_server, page: Page, long_url
):
    page.goto(f"{live_server.url}{long_url}?q={NEEDLE}#search")
    result = page.locator(".search-results a", has_text=f"#{EVENTS - 3}")
    result.click()
    expect(page).to_have_url(re.compile(rf"{re.escape(long_url)}\?q={NEEDLE}#e{EVENTS - 3}$"))
    marked_in_view(page, EVENTS - 3)
    expect(page.locator(f"#e{EVENTS - 3}")).to_contain_text(NEEDLE, timeout=WAIT_MS)
    # Scrolling down from the end of the first slice loads the next one.
    page.goto(f"{live_server.url}{long_url}#e{SLICE - 2}")
    marked_in_view(page, SLICE - 2)
    for _ in range(20):
        page.mouse.wheel(0, 1200)
        page.wait_for_timeout(60)
    expect(page.locator(f"#e{SLICE + 10}")).to_be_attached(timeout=WAIT_MS)
    # The copy button sits in the event in view, not in the marked one.
    page.wait_for_timeout(400)
    anchor = page.locator("button.copy-link").evaluate("b => b.dataset.anchor")
    assert int(anchor[1:]) > SLICE - 2
    # A type hidden by its toggle stays hidden in slices loaded later.
    late = Event.objects.filter(index__gte=EVENTS // 2).order_by("index")
    reasoning = late.filter(type="reasoning").first().index
    target = late.filter(type="tool_call", index__gt=reasoning).first().index
    page.goto(f"{live_server.url}{long_url}#trajectory")
    page.uncheck("#show-reasoning")
    expect(page).to_have_url(re.compile(r"\?hide=reasoning#trajectory$"), timeout=WAIT_MS)
    page.goto(f"{live_server.url}{long_url}?hide=reasoning#e{target}")
    marked_in_view(page, target)
    expect(page.locator(f"#e{reasoning}")).to_be_attached(timeout=WAIT_MS)
    expect(page.locator(f"#e{reasoning}")).to_be_hidden(timeout=WAIT_MS)
    expect(page.locator(f"#e{target}")).to_be_visible(timeout=WAIT_MS)


def test_at_100k_events_nothing_moves_and_end_and_home_reach_the_ends(
    live_server, page: Page, huge_url
):
    url = live_server.url + huge_url
    page.add_init_script(WATCH_SHIFTS)
    # A deep link: its placeholders hold their events' room, so nothing on
    # screen moves while the events around it arrive.
    page.goto(f"{url}#e{HUGE // 2 + 7}")
    marked_in_view(page, HUGE // 2 + 7)
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.__shift") < 0.1
    # End from the top shows the last event, in one press, within 2 s.
    page.goto("about:blank")
    page.goto(url)
    page.keyboard.press("End")
    expect(page.locator(f"#e{HUGE - 1}")).to_be_in_viewport(timeout=2000)
    # Home from the bottom shows the first.
    page.keyboard.press("Home")
    expect(page.locator("#e0")).to_be_in_viewport(timeout=2000)
    # The position box says where the reader is and jumps anywhere.
    page.evaluate("() => window.scrollBy(0, 400)")
    position = page.locator("form.ev-position")
    expect(position).to_be_visible(timeout=WAIT_MS)
    expect(position).to_contain_text(f"of {HUGE:,}")
    page.fill("#ev-at", str(HUGE - 1234))
    page.keyboard.press("Enter")
    marked_in_view(page, HUGE - 1234)
    page.wait_for_timeout(300)
    assert 0 <= int(page.locator("#ev-at").input_value()) - (HUGE - 1234) < 20
    # A drag of the scrollbar to three quarters lands near three quarters.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight * 0.75)")
    page.wait_for_timeout(1500)
    at = int(page.locator("#ev-at").input_value())
    assert abs(at - HUGE * 0.75) < HUGE * 0.1, at
    expect(page.locator(f"#e{at}")).to_be_attached(timeout=WAIT_MS)


def test_any_event_is_reached_without_javascript(live_server, browser: Browser, long_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        url = live_server.url + long_url
        # The page lists its parts; each is a page of its own.
        page.goto(url)
        page.get_by_role("link", name=f"Events {EVENTS // 2}–{EVENTS // 2 + SLICE - 1}").click()
        expect(page.locator("h1")).to_contain_text(f"Events {EVENTS // 2}–", timeout=WAIT_MS)
        # A slice page's address with an event's fragment lands on it, marked.
        page.goto(f"{url}events/?from={EVENTS // 2}#e{EVENTS // 2 + 7}")
        marked_in_view(page, EVENTS // 2 + 7)
        # "Go to event" reaches any event.
        page.goto(url)
        page.fill("#goto-event", str(EVENTS - 1))
        page.get_by_role("button", name="Go", exact=True).click()
        marked_in_view(page, EVENTS - 1)
        # A search result in a later slice is one click from the event.
        page.goto(f"{url}?q={NEEDLE}#search")
        page.locator(".search-results a", has_text=f"#{EVENTS - 3}").click()
        marked_in_view(page, EVENTS - 3)
    finally:
        context.close()
