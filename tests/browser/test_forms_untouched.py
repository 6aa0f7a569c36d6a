"""Every form of the site, submitted untouched in Chromium, gives the unfiltered
page: an empty field (an "any" choice, an empty box) means no filter. The
matrix's form once sent ``?harness=`` and showed 0 models."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.test_ux import addresses
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir):
    return import_path(small_release_dir).bench


def analysis_index(bench) -> str:
    return reverse("analysis", args=[bench.slug])


def submit_untouched(page: Page, form: str, button: str) -> None:
    """Press the form's button without changing a field, and wait for the answer."""
    with page.expect_navigation():
        page.locator(form).get_by_role("button", name=button).click()


def shown(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text()


@pytest.mark.parametrize(
    ("name", "form", "button", "region"),
    [
        ("leaderboard", "form.filters", "Filter", "table.board tbody"),
        ("tasks", "form.filters", "Filter", "table.tasks-index tbody"),
        ("analysis", "form.filters", "Filter", "main"),
        ("tool-failures", "form.filters", "Filter", "main"),
        ("protocol", "form.filters", "Filter", "main"),
    ],
)
def test_a_filter_form_submitted_untouched_shows_the_unfiltered_page(
    page: Page, live_server, release, name, form, button, region
):
    url = live_server.url + {**addresses(release), "analysis": analysis_index(release)}[name]
    page.goto(url)
    before = shown(page, region)
    submit_untouched(page, form, button)
    assert "?" in page.url  # the form did send its empty fields
    # The download links carry the query string; everything else is the same.
    assert re.sub(r"\?\S*", "", shown(page, region)) == re.sub(r"\?\S*", "", before)


def test_the_matrix_form_submitted_untouched_shows_every_model(page: Page, live_server, release):
    page.goto(live_server.url + addresses(release)["matrix"])
    meta = page.locator(".matrix-meta p").first
    whole = meta.inner_text()
    rows = page.locator("table.matrix tbody tr").count()
    assert rows > 2
    submit_untouched(page, "form.filters", "Apply")
    expect(page).to_have_url(re.compile(r"harness=&"))
    expect(meta).to_have_text(whole)
    assert page.locator("table.matrix tbody tr").count() == rows


def test_the_matrix_form_with_released_tasks_only_keeps_every_model(
    page: Page, live_server, release
):
    page.goto(live_server.url + addresses(release)["matrix"])
    rows = page.locator("table.matrix tbody tr").count()
    page.get_by_label("released tasks only").check()  # submits at once (autosubmit)
    page.wait_for_url(re.compile(r"released=1"))
    assert page.locator("table.matrix tbody tr").count() == rows
    assert page.locator("table.matrix th.t-head.unreleased").count() == 0
    assert page.locator("table.matrix th.t-head").count() > 0


def test_the_matrix_form_with_two_models_picked_shows_those_two(page: Page, live_server, release):
    page.goto(live_server.url + addresses(release)["matrix"])
    page.locator("details.model-picker summary").click()
    boxes = page.locator("details.model-picker input[type=checkbox]")
    picked = [boxes.nth(0).get_attribute("value"), boxes.nth(2).get_attribute("value")]
    boxes.nth(0).check()
    boxes.nth(2).check()
    submit_untouched(page, "form.filters", "Apply")
    expect(page.locator(".matrix-meta p").first).to_contain_text("2 models")
    links = page.locator("table.matrix tbody tr th a")
    assert sorted(links.nth(i).get_attribute("href").split("/")[-2] for i in range(2)) == sorted(
        picked
    )


def test_the_search_form_submitted_untouched_finds_what_its_link_finds(
    page: Page, live_server, release
):
    search = live_server.url + reverse("search", args=[release.slug])
    page.goto(search + "?q=error")
    summary = page.locator(".search-summary")
    found = summary.inner_text()
    assert not found.startswith("0 ")
    submit_untouched(page, "form.search-form", "Search")
    expect(page).to_have_url(re.compile(r"type=&tool=&"))
    expect(summary).to_have_text(found)
    # With no words either: the search page as it opens, no results, no complaint.
    page.goto(search)
    submit_untouched(page, "form.search-form", "Search")
    expect(page.locator(".search-summary")).to_have_count(0)
    expect(page.locator(".note-warn")).to_have_count(0)


def test_the_attempt_search_submitted_empty_shows_the_whole_trajectory(
    page: Page, live_server, release
):
    page.goto(live_server.url + addresses(release)["attempt"])
    total = page.locator("nav.section-bar a[href='#trajectory'] .count").inner_text()
    submit_untouched(page, "form#search", "Search")
    expect(page.locator(".search-results")).to_have_count(0)
    expect(page.locator("nav.section-bar a[href='#trajectory'] .count")).to_have_text(total)
    # The trajectory from its first event on, none hidden by the empty search.
    expect(page.locator("#e0")).to_be_visible()
    expect(page.locator("#trajectory li.ev:not([hidden])").first).to_be_visible()


def test_the_compare_form_submitted_untouched_compares_its_preselected_pair(
    page: Page, live_server, release
):
    page.goto(live_server.url + addresses(release)["task"])
    form = page.locator("form.compare-form")
    first = form.get_by_label("First model").input_value()
    second = form.get_by_label("Second model").input_value()
    submit_untouched(page, "form.compare-form", "Compare")
    expect(page).to_have_url(re.compile(rf"/{first}/{second}/|/{second}/{first}/"))
    expect(page.locator("h1")).to_have_count(1)
