"""The search inside one attempt: a word finds the words it begins, and words
past what the search index holds of a long event are found, counted and
paged like any other."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from leaderboard.models import Attempt
from trajectories.search.query import words

pytestmark = pytest.mark.django_db


def longest() -> Attempt:
    return (
        Attempt.objects.released()
        .select_related("bench", "model", "task", "evidence")
        .order_by("-evidence__events_total", "pk")
        .first()
    )


def search(client, attempt: Attempt, q: str, **params) -> dict:
    url = reverse(
        "attempt-search", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    )
    response = client.get(url, {"q": q, **params})
    assert response.status_code == 200, response.content
    return response.json()


def _words(event) -> set[str]:
    fields = [event.text or "", event.output or "", event.tool, str(event.doc.get("input", ""))]
    return {w.casefold() for f in fields for w in words(f)}


def test_a_word_finds_the_words_it_begins_and_is_marked_where_it_does(client, bench):
    attempt = longest()
    # A start of a word the trajectory holds, which is no whole word in it.
    held = set().union(*(_words(e) for e in attempt.events.all()))
    start = next(w[:-2] for w in sorted(held, key=len, reverse=True) if w[:-2] not in held)
    expected = [
        e.index
        for e in attempt.events.order_by("index")
        if any(w.startswith(start) for w in _words(e))
    ]
    found = search(client, attempt, start)
    assert found["total"] == len(expected) > 0
    assert [m["index"] for m in found["matches"]] == expected[: len(found["matches"])]
    # Marked as typed, any case, inside the longer word.
    assert any(f"<mark>{start}</mark>" in m["snippet_html"].lower() for m in found["matches"])


def test_a_word_past_the_indexed_part_of_an_event_is_found_counted_and_excluded(client, bench):
    attempt = longest()
    cut = settings.BENCHVIEW_LIMITS["search_index_chars"]
    filler = "lorem ipsum " * (cut // 12 + 100)  # more than the index holds of a field
    first, second, third = attempt.events.order_by("index")[:3]
    first.text = filler + "Quokka-Island"
    first.save(update_fields=["text"])
    second.output = "quokka island " + filler + " wombat"
    second.save(update_fields=["output"])

    found = search(client, attempt, "quokka island")
    assert found["total"] == 2
    assert [m["index"] for m in found["matches"]] == [first.index, second.index]
    snippet = found["matches"][0]["snippet_html"]
    assert "<mark>Quokka</mark>-<mark>Island</mark>" in snippet
    assert found["matches"][0]["cut_before"]
    # Prefix past the cut; an excluded word past the cut leaves its event out.
    assert search(client, attempt, "quokk")["total"] == 2
    assert [m["index"] for m in search(client, attempt, "quokka -wombat")["matches"]] == [
        first.index
    ]
    # Paged: the match after the first is the long output's.
    later = search(client, attempt, "quokka", after=first.index)
    assert later["offset"] == 1 and [m["index"] for m in later["matches"]] == [second.index]
    # The index still answers for the events it holds whole.
    third.text = "quokka"
    third.save(update_fields=["text"])
    assert search(client, attempt, "quokka")["total"] == 3
