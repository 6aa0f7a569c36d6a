"""No script from a release runs: hostile trajectories, checks, vendor bodies and
patches are shown on the attempt, event and compare pages without executing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from leaderboard.models import Attempt
from tests.factories import import_path, make_hostile_release

pytestmark = pytest.mark.browser


@pytest.fixture
def hostile_urls(transactional_db, release_copy, settings, tmp_path) -> list[str]:
    settings.MEDIA_ROOT = tmp_path / "media"
    model, task = make_hostile_release(release_copy)
    import_path(release_copy)
    attempt = Attempt.objects.select_related("bench", "evidence").get(
        model__slug=model, task__slug=task
    )
    other = Attempt.objects.released().filter(task=attempt.task).exclude(pk=attempt.pk).first()
    page_url = reverse("attempt", args=[attempt.bench.slug, model, task])
    last = attempt.evidence.events_total - 1
    return [
        page_url,
        f"{page_url}?q=pwned",
        f"{page_url}?view=split",
        *(f"{page_url}events/{i}/" for i in range(last - 6, last + 1)),
        reverse("compare", args=[attempt.bench.slug, task, model, other.model.slug]),
    ]


def test_no_injected_script_runs(live_server, page: Page, hostile_urls):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for url in hostile_urls:
        page.goto(live_server.url + url)
        page.wait_for_load_state("load")
        # Open every collapsed body so hidden content is parsed and laid out too.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        if "/events/" not in url:  # (some single events carry other payloads)
            # The payload is on the page, as text.
            assert "window.__pwned=1" in page.locator("main").inner_text(), url
        assert page.evaluate("typeof window.__pwned") == "undefined", url
        assert page.locator("main img").count() == 0, url
    assert dialogs == []
