"""The import reads each transcript.jsonl: events from it when trajectory.json is
absent, a fidelity check when both exist, unmapped lines and source lines kept.

The transcripts here are in a small test format (tests/transcript_format.py) so
that what the import does with a normaliser's answer is tested exactly; the
sample release's real formats are tested in test_transcripts_real.py.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from formats.reader import open_release
from ingest.reading.plan import build_plan
from ingest.reading.preview import plan_preview
from ingest.writing.export import release_export
from leaderboard.models import Attempt, Bench
from samplegen.release import generate_release
from tests.factories import edit_json
from tests.transcript_format import write_transcript
from trajectories.models import Event, TranscriptCheck

pytestmark = pytest.mark.django_db

TINY = {"models": 2, "tasks": 3, "released": 2, "events": 8, "seed": 11}


@pytest.fixture(scope="session")
def tiny_release_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tiny-release") / "release"
    generate_release(root, **TINY)
    return root


@pytest.fixture
def tiny(tiny_release_dir, tmp_path) -> Path:
    target = tmp_path / "tiny"
    shutil.copytree(tiny_release_dir, target)
    return target


def folders(root: Path) -> list[Path]:
    return sorted((root / "attempts").glob("*/*"))


def events_of(folder: Path) -> list[dict]:
    return json.loads((folder / "trajectory.json").read_text())["events"]


def run_import(path) -> str:
    out = io.StringIO()
    call_command("import_release", str(path), stdout=out, stderr=io.StringIO())
    return out.getvalue()


def stored(folder: Path) -> Attempt:
    return Attempt.objects.select_related("evidence", "transcript_check").get(
        model__slug=folder.parent.name, task__slug=folder.name
    )


def test_an_attempt_without_trajectory_json_gets_the_normalised_events(lines_format, tiny):
    folder = folders(tiny)[0]
    published = events_of(folder)
    where = write_transcript(folder, published, noise={2: "rate limit: retry in 2s"})
    (folder / "trajectory.json").unlink()

    out = run_import(tiny)

    attempt = stored(folder)
    rows = list(Event.objects.filter(attempt=attempt).order_by("index"))
    assert [e.as_document() for e in rows] == published
    assert [e.lines for e in rows] == [[n] for n in where]
    assert attempt.evidence.events_from == lines_format
    assert attempt.evidence.events_total == len(published)
    check = attempt.transcript_check
    assert check.status == TranscriptCheck.DERIVED
    assert check.format == lines_format
    # The header and the noise line: every other line became an event.
    assert check.unmapped == [[1, "format header"], [where[2] - 1, "not JSON"]]
    assert check.unmapped_total == 2
    assert check.lines_total == len(published) + 2
    assert "events normalised from transcript.jsonl: 1 attempts" in out


def test_without_trajectory_json_an_unrecognised_transcript_is_refused_by_name(tiny):
    folder = folders(tiny)[0]
    (folder / "transcript.jsonl").write_text("this is not any harness's transcript\n")
    (folder / "trajectory.json").unlink()
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_release", str(tiny), stdout=out, stderr=err)
    said = out.getvalue() + err.getvalue()
    rel = folder.relative_to(tiny).as_posix()
    assert f"{rel}/trajectory.json: missing, and transcript.jsonl cannot stand in for it" in said
    assert Bench.objects.count() == 0


def test_derived_events_that_break_the_event_rules_refuse_the_import(lines_format, tiny):
    folder = folders(tiny)[0]
    write_transcript(folder, [{"type": "tool_call", "tool": "Bash", "input": {}}])  # no result
    (folder / "trajectory.json").unlink()
    with pytest.raises(CommandError):
        call_command("import_release", str(tiny), stdout=io.StringIO(), stderr=io.StringIO())
    assert Bench.objects.count() == 0


def with_a_succeeding_call(root: Path) -> tuple[Path, int]:
    """The first attempt folder with a tool call that succeeded, and that call's index."""
    for folder in folders(root):
        for e in events_of(folder):
            if e["type"] == "tool_call" and e["result"] is not None and e["result"]["ok"]:
                return folder, e["index"]
    raise AssertionError("the sample has no succeeding tool call")


def test_a_trajectory_that_disagrees_with_its_transcript_is_a_stored_finding(lines_format, tiny):
    for folder in folders(tiny):
        write_transcript(folder, events_of(folder))
    folder, index = with_a_succeeding_call(tiny)

    def fail_one(trajectory):
        trajectory["events"][index]["result"].update(ok=False, exit_code=3)

    edit_json(folder / "trajectory.json", fail_one)

    out = run_import(tiny)

    check = stored(folder).transcript_check
    assert check.status == TranscriptCheck.DIFFERS
    assert check.first_difference == index
    assert check.differences_total == 2
    assert [(d["field"], d["published"], d["transcript"]) for d in check.differences] == [
        ("ok", False, True),
        ("exit_code", 3, 0),
    ]
    # The published trajectory is what was stored, with its source lines.
    event = Event.objects.get(attempt=stored(folder), index=index)
    assert (event.ok, event.exit_code, event.lines) == (False, 3, [index + 2])
    others = TranscriptCheck.objects.exclude(attempt=stored(folder))
    assert {c.status for c in others} == {TranscriptCheck.AGREES}
    line = next(x for x in out.splitlines() if folder.name in x and "difference" in x)
    assert f"event {index} ok: trajectory.json false, transcript.jsonl true" in line
    assert f"  {folder.parent.name}  {folder.name}  {lines_format}  2 difference(s)" in out


