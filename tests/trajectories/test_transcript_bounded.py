"""The transcript page is bounded in bytes: long lines are cut, the rest one click away."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt
from trajectories import queries
from trajectories.documents import blob_chunks
from trajectories.render.transcript_html import cut_line, split_lines


def test_a_line_is_cut_on_a_character_boundary():
    line = "ab€d".encode()  # € is three bytes, at 2-4
    assert cut_line(line, 10) == (line, 0)
    assert cut_line(line, 3) == (b"ab", 4)
    assert cut_line(line, 5) == ("ab€".encode(), 1)


@pytest.mark.django_db
def test_long_lines_are_cut_and_each_rest_is_one_click_away(client, imported, settings):
    most = 60
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "transcript_line_bytes": most}
    attempt = (
        Attempt.objects.released()
        .filter(task__batch__live=True)
        .select_related("bench", "model", "task", "evidence")
        .order_by("-evidence__events_total", "pk")
        .first()
    )
    url = reverse(
        "attempt-transcript", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    )
    response = client.get(url)
    html = b"".join(response.streaming_content).decode()
    raw = list(split_lines(blob_chunks(queries.transcript_blob(attempt))))
    long_lines = [n for n, line in enumerate(raw, 1) if len(line) > most]
    assert long_lines
    cut = [int(n) for n in re.findall(r'<a class="tl-rest" href="\?line=(\d+)">', html)]
    assert cut == long_lines
    # Each line's text on the page is at most `most` bytes of the transcript (escaped).
    for body in re.findall(r"<code>(.*?)</code>", html):
        unescaped = body.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        assert len(unescaped.encode()) <= most + 3  # a control character made visible
    # The rest: the whole line, as it is in the file.
    for n in cut[:5]:
        whole = client.get(f"{url}?line={n}")
        assert whole["Content-Type"].startswith("text/plain")
        assert whole.content == raw[n - 1]
    assert client.get(f"{url}?line={len(raw) + 1}").status_code == 404
    assert client.get(f"{url}?line=x").status_code == 404
