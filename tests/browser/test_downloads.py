"""Downloads in Chromium with the page cache on (as deployed): each file has the
name its view gives it, on the first answer and on a cached one. The cache once
rebuilt answers from a list of kept headers without Content-Disposition, so
every file was called download.csv."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import Page

from tests.browser.test_ux import addresses
from tests.factories import import_path

pytestmark = pytest.mark.browser


@pytest.fixture
def release(transactional_db, small_release_dir):
    return import_path(small_release_dir).bench


def test_each_csv_download_has_its_own_name_cached_or_not(page: Page, live_server, release):
    assert settings.BENCHVIEW_LIMITS["page_cache_s"] > 0
    urls = addresses(release)
    task = urls["task"].rstrip("/").rsplit("/", 1)[1]
    expected = {
        "leaderboard": f"{release.slug}-leaderboard.csv",
        "matrix": f"{release.slug}-matrix.csv",
        "tasks": f"{release.slug}-tasks.csv",
        "task": f"{release.slug}-{task}.csv",
        "tool-failures": f"{release.slug}-tool-failures.csv",
    }
    names = {}
    for name in expected:
        # Twice: the first answer is stored, the second comes from the cache.
        for _ in range(2):
            page.goto(live_server.url + urls[name])
            with page.expect_download() as download:
                page.locator("p.downloads").first.get_by_role("link", name="CSV").click()
            names.setdefault(name, set()).add(download.value.suggested_filename)
    assert names == {name: {file} for name, file in expected.items()}
