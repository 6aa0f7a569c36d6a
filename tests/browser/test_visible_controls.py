"""Controls you can see: sortable headers look sortable before any hover, the
cross-trajectory search is usable on a phone and shows no empty facet, and a
cost chart's axis fits its points."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt, Model
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir):
    return import_path(small_release_dir).bench


def test_sortable_headers_are_underlined_and_marked_before_any_hover(
    page: Page, live_server, release
):
    for name in ("bench", "tasks"):
        page.goto(live_server.url + reverse(name, args=[release.slug]))
        page.mouse.move(0, 0)
        headers = page.locator("th.sortable a")
        assert headers.count() > 2
        plain = page.locator("thead th:not(.sortable)").first
        for i in range(headers.count()):
            link = headers.nth(i)
            style = link.evaluate(
                "el => { const s = getComputedStyle(el); return [s.textDecorationLine, s.color]; }"
            )
            assert "underline" in style[0], (name, link.inner_text())
            expect(link.locator(".sort-icon")).to_have_text(re.compile(r"^[↕▲▼]$"))
            if plain.count():
                # A sortable header is not coloured as a plain one is.
                assert style[1] != plain.evaluate("el => getComputedStyle(el).color")


def test_the_search_controls_are_usable_at_390px_and_no_facet_is_empty(
    page: Page, live_server, release
):
    page.set_viewport_size({"width": 390, "height": 800})
    # Messages carry no tool: the Tools facet has nothing to list.
    page.goto(live_server.url + reverse("search", args=[release.slug]) + "?type=message")
    expect(page.locator(".search-group").first).to_be_visible()
    facets = page.locator(".search-facets section").all()
    assert facets
    for facet in facets:
        assert facet.locator("li").count() > 0, facet.locator("h2").inner_text()
    expect(page.locator(".search-facets h2", has_text="Tools")).to_have_count(0)
    controls = page.locator(".search-form select, .search-form input, .search-form button")
    assert controls.count() >= 10
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        # A thumb's target, inside the screen, with its label above it.
        assert box["height"] >= 36, (i, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_cost_axis_fits_points_bunched_far_from_zero(page: Page, live_server, release):
    costed = list(
        Model.objects.filter(
            bench=release,
            pk__in=Attempt.objects.filter(bench=release, has_detail=True, cost_usd__gt=0).values(
                "model_id"
            ),
        ).order_by("pk")
    )
    assert len(costed) >= 2
    for i, model in enumerate(costed):
        cost = 7.8 + 0.4 * i / (len(costed) - 1)
        # The chart plots one run's cost; the total is the same with one trial a task.
        Model.objects.filter(pk=model.pk).update(cost_usd=cost, run_cost_usd=cost)
    page.goto(live_server.url + reverse("bench", args=[release.slug]))
    ticks = [t.text_content() for t in page.locator("svg.score-cost text.tick", has_text="$").all()]
    values = [float(t.lstrip("$").replace(",", "")) for t in ticks]
    assert values[0] >= 7 and values[-1] <= 9, ticks
    xs = [float(c.get_attribute("cx")) for c in page.locator("svg.score-cost circle").all()]
    width = float(page.locator("svg.score-cost").get_attribute("viewBox").split()[2])
    # The points spread over most of the plot, not into one corner of it.
    assert max(xs) - min(xs) > width / 2, xs
