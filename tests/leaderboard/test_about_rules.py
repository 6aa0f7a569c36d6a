"""Every bench's About page is generated from its scoring rule: each rule's page
says its own words and none of another rule's. The Harbor bench's once said
"does not know the rule reward-threshold" beside "recomputes ... from its
verdict.json"."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from formats.v1.scoring import SCORING_RULES
from leaderboard.rule_texts import RULES
from tests.rule_benches import BUILDERS, NOT_WORDS, OWN_WORDS

pytestmark = pytest.mark.django_db


def test_every_scoring_rule_has_its_words_and_a_bench_to_test_them():
    assert set(RULES) == set(SCORING_RULES) == set(BUILDERS) == set(OWN_WORDS)


def page_text(client, bench) -> str:
    html = client.get(reverse("about", args=[bench.slug])).content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", unescape(strip_tags(main)))


@pytest.mark.parametrize("rule", sorted(SCORING_RULES))
def test_the_about_page_says_its_rules_own_words(client, tmp_path, rule):
    bench = BUILDERS[rule](tmp_path)
    assert bench.scoring_rule == rule
    text = page_text(client, bench)
    for words in OWN_WORDS[rule]:
        assert words in text, words
    lowered = text.lower()
    scoring = lowered.split("released, staged and unreleased tasks")[0]
    for words in NOT_WORDS[rule]:
        assert words.lower() not in scoring, words
    # Sentences begin with a capital: no "passed/total. a percentile bootstrap".
    assert not re.search(r"\. [a-z]", text.split("The interval", 1)[1].split("Rank ranges")[0])


def test_a_rule_the_site_does_not_know_is_not_said_to_be_recomputed(client, bench):
    type(bench).objects.filter(pk=bench.pk).update(scoring_rule="someone-elses-rule")
    text = page_text(client, bench)
    assert "does not know the rule someone-elses-rule" in text
    assert "recomputes" not in text
