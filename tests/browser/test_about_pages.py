"""Each scoring rule's About page in Chromium, at a desktop's and a phone's
width: its own words, none of another rule's, no sideways scroll, no serious
axe finding. The Harbor bench's page once said it did not know its own rule."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import Page, expect

from formats.v1.scoring import SCORING_RULES
from tests.rule_benches import BUILDERS, NOT_WORDS, OWN_WORDS

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("rule", sorted(SCORING_RULES))
def test_each_rules_about_page_says_its_own_words(
    page: Page, live_server, transactional_db, tmp_path, rule
):
    bench = BUILDERS[rule](tmp_path)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(live_server.url + reverse("about", args=[bench.slug]))
        scoring = page.locator("section", has=page.locator("#scoring"))
        for words in OWN_WORDS[rule]:
            expect(page.locator("main")).to_contain_text(words)
        text = scoring.inner_text().lower()
        assert [w for w in NOT_WORDS[rule] if w.lower() in text] == []
        expect(scoring.get_by_role("link", name="See the attempt")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        serious = [
            (v["id"], len(v["nodes"]))
            for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], width
