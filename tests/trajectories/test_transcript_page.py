"""The sample release's real transcripts at import and on the pages: fidelity
findings on the attempt page, events linked to their transcript lines, the
transcript page (anchors, escaping, query count, visibility)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from leaderboard.models import Attempt
from leaderboard.services import batch_publish
from tests.factories import edit_json, import_path
from trajectories.models import Event, TranscriptCheck

pytestmark = pytest.mark.django_db


def body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode()


def args_of(attempt: Attempt) -> list[str]:
    return [attempt.bench.slug, attempt.model.slug, attempt.task.slug]


def page_url(attempt: Attempt) -> str:
    return reverse("attempt", args=args_of(attempt))


def transcript_url(attempt: Attempt) -> str:
    return reverse("attempt-transcript", args=args_of(attempt))


def attempt_of(folder: Path) -> Attempt:
    return Attempt.objects.select_related(
        "bench", "model", "task", "evidence", "transcript_check"
    ).get(model__slug=folder.parent.name, task__slug=folder.name)


def folders(root: Path) -> list[Path]:
    return sorted((root / "attempts").glob("*/*"))


def live_attempt() -> Attempt:
    return (
        Attempt.objects.released()
        .filter(task__batch__live=True)
        .select_related("bench", "model", "task", "evidence", "transcript_check")
        .order_by("evidence__events_total", "pk")
        .first()
    )


def test_every_sample_transcript_agrees_with_its_trajectory_and_accounts_for_every_line(imported):
    checks = list(TranscriptCheck.objects.all())
    assert len(checks) == Attempt.objects.released().count()
    assert {c.status for c in checks} == {TranscriptCheck.AGREES}
    assert {c.format for c in checks} >= {"claude-stream-json", "codex-exec", "opencode-run"}
    for check in checks:
        lines = Event.objects.filter(attempt_id=check.attempt_id).values_list("lines", flat=True)
        sourced = {n for found in lines for n in found}
        unmapped = {n for n, _ in check.unmapped}
        assert sourced | unmapped == set(range(1, check.lines_total + 1))


def test_importing_without_any_trajectory_json_gives_the_published_events(release_copy):
    published = {}
    for folder in folders(release_copy):
        published[(folder.parent.name, folder.name)] = json.loads(
            (folder / "trajectory.json").read_text()
        )["events"]
        (folder / "trajectory.json").unlink()
    import_path(release_copy)
    for (model, task), events in published.items():
        attempt = Attempt.objects.get(model__slug=model, task__slug=task)
        rows = Event.objects.filter(attempt=attempt).order_by("index")
        assert [e.as_document() for e in rows] == events, (model, task)
        assert attempt.evidence.events_from in {"claude-stream-json", "codex-exec", "opencode-run"}


def test_the_attempt_page_says_the_events_were_derived(client, release_copy):
    folder = folders(release_copy)[0]
    (folder / "trajectory.json").unlink()
    import_path(release_copy)
    attempt = attempt_of(folder)
    html = body(client.get(page_url(attempt)))
    # The provenance list sits in the folded "Hashes and provenance" block.
    provenance = html.split("<summary>Hashes and provenance</summary>", 1)[1]
    provenance = provenance.split("</details>", 1)[0]
    assert "normalised by this site from" in provenance
    assert f"<code>{attempt.evidence.events_from}</code>" in provenance
    trajectory_file = reverse("mirror-attempt-file", args=[*args_of(attempt), "trajectory.json"])
    assert trajectory_file not in html


def _succeeding_call(root: Path) -> tuple[Path, int]:
    for folder in folders(root):
        events = json.loads((folder / "trajectory.json").read_text())["events"]
        for e in events:
            if e["type"] == "tool_call" and e["result"] is not None and e["result"]["ok"]:
                return folder, e["index"]
    raise AssertionError("no succeeding tool call in the sample")


def test_a_trajectory_edited_away_from_its_transcript_shows_the_finding_and_links_it(
    client, release_copy, django_assert_num_queries
):
    folder, index = _succeeding_call(release_copy)

    def fail(trajectory):
        trajectory["events"][index]["result"].update(ok=False, exit_code=2)

    edit_json(folder / "trajectory.json", fail)
    import_path(release_copy)
    attempt = attempt_of(folder)
    check = attempt.transcript_check
    assert (check.status, check.first_difference, check.differences_total) == (
        TranscriptCheck.DIFFERS,
        index,
        2,
    )
    # The finding comes with the attempt's row: the page's usual four queries.
    with django_assert_num_queries(4):
        html = body(client.get(page_url(attempt)))
    section = html.split('id="transcript-check"', 1)[1].split("</section>", 1)[0]
    assert "Trajectory and transcript differ." in section
    assert f'<a href="#e{index}">event #{index}</a>' in section
    assert f"event {index} ok: trajectory.json false, transcript.jsonl true" in section
    assert f'id="e{index}"' in html  # the link's target is on the page
    others = TranscriptCheck.objects.exclude(attempt=attempt).values_list("status", flat=True)
    assert set(others) == {TranscriptCheck.AGREES}


def test_each_event_links_to_its_lines_and_each_line_back_to_its_event(client, imported):
    attempt = live_attempt()
    html = body(client.get(page_url(attempt)))
    url = transcript_url(attempt)
    rows = list(
        Event.objects.filter(attempt=attempt).order_by("index").values_list("index", "lines")
    )
    for index, lines in rows:
        event = html.split(f'id="e{index}"', 1)[1].split("</li>", 1)[0]
        assert f'href="{url}#L{lines[0]}"' in event
    lines_page = body(client.get(url))
    for index, lines in rows:
        line = lines_page.split(f'id="L{lines[0]}"', 1)[1].split("</div>", 1)[0]
        assert f'href="../#e{index}"' in line


def test_unmapped_lines_are_listed_with_their_reasons(client, release_copy):
    folder = next(f for f in folders(release_copy) if f.parent.name.startswith("gpt-6"))
    path = folder / "transcript.jsonl"
    hostile = '<script>alert("x")</script> & <b>bold</b>'
    path.write_bytes(path.read_bytes() + hostile.encode() + b"\n")
    import_path(release_copy)
    attempt = attempt_of(folder)
    check = attempt.transcript_check
    assert check.status == TranscriptCheck.AGREES  # unmapped lines are not compared
    last = check.lines_total
    assert [last, "not JSON (stderr or other text)"] in check.unmapped
    html = body(client.get(page_url(attempt)))
    listed = html.split('id="unmapped"', 1)[1].split("</details>", 1)[0]
    assert f"{check.unmapped_total} transcript lines gave no event" in listed
    for line, reason in check.unmapped:
        assert f'<a href="{transcript_url(attempt)}#L{line}">L{line}</a> {reason}' in listed

    lines_page = body(client.get(transcript_url(attempt)))
    line = lines_page.split(f'id="L{last}"', 1)[1].split("</div>", 1)[0]
    assert "<script>" not in lines_page
    assert '&lt;script&gt;alert("x")&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;' in line
    assert 'class="tl-why">not JSON (stderr or other text)</span>' in line


def test_the_transcript_page_has_an_anchor_per_line_and_shows_control_characters(
    client, release_copy
):
    folder = folders(release_copy)[0]
    path = folder / "transcript.jsonl"
    path.write_bytes(path.read_bytes() + b"stderr: bad\x00byte and \x1b[31mred\r\n")
    import_path(release_copy)
    attempt = attempt_of(folder)
    html = body(client.get(transcript_url(attempt)))
    numbers = [int(n) for n in re.findall(r'<div class="tl[^"]*" id="L(\d+)">', html)]
    assert numbers == list(range(1, attempt.transcript_check.lines_total + 1))
    assert all(f'<a class="ln" href="#L{n}">{n}</a>' in html for n in numbers)
    last = html.split(f'id="L{numbers[-1]}"', 1)[1].split("</div>", 1)[0]
    assert "stderr: bad\u2400byte and \u241b[31mred</code>" in last
    assert html.count("<h1") == 1
    assert 'class="page-transcript"' in html


def test_the_transcript_page_query_count_does_not_grow_with_the_transcript(
    client, imported, django_assert_num_queries
):
    attempts = (
        Attempt.objects.released()
        .filter(task__batch__live=True)
        .select_related("bench", "model", "task", "transcript_check")
        .order_by("transcript_check__lines_total", "pk")
    )
    short, long = attempts.first(), attempts.last()
    assert long.transcript_check.lines_total > 3 * short.transcript_check.lines_total
    for attempt in (short, long):
        # 1 the attempt with its bench, task, evidence and transcript check;
        # 2 the transcript's bytes; 3 the events' source lines.
        with django_assert_num_queries(3):
            body(client.get(transcript_url(attempt)))


def test_a_staged_attempts_transcript_is_for_staff_only(client, admin_client, imported):
    attempt = live_attempt()
    batch_publish(batch=attempt.task.batch, live=False)
    assert client.get(transcript_url(attempt)).status_code == 404
    assert admin_client.get(transcript_url(attempt)).status_code == 200
    batch_publish(batch=attempt.task.batch, live=True)
    assert client.get(transcript_url(attempt)).status_code == 200


def test_a_task_in_no_batch_has_no_transcript_page(admin_client, imported):
    attempt = (
        Attempt.objects.filter(task__batch__isnull=True).select_related("bench", "model", "task")
    ).first()
    assert admin_client.get(transcript_url(attempt)).status_code == 404


def test_the_apis_links_of_a_derived_attempt_all_resolve(client, release_copy):
    folder = folders(release_copy)[0]
    (folder / "trajectory.json").unlink()
    import_path(release_copy)
    derived = attempt_of(folder)
    listing = client.get("/api/attempts/", {"bench": derived.bench.slug}).json()["results"]
    seen = {}
    for row in listing:
        if row["links"] is not None:
            seen[(row["model"], row["task"])] = row["links"]
    links = seen.pop((derived.model.slug, derived.task.slug))
    assert links["trajectory"] is None
    assert links["events_from"] == derived.evidence.events_from
    assert seen, "the published attempts are listed too"
    for other in [links, *seen.values()]:
        for name, url in other.items():
            if url is None or name == "events_from":
                continue
            assert client.get(url).status_code == 200, (name, url)
    published = next(iter(seen.values()))
    assert published["trajectory"] is not None and published["events_from"] is None


def test_the_transcript_is_paged_by_lines_and_event_links_find_the_page(client, imported, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "transcript_page_lines": 5}
    attempt = (
        Attempt.objects.released()
        .filter(task__batch__live=True, transcript_check__lines_total__gt=12)
        .select_related("bench", "model", "task", "evidence", "transcript_check")
        .order_by("pk")
        .first()
    )
    total = attempt.transcript_check.lines_total
    url = transcript_url(attempt)

    def numbers(html: str) -> list[int]:
        return [int(n) for n in re.findall(r'<div class="tl[^"]*" id="L(\d+)">', html)]

    first = body(client.get(url))
    assert numbers(first) == [1, 2, 3, 4, 5]
    assert 'rel="next" href="?from=6"' in first and 'rel="prev"' not in first
    second = body(client.get(url + "?from=6"))
    assert numbers(second) == [6, 7, 8, 9, 10]
    assert 'rel="prev" href="?from=1"' in second and 'rel="next" href="?from=11"' in second
    assert numbers(body(client.get(url + "?from=8"))) == [6, 7, 8, 9, 10]  # its page
    last_start = (total - 1) // 5 * 5 + 1
    last = body(client.get(f"{url}?from={last_start}"))
    assert numbers(last) == list(range(last_start, total + 1)) and 'rel="next"' not in last
    assert numbers(body(client.get(url + "?all=1"))) == list(range(1, total + 1))
    assert numbers(body(client.get(url + "?from=junk"))) == [1, 2, 3, 4, 5]

    # Each event's link names the page that holds its first line.
    html = body(client.get(page_url(attempt)))
    rows = Event.objects.filter(attempt=attempt).order_by("index").values_list("index", "lines")
    for index, lines in rows:
        event = html.split(f'id="e{index}"', 1)[1].split("</li>", 1)[0]
        start = (lines[0] - 1) // 5 * 5 + 1
        want = f"{url}?from={start}#L{lines[0]}" if start > 1 else f"{url}#L{lines[0]}"
        assert f'href="{want}"' in event
        assert lines[0] in numbers(body(client.get(want.split("#")[0])))