def test_a_changed_event_count_stops_source_lines_at_the_first_different_type(lines_format, tiny):
    folder = folders(tiny)[0]
    events = events_of(folder)
    # The transcript has an extra error before event 3: everything after it shifts.
    assert events[3]["type"] != "error"
    extra = {"index": 0, "type": "error", "text": "overloaded, retrying"}
    write_transcript(folder, [*events[:3], extra, *events[3:]])
    run_import(tiny)
    attempt = stored(folder)
    check = attempt.transcript_check
    assert check.status == TranscriptCheck.DIFFERS
    assert check.first_difference == 3
    assert check.differences == [
        {"index": 3, "field": "type", "published": events[3]["type"], "transcript": "error"},
        {
            "index": len(events),
            "field": "count",
            "published": len(events),
            "transcript": len(events) + 1,
        },
    ]
    lines = list(
        Event.objects.filter(attempt=attempt).order_by("index").values_list("lines", flat=True)
    )
    assert lines == [[2], [3], [4]] + [None] * (len(events) - 3)


def test_an_undetectable_transcript_beside_a_trajectory_is_a_finding_not_a_refusal(tiny):
    folder = folders(tiny)[0]
    (folder / "transcript.jsonl").write_text("<script>alert(1)</script>\nnot json\n")
    out = run_import(tiny)
    check = stored(folder).transcript_check
    assert check.status == TranscriptCheck.UNRECOGNISED
    assert check.note == "not a transcript format this site knows"
    assert check.lines_total == 2
    assert Event.objects.filter(attempt=stored(folder)).count() == len(events_of(folder))
    assert "transcript not checked: not a transcript format this site knows" in out


def test_the_admin_preview_lists_the_finding_before_anything_is_written(
    lines_format, tiny, admin_client, settings, tmp_path
):
    folder, index = with_a_succeeding_call(tiny)
    events = events_of(folder)
    events[index]["result"]["exit_code"] = 9
    write_transcript(folder, events)
    with open_release(tiny) as source:
        document = plan_preview(build_plan(source))
    findings = document["summary"]["transcript_findings"]
    (finding,) = [f for f in findings if f["status"] == "differs"]
    assert (finding["model"], finding["task"], finding["first_difference"]) == (
        folder.parent.name,
        folder.name,
        index,
    )

    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    shutil.copytree(tiny, tmp_path / "imports" / "tiny")
    picked = admin_client.post(reverse("admin:ingest_import"), {"name": "tiny"})
    assert picked.status_code == 302, picked.content[:2000]
    page = admin_client.get(picked["Location"]).content.decode()
    table = page.split('class="import-transcripts"', 1)[1].split("</table>", 1)[0]
    assert f"<code>{folder.name}</code>" in table
    assert f"event {index} exit_code: trajectory.json 0, transcript.jsonl 9" in table
    assert Bench.objects.count() == 0


def test_export_of_a_derived_attempt_leaves_trajectory_json_out_and_reimports_the_same_events(
    lines_format, tiny, tmp_path, client
):
    folder = folders(tiny)[0]
    write_transcript(folder, events_of(folder))
    (folder / "trajectory.json").unlink()
    run_import(tiny)
    attempt = stored(folder)
    before = [e.as_document() for e in Event.objects.filter(attempt=attempt).order_by("index")]
    base = f"/data/v1/{attempt.bench.slug}/attempts/{folder.parent.name}/{folder.name}/"
    assert client.get(base + "trajectory.json").status_code == 404
    assert client.get(base + "transcript.jsonl").status_code == 200

    release_export(bench=attempt.bench, root=tmp_path / "out")
    exported = tmp_path / "out" / "attempts" / folder.parent.name / folder.name
    assert not (exported / "trajectory.json").exists()
    assert (exported / "transcript.jsonl").read_bytes() == (
        folder / "transcript.jsonl"
    ).read_bytes()

    out = run_import(tmp_path / "out")
    assert "attempts: 4 unchanged" in out or "unchanged" in out
    again = stored(folder)
    assert again.evidence.events_from == lines_format
    assert [e.as_document() for e in Event.objects.filter(attempt=again).order_by("index")] == (
        before
    )


def test_a_transcript_that_is_not_utf8_is_imported_verbatim_with_a_finding(
    lines_format, tiny, client
):
    folder = folders(tiny)[0]
    write_transcript(folder, events_of(folder))
    path = folder / "transcript.jsonl"
    raw = path.read_bytes() + b"stderr: caf\xe9 \xff\n"
    path.write_bytes(raw)
    bad_at = raw.index(b"\xe9")

    run_import(tiny)

    attempt = stored(folder)
    check = attempt.transcript_check
    assert check.status == TranscriptCheck.AGREES
    assert check.note == f"transcript is not valid UTF-8 at byte {bad_at}"
    base = f"/data/v1/{attempt.bench.slug}/attempts/{folder.parent.name}/{folder.name}/"
    assert client.get(base + "transcript.jsonl").getvalue() == raw  # byte for byte
    page = (
        client.get(
            reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
        )
        .getvalue()
        .decode()
    )
    assert f"transcript is not valid UTF-8 at byte {bad_at}" in page


def test_the_api_links_only_evidence_the_mirror_serves(lines_format, tiny, client):
    derived, published = folders(tiny)[:2]
    write_transcript(derived, events_of(derived))
    (derived / "trajectory.json").unlink()
    run_import(tiny)

    for folder, has_trajectory in ((derived, False), (published, True)):
        attempt = stored(folder)
        body = client.get(f"/api/attempts/{attempt.pk}/").json()
        links = body["links"]
        assert (links["trajectory"] is not None) is has_trajectory
        for name in ("trajectory", "transcript", "summary"):
            if links[name] is not None:
                assert client.get(links[name]).status_code == 200, (folder, name)
