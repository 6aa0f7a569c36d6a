"""Hostile content in a release is shown as text on the attempt, event and compare pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt
from tests.factories import BIG_CHARS, RTL, import_path, make_hostile_release


@pytest.fixture
def hostile(release_copy, db) -> Attempt:
    model, task = make_hostile_release(release_copy)
    import_path(release_copy)
    return Attempt.objects.select_related("bench", "model", "task").get(
        model__slug=model, task__slug=task
    )


def _get(client, url: str) -> tuple[str, object]:
    response = client.get(url)
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode(), response


def attempt_url(attempt: Attempt) -> str:
    return reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])


def assert_no_live_markup(html: str) -> None:
    """None of the payloads survives as markup, and every script is an external file."""
    for raw in ("<script>window", "<img src=x", 'href="javascript:', "<textarea", "<b>bold"):
        assert raw not in html
    assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == []
    # An event-handler attribute inside any real tag.
    assert re.search(r"<[a-zA-Z][^>]*\son\w+\s*=", html) is None


def test_the_attempt_page_shows_every_payload_as_text(client, hostile):
    html, response = _get(client, attempt_url(hostile))
    assert_no_live_markup(html)
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" in html
    assert "&lt;a href=&quot;javascript:window.__pwned=1&quot;&gt;click me&lt;/a&gt;" in html
    assert "&lt;div title=&quot;unterminated &lt;!-- &lt;textarea&gt;&lt;b&gt;bold" in html
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_control_characters_are_shown_not_passed_through(client, hostile):
    html, _ = _get(client, attempt_url(hostile))
    assert re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", html) is None
    # Bell and escape as control pictures; the NUL was stored as U+FFFD.
    assert "bell\u2407 escape\u241b[31mred nul\ufffd end" in html


def test_the_full_event_view_shows_the_nul_as_a_control_picture(client, hostile):
    index = hostile.events.get(output__startswith="bell").index
    html, _ = _get(client, f"{attempt_url(hostile)}events/{index}/")
    assert "bell\u2407 escape\u241b[31mred nul\u2400 end" in html
    assert re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", html) is None


def test_right_to_left_text_is_isolated_in_its_own_direction(client, hostile):
    html, _ = _get(client, attempt_url(hostile))
    event = hostile.events.get(type="reasoning", text=RTL)
    li = html.split(f'id="e{event.index}"', 1)[1].split("</li>", 1)[0]
    assert f'<div class="ev-text" dir="auto">{RTL}</div>' in li


def test_a_five_megabyte_output_stays_off_the_page_and_is_one_click_away(client, hostile):
    html, _ = _get(client, attempt_url(hostile))
    assert len(html) < 1_000_000
    event = hostile.events.get(tool="Read", output__startswith="AAAA")
    li = html.split(f'id="e{event.index}"', 1)[1].split("</li>", 1)[0]
    assert "Full output (5.2M characters)" in li
    full, _ = _get(client, f"{attempt_url(hostile)}events/{event.index}/")
    assert "A" * BIG_CHARS in full


def test_the_event_view_escapes_input_output_and_unknown_fields(client, hostile):
    for event in hostile.events.filter(index__gte=hostile.evidence.events_total - 7):
        html, _ = _get(client, f"{attempt_url(hostile)}events/{event.index}/")
        assert_no_live_markup(html)


def test_the_compare_page_escapes_patches_and_steps(client, hostile):
    other = (
        Attempt.objects.released()
        .filter(task=hostile.task)
        .exclude(pk=hostile.pk)
        .select_related("model")
        .first()
    )
    url = reverse(
        "compare",
        args=[hostile.bench.slug, hostile.task.slug, hostile.model.slug, other.model.slug],
    )
    html, _ = _get(client, url)
    assert_no_live_markup(html)
    assert "evil.html" in html
    assert "window.__pwned=1" in html  # shown, as text
