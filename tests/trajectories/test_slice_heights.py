"""Estimated heights: the import keeps each block of events' estimated lines,
the attempt page's placeholders carry their share, and each event's class
names the same estimate, so a slice takes the room its placeholder held."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from leaderboard.models import Attempt
from trajectories.render.event_html import range_lines
from trajectories.render.heights import HEIGHT_BLOCK, event_lines

pytestmark = pytest.mark.django_db

SIZE = 5


@pytest.fixture(autouse=True)
def small_slices(settings):
    settings.BENCHVIEW_LIMITS = {
        **settings.BENCHVIEW_LIMITS,
        "event_slice_size": SIZE,
        "attempt_first_events": SIZE,
    }


def longest() -> Attempt:
    return (
        Attempt.objects.released()
        .select_related("bench", "model", "task", "evidence")
        .order_by("-evidence__events_total", "pk")
        .first()
    )


def view(**fields) -> dict:
    base = {"type": "message", "kind": "message", "returned": True}
    return {**base, **fields}


def test_an_events_lines_count_what_the_page_shows_folded_parts_as_one():
    assert event_lines(view(text="one", text_cut=False)) == 2
    # Wrapped at 100 characters; a cut text adds its "Full text" link.
    assert event_lines(view(text="x" * 250 + "\nend", text_cut=True)) == 1 + 3 + 1 + 1
    # Reasoning is folded: its summary only, however long.
    assert (
        event_lines(view(type="reasoning", kind="reasoning", text="a\n" * 50, text_cut=False)) == 2
    )
    call = view(type="tool_call", kind="tool", command="ls", output="a\nb\nc", output_cut=False)
    assert event_lines(call) == 1 + 1 + 3
    assert event_lines(view(type="tool_call", kind="tool", returned=False)) == 2
    assert event_lines(view(text="t", text_cut=False, extra='{"k": 1}')) == 3


def test_the_import_keeps_lines_per_block_and_the_page_sizes_each_placeholder(client, bench):
    attempt = longest()
    total = attempt.evidence.events_total
    blocks = attempt.evidence.height_lines
    assert len(blocks) == -(-total // HEIGHT_BLOCK) and all(n >= 1 for n in blocks)
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    # Every event on one page: its classes name the same estimates the import summed.
    every = b"".join(client.get(url + "?all=1").streaming_content).decode()
    drawn = [int(n) for n in re.findall(r'<li class="ev [^"]*\bev-l(\d+)\b', every)]
    assert len(drawn) == total
    assert sum(drawn) == sum(blocks)
    # Each placeholder carries its share of the estimate.
    page = client.get(url).content.decode()
    found = re.findall(r'data-from="(\d+)" data-last="(\d+)" data-lines="(\d+)"', page)
    assert found, "no sized placeholder"
    for first, last, lines in found:
        assert int(lines) == range_lines(blocks, int(first), int(last))


def test_range_lines_counts_a_cut_block_pro_rata():
    blocks = [100, 200, 50]
    assert range_lines(blocks, 0, 99) == 100
    assert range_lines(blocks, 50, 149) == 50 + 100
    assert range_lines(blocks, 0, 10_000) == 350
    assert settings.BENCHVIEW_LIMITS  # settings loaded
