"""Hostile content in a release is shown as text on the attempt, event and compare pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from leaderboard.models import Attempt
from tests.conftest import import_path

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
JS_LINK = '<a href="javascript:window.__pwned=1">click me</a>'
UNTERMINATED = '<div title="unterminated <!-- <textarea><b>bold'
CONTROL = "bell\x07 escape\x1b[31mred nul\x00 end"
RTL = "\u202eexe.txt\u202c then עברית and العربية"
BIG_CHARS = 5 * 1024 * 1024


def _append_events(events: list[dict], extra: list[dict]) -> None:
    for event in extra:
        events.append({"index": len(events), **event})


def make_hostile_release(root: Path) -> tuple[str, str]:
    """Put hostile text into one released attempt of the release at ``root``.

    Returns (model, task) of that attempt. Every kind of untrusted text gets a
    payload: event text and outputs, tool input, a check's detail, a vendor
    request body and response, the patch and the ticket the agent received.
    """
    folder = next(
        p
        for p in sorted((root / "attempts").glob("*/*"))
        if (p / "vendor-requests.json").exists()
        and (p / "verdict.json").exists()
        and (p / "patch.diff").exists()
    )
    trajectory = json.loads((folder / "trajectory.json").read_text())
    _append_events(
        trajectory["events"],
        [
            {"type": "message", "text": f"{SCRIPT} {IMG} {JS_LINK}"},
            {
                "type": "tool_call",
                "tool": "Bash",
                "input": {"command": f"echo '{IMG}'"},
                "result": {"ok": False, "output": f"{UNTERMINATED} {SCRIPT}", "exit_code": 1},
            },
            {
                "type": "tool_call",
                "tool": "Write",
                "input": {"file_path": "x.html", "content": SCRIPT},
                "result": {"ok": True, "output": CONTROL, "exit_code": None},
            },
            {"type": "reasoning", "text": RTL},
            {
                "type": "tool_call",
                "tool": "Read",
                "input": {"file_path": "big.log"},
                "result": {"ok": True, "output": "A" * BIG_CHARS, "exit_code": None},
            },
            {"type": "error", "source": "harness", "text": JS_LINK},
            {"type": "message", "text": "plain", f"note{IMG}": SCRIPT},
        ],
    )
    (folder / "trajectory.json").write_text(json.dumps(trajectory))

    verdict = json.loads((folder / "verdict.json").read_text())
    verdict["checks"][0]["detail"] = f"{SCRIPT} {IMG} {RTL}"
    (folder / "verdict.json").write_text(json.dumps(verdict))

    log = json.loads((folder / "vendor-requests.json").read_text())
    first = next(iter(log["vendors"].values()))[0]
    first["body"] = {"html": SCRIPT, "link": JS_LINK}
    first["response"] = f"<html>{IMG}</html>"
    (folder / "vendor-requests.json").write_text(json.dumps(log))

    patch = (folder / "patch.diff").read_text()
    patch += (
        "diff --git a/evil.html b/evil.html\nnew file mode 100644\n"
        "--- /dev/null\n+++ b/evil.html\n@@ -0,0 +1,2 @@\n"
        f"+{SCRIPT}\n+{IMG}\n"
    )
    (folder / "patch.diff").write_text(patch)
    return folder.parent.name, folder.name


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
