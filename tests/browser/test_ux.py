"""The user-experience pass in Chromium: navigation, indexes, Back, keys,
reloads, phones and axe (issue: "Every page findable, readable on a phone,
and right after Back")."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return import_path(small_release_dir).bench


def addresses(bench) -> dict[str, str]:
    first = (
        Attempt.objects.visible_to(None)
        .filter(bench=bench)
        .select_related("model", "task")
        .order_by("task__slug", "model__rank")
        .first()
    )
    other = (
        Attempt.objects.visible_to(None)
        .filter(task=first.task)
        .exclude(pk=first.pk)
        .select_related("model")
        .first()
    )
    b, m, t = bench.slug, first.model.slug, first.task.slug
    return {
        "leaderboard": reverse("bench", args=[b]),
        "matrix": reverse("matrix", args=[b]),
        "task": reverse("task", args=[b, t]),
        "attempt": reverse("attempt", args=[b, m, t]),
        "compare": reverse("compare", args=[b, t, m, other.model.slug]),
        "event": reverse("attempt-event", args=[b, m, t, 1]),
        "tasks": reverse("tasks", args=[b]),
        "about": reverse("about", args=[b]),
        "home": reverse("home"),
        "data": reverse("data-bench", args=[b]),
        "tool-failures": reverse("analysis-tool-failures", args=[b]),
        "protocol": reverse("analysis-protocol", args=[b]),
    }


def test_every_page_type_has_the_site_navigation_and_no_sideways_scroll_at_320px(
    page: Page, live_server, release
):
    page.set_viewport_size({"width": 320, "height": 700})
    for name, address in addresses(release).items():
        page.goto(live_server.url + address)
        nav = page.locator("nav.site-nav")
        expect(nav.get_by_role("link", name="API")).to_be_visible()
        expect(nav.get_by_role("link", name="Data")).to_be_visible()
        if name != "home":
            for label in ("Leaderboard", "Matrix", "Tasks", "Analysis", "About"):
                expect(nav.get_by_role("link", name=label, exact=True)).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, (name, width)


def test_the_api_root_is_a_page_in_a_browser_and_json_for_a_script(page: Page, live_server, db):
    response = page.goto(live_server.url + "/api/")
    assert response.status == 200
    assert response.headers["content-type"].startswith("text/html")
    expect(page.get_by_role("link", name="docs page")).to_be_visible()
    api = page.request.get(live_server.url + "/api/", headers={"Accept": "application/json"})
    assert api.status == 200 and "docs" in api.json()


def test_back_shows_the_filter_the_address_holds(page: Page, live_server, release):
    page.goto(f"{live_server.url}/{release.slug}/")
    select = page.get_by_label("Harness")
    select.select_option("codex")
    page.wait_for_url(re.compile(r"harness=codex"))
    page.go_back()
    page.wait_for_url(f"{live_server.url}/{release.slug}/")
    expect(page.get_by_label("Harness")).to_have_value("")


def test_j_and_k_work_after_a_toggle_and_question_mark_lists_the_keys(
    page: Page, live_server, release
):
    url = live_server.url + addresses(release)["attempt"]
    page.goto(url + "#e3")
    toggle = page.locator("input.type-toggle").first
    kind = toggle.get_attribute("id").removeprefix("show-")
    toggle.click()  # focus stays on the checkbox
    expect(page).to_have_url(re.compile(rf"[?&]hide={kind}"))
    page.keyboard.press("j")
    expect(page).to_have_url(re.compile(r"#e\d+$"))
    assert page.url.rsplit("#e", 1)[1] != "3"
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("next event")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # Reloading the address restores the toggle from ?hide=.
    page.reload()
    expect(page.locator(f"#show-{kind}")).not_to_be_checked()


def test_a_reloaded_deep_link_lands_on_its_event(page: Page, live_server, release):
    url = live_server.url + addresses(release)["attempt"] + "#e25"
    page.goto(url)
    event = page.locator("#e25")
    for _ in range(3):
        expect(event).to_be_in_viewport()
        top = event.evaluate("el => el.getBoundingClientRect().top")
        margin = event.evaluate("el => parseFloat(getComputedStyle(el).scrollMarginTop)")
        assert abs(top - margin) <= 2, top
        assert event.evaluate("el => el.matches(':target')")
        page.reload()
        page.wait_for_timeout(400)


def test_the_event_page_links_and_keys_to_its_neighbours(page: Page, live_server, release):
    address = addresses(release)["event"]
    page.goto(live_server.url + address)
    expect(page.get_by_role("link", name="‹ Event #0")).to_be_visible()
    page.keyboard.press("j")
    page.wait_for_url(re.compile(r"/events/2/$"))
    page.keyboard.press("k")
    page.wait_for_url(re.compile(r"/events/1/$"))


def test_the_leaderboard_keeps_rank_model_and_score_in_view_on_a_phone(
    page: Page, live_server, release
):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_server.url}/{release.slug}/")
    row = page.locator("table.board tbody tr").first
    for cell in ("td.rank", "th.model-name", "td.score-cell"):
        expect(row.locator(cell)).to_be_in_viewport()
    # Scrolling the table sideways leaves rank and model where they are.
    page.locator(".table-scroll").first.evaluate("el => el.scrollLeft = 600")
    expect(row.locator("th.model-name")).to_be_in_viewport()
    labels = page.locator("svg.score-cost text.dot-label")
    boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"]
                or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"]
                or b["y"] + b["height"] <= a["y"]
            )
            assert apart, (a, b)


def test_axe_finds_no_serious_or_critical_violation(page: Page, live_server, release):
    axe = Axe()
    found = {}
    for name in ("leaderboard", "matrix", "task", "attempt", "compare"):
        page.goto(live_server.url + addresses(release)[name])
        violations = axe.run(page).response["violations"]
        found[name] = [
            (v["id"], len(v["nodes"])) for v in violations if v["impact"] in ("serious", "critical")
        ]
    assert found == {name: [] for name in found}
