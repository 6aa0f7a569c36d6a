"""Did you mean: a query that finds nothing is respelt from the index's own
vocabulary, on SQLite (fts5vocab) and PostgreSQL (pg_trgm) alike."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from leaderboard.models import Task
from tests.search.helpers import search_url
from trajectories.search.suggest import respell, rewrite, similarity

pytestmark = pytest.mark.django_db


def test_a_misspelt_word_finds_nothing_and_the_page_offers_the_indexed_word(client, planted):
    bench, _, _ = planted
    html = client.get(search_url(bench.slug, "zebrafsh")).content.decode()
    assert "0 matching events" in html
    assert "Did you mean" in html
    assert 'href="?q=zebrafish" rel="nofollow">zebrafish</a>' in html


def test_the_suggestion_keeps_the_fields_and_respells_each_unknown_word(client, planted):
    bench, _, _ = planted
    html = client.get(search_url(bench.slug, "zebrafsh hok tool:bash")).content.decode()
    assert ">zebrafish hook tool:bash</a>" in html


def test_a_word_the_index_holds_gets_no_suggestion(client, planted):
    bench, _, _ = planted
    # Both words are indexed, never in one event: nothing found, nothing to respell.
    html = client.get(search_url(bench.slug, "zebrafish sighting")).content.decode()
    assert "0 matching events" in html
    assert "Did you mean" not in html


def test_a_word_only_hidden_trajectories_hold_is_never_suggested(client, planted):
    bench, first, second = planted
    Task.objects.filter(bench=bench, slug__in=[first[1], second[1]]).update(batch=None)
    html = client.get(search_url(bench.slug, "zebrafsh")).content.decode()
    assert "Did you mean" not in html and "zebrafish" not in html.replace("zebrafsh", "")


def test_the_api_answers_did_you_mean(client, planted):
    bench, _, _ = planted
    doc = client.get(reverse("api-search") + f"?bench={bench.slug}&q=zebrafsh").json()
    assert doc["total"]["value"] == 0
    assert doc["did_you_mean"] == "zebrafish"
    found = client.get(reverse("api-search") + f"?bench={bench.slug}&q=zebrafish").json()
    assert found["did_you_mean"] is None


def test_the_vocabulary_follows_a_reimport_of_new_words(planted):
    from trajectories.search.suggest import corrections

    assert corrections(["zebrafsh"]) == {"zebrafsh": "zebrafish"}
    assert corrections(["zebrafish"]) == {}


def test_respelling_prefers_the_closest_then_the_commonest_word():
    assert respell("tiemout", [("timeout", 3), ("timeouts", 50), ("time", 900)]) == "timeout"
    assert respell("tiemout", [("zebra", 3)]) is None
    assert respell("colour", [("color", 1), ("colours", 1)]) == "colours"


def test_rewrite_leaves_fields_and_excluded_words_as_typed():
    fixes = {"tiemout": "timeout"}
    assert rewrite('tiemout -tiemout tool:tiemout "a tiemout"', fixes) == (
        'timeout -tiemout tool:tiemout "a timeout"'
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_trgm is PostgreSQL's")
def test_the_python_similarity_is_pg_trgms():
    pairs = [("tiemout", "timeout"), ("zebrafsh", "zebrafish"), ("colour", "color"), ("a", "b")]
    with connection.cursor() as cursor:
        for a, b in pairs:
            cursor.execute("SELECT similarity(%s, %s)", [a, b])
            assert cursor.fetchone()[0] == pytest.approx(similarity(a, b), abs=1e-6)
