"""Journey 3 of the site in Chromium: from a task page pick two models, compare
them, see the checks where they differ and the diff between their patches."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt
from tests.factories import import_path, pair_with_differing_checks

pytestmark = pytest.mark.browser


@pytest.fixture
def pair(transactional_db, small_release_dir, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    import_path(small_release_dir)
    return pair_with_differing_checks()


def test_pick_two_models_on_a_task_page_and_compare_them(live_server, page: Page, pair):
    task, a, b, outcomes_a, outcomes_b = pair
    page.goto(live_server.url + reverse("task", args=[task.bench.slug, task.slug]))
    form = page.locator("form.compare-form")
    form.locator("select[name=a]").select_option(a.model.slug)
    form.locator("select[name=b]").select_option(b.model.slug)
    form.get_by_role("button", name="Compare").click()

    expect(page).to_have_url(
        live_server.url
        + reverse("compare", args=[task.bench.slug, task.slug, a.model.slug, b.model.slug])
    )
    expect(page.locator("h1")).to_contain_text(a.model.display_name)
    differing = sorted(n for n in outcomes_a if outcomes_a[n] != outcomes_b.get(n))
    first_rows = page.locator("#checks tbody tr").all()[: len(differing)]
    shown = sorted(row.locator("th code").inner_text() for row in first_rows)
    assert shown == differing
    for row in first_rows:
        expect(row).to_have_class("differs")

    diff = page.locator("#patch-diff .diff-file").first
    expect(diff).to_contain_text(f"{a.model.slug}/patch.diff → {b.model.slug}/patch.diff")
    expect(diff.locator("tr.diff-add, tr.diff-del").first).to_be_visible()

    # A step of the alignment leads to its event on the attempt page, marked.
    step = page.locator("#alignment td.step a").first
    href = step.get_attribute("href")
    step.click()
    anchor = href.split("#", 1)[1]
    expect(page.locator(f"#{anchor}")).to_be_in_viewport()
    assert Attempt.objects.filter(model__slug__in=[a.model.slug, b.model.slug]).exists()
