"""Every bad input is a refusal naming the file and JSON path, on either database.

Each case broke an import once (a traceback on the command line, a 500 in the
admin) or was taken by SQLite and refused by PostgreSQL. The suite runs on
both databases, so this one list proves they accept and refuse alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formats.reader import open_release
from ingest.writing.services import ImportRefused, write_release
from leaderboard.models import Attempt, Bench, Model, Task
from trajectories.models import Blob, Event, VendorRequest

FOLDER = "attempts/claude-opus-5-5-high/auth0-jwt-verify/"
TASK = "tasks/auth0-jwt-verify.json"
MODEL = "models/claude-opus-5-5-high.json"
RAW = "__raw_json_here__"


def _set(doc, keys, value):
    for key in keys[:-1]:
        doc = doc[key(doc) if callable(key) else key]
    last = keys[-1]
    doc[last(doc) if callable(last) else last] = value


def mutate(root: Path, name: str, keys: list, value=None, raw: str | None = None) -> None:
    """Set ``keys`` of file ``name`` to ``value``, or to the JSON text ``raw``."""
    path = root / name
    doc = json.loads(path.read_text())
    _set(doc, keys, RAW if raw is not None else value)
    text = json.dumps(doc, indent=2)
    if raw is not None:
        text = text.replace(json.dumps(RAW), raw)
    path.write_text(text)


def rename_vendor(root: Path, new: str) -> None:
    path = root / FOLDER / "vendor-requests.json"
    doc = json.loads(path.read_text())
    (entries,) = doc["vendors"].values()
    doc["vendors"] = {new: entries}
    path.write_text(json.dumps(doc))


def tool(events: list) -> int:
    """The first tool call's index (a key of ``mutate``'s path)."""
    return next(i for i, e in enumerate(events) if e["type"] == "tool_call")


NUL = "a\x00b"
CASES = {
    # Nesting: the standard library's recursion, then orjson's writer.
    "nesting 5000 deep": (
        FOLDER + "trajectory.json",
        "(document)",
        lambda r: mutate(
            r, FOLDER + "trajectory.json", ["events", tool, "input"], raw="[" * 5000 + "]" * 5000
        ),
    ),
    "nesting 300 deep in an event input": (
        FOLDER + "trajectory.json",
        "events[",
        lambda r: mutate(
            r, FOLDER + "trajectory.json", ["events", tool, "input"], raw="[" * 300 + "]" * 300
        ),
    ),
    "a lone surrogate in a title": (
        TASK,
        "task.title",
        lambda r: mutate(r, TASK, ["task", "title"], raw='"\\ud800"'),
    ),
    "a lone surrogate in an event's text": (
        FOLDER + "trajectory.json",
        "events[1].text",
        lambda r: mutate(r, FOLDER + "trajectory.json", ["events", 1, "text"], raw='"x\\udfff"'),
    ),
    "1e400 as a score": (
        FOLDER + "summary.json",
        "score",
        lambda r: mutate(r, FOLDER + "summary.json", ["score"], raw="1e400"),
    ),
    "1e400 as a cost": (
        FOLDER + "summary.json",
        "cost.usd",
        lambda r: mutate(r, FOLDER + "summary.json", ["cost", "usd"], raw="1e400"),
    ),
    "1e308 as a cost": (
        FOLDER + "summary.json",
        "cost.usd",
        lambda r: mutate(r, FOLDER + "summary.json", ["cost", "usd"], 1e308),
    ),
    "2**63 tokens": (
        FOLDER + "summary.json",
        "cost.input_tokens",
        lambda r: mutate(r, FOLDER + "summary.json", ["cost", "input_tokens"], 2**63),
    ),
    "2**64 - 1 tokens in an event": (
        FOLDER + "trajectory.json",
        "events[1].tokens.input",
        lambda r: mutate(
            r,
            FOLDER + "trajectory.json",
            ["events", 1, "tokens"],
            {"input": 2**64 - 1, "output": 1},
        ),
    ),
    "vendors that are a string": (
        FOLDER + "vendor-requests.json",
        "vendors",
        lambda r: mutate(r, FOLDER + "vendor-requests.json", ["vendors"], "oops"),
    ),
    "headers that are a number": (
        FOLDER + "vendor-requests.json",
        "vendors.auth0[0].headers",
        lambda r: mutate(r, FOLDER + "vendor-requests.json", ["vendors", "auth0", 0, "headers"], 1),
    ),
    "a key given twice": (
        FOLDER + "summary.json",
        "score",
        lambda r: mutate(r, FOLDER + "summary.json", ["score"], raw='0.5, "score": 1.0'),
    ),
    "a timestamp without an offset": (
        FOLDER + "summary.json",
        "timing.started_at",
        lambda r: mutate(
            r, FOLDER + "summary.json", ["timing", "started_at"], "2026-11-02T13:26:10"
        ),
    ),
    "a timestamp that is no date": (
        "manifest.json",
        "generated_at",
        lambda r: mutate(r, "manifest.json", ["generated_at"], "2026-02-30T10:00:00Z"),
    ),
    # Too long for the column (PostgreSQL refused them; SQLite kept them whole).
    "a 400-character bench title": (
        "manifest.json",
        "title",
        lambda r: mutate(r, "manifest.json", ["title"], "t" * 400),
    ),
    "a 600-character task title": (
        TASK,
        "task.title",
        lambda r: mutate(r, TASK, ["task", "title"], "t" * 600),
    ),
    "a 150-character harness": (
        FOLDER + "summary.json",
        "harness",
        lambda r: mutate(r, FOLDER + "summary.json", ["harness"], "h" * 150),
    ),
    "a 150-character model harness": (
        MODEL,
        "model.harness",
        lambda r: mutate(r, MODEL, ["model", "harness"], "h" * 150),
    ),
    "a 300-character tool name": (
        FOLDER + "trajectory.json",
        "events[",
        lambda r: mutate(r, FOLDER + "trajectory.json", ["events", tool, "tool"], "x" * 300),
    ),
    "a 300-character request id": (
        FOLDER + "vendor-requests.json",
        "vendors.auth0[0].id",
        lambda r: mutate(
            r, FOLDER + "vendor-requests.json", ["vendors", "auth0", 0, "id"], "r" * 300
        ),
    ),
    # Integers beyond PostgreSQL's integer columns.
    "batch id 2**40": (
        "manifest.json",
        "batches[0].id",
        lambda r: mutate(r, "manifest.json", ["batches", 0, "id"], 2**40),
    ),
    "exit code 2**40": (
        FOLDER + "trajectory.json",
        "events[",
        lambda r: mutate(
            r, FOLDER + "trajectory.json", ["events", tool, "result", "exit_code"], 2**40
        ),
    ),
    "status 2**40": (
        FOLDER + "vendor-requests.json",
        "vendors.auth0[0].status",
        lambda r: mutate(
            r, FOLDER + "vendor-requests.json", ["vendors", "auth0", 0, "status"], 2**40
        ),
    ),
    # NUL in text columns (PostgreSQL refuses U+0000 in text).
    "NUL in the bench title": (
        "manifest.json",
        "title",
        lambda r: mutate(r, "manifest.json", ["title"], NUL),
    ),
    "NUL in the revision": (
        "manifest.json",
        "revision",
        lambda r: mutate(r, "manifest.json", ["revision"], NUL),
    ),
    "NUL in a release date": (
        "manifest.json",
        "batches[0].released_at",
        lambda r: mutate(
            r, "manifest.json", ["batches", 0, "released_at"], "2026-11-20T12:00:00Z\x00"
        ),
    ),
    "NUL in a display name": (
        MODEL,
        "model.display_name",
        lambda r: mutate(r, MODEL, ["model", "display_name"], NUL),
    ),
    "NUL in a provider": (
        MODEL,
        "model.provider",
        lambda r: mutate(r, MODEL, ["model", "provider"], NUL),
    ),
    "NUL in a matrix title": (
        "matrix.json",
        "tasks[0].title",
        lambda r: mutate(r, "matrix.json", ["tasks", 0, "title"], NUL),
    ),
    "NUL in a task title": (TASK, "task.title", lambda r: mutate(r, TASK, ["task", "title"], NUL)),
    "NUL in a surface": (TASK, "task.surface", lambda r: mutate(r, TASK, ["task", "surface"], NUL)),
    "NUL in a check name": (
        TASK,
        "checks[0].name",
        lambda r: mutate(r, TASK, ["checks", 0, "name"], NUL),
    ),
    "NUL in a verdict check level": (
        FOLDER + "verdict.json",
        "checks[0].level",
        lambda r: mutate(r, FOLDER + "verdict.json", ["checks", 0, "level"], NUL),
    ),
    "NUL in a harness": (
        FOLDER + "summary.json",
        "harness",
        lambda r: mutate(r, FOLDER + "summary.json", ["harness"], NUL),
    ),
    "NUL in a timestamp": (
        FOLDER + "summary.json",
        "timing.finished_at",
        lambda r: mutate(r, FOLDER + "summary.json", ["timing", "finished_at"], "2026\x00"),
    ),
    "NUL in a tool name": (
        FOLDER + "trajectory.json",
        "events[",
        lambda r: mutate(r, FOLDER + "trajectory.json", ["events", tool, "tool"], NUL),
    ),
    "NUL in a vendor key": (
        FOLDER + "vendor-requests.json",
        "vendors.au",
        lambda r: rename_vendor(r, "au\x00th0"),
    ),
    "NUL in a request id": (
        FOLDER + "vendor-requests.json",
        "vendors.auth0[0].id",
        lambda r: mutate(r, FOLDER + "vendor-requests.json", ["vendors", "auth0", 0, "id"], NUL),
    ),
    "NUL in a flag": (
        FOLDER + "summary.json",
        "flags[0]",
        lambda r: mutate(r, FOLDER + "summary.json", ["flags"], [NUL]),
    ),
    "NUL in a matrix cell's flag": (
        "matrix.json",
        "cells.",
        lambda r: mutate(
            r,
            "matrix.json",
            ["cells", "claude-opus-5-5-high", "currency-rounding-fix", "flags"],
            [NUL],
        ),
    ),
    "NUL in a task's vendors": (
        TASK,
        "task.vendors[0]",
        lambda r: mutate(r, TASK, ["task", "vendors"], [NUL]),
    ),
    "NUL in a leaderboard row's surface": (
        "leaderboard.json",
        "rows[0].by_surface",
        lambda r: mutate(
            r, "leaderboard.json", ["rows", 0, "by_surface"], {NUL: {"score": 0.5, "tasks": 1}}
        ),
    ),
    "NUL in a request method": (
        FOLDER + "vendor-requests.json",
        "vendors.auth0[0].method",
        lambda r: mutate(
            r, FOLDER + "vendor-requests.json", ["vendors", "auth0", 0, "method"], NUL
        ),
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_refused_naming_the_file_and_json_path(case, release_copy):
    expected_file, expected_path, change = CASES[case]
    change(release_copy)
    with open_release(release_copy) as source, pytest.raises(ImportRefused) as refused:
        write_release(source=source)
    problems = refused.value.plan.problems
    named = [p for p in problems if p.file == expected_file and p.path.startswith(expected_path)]
    assert named, [str(p) for p in problems]
    for model in (Bench, Model, Task, Attempt, Event, VendorRequest, Blob):
        assert not model.objects.exists(), model


@pytest.mark.django_db
def test_the_unchanged_release_is_accepted(release_copy):
    # The cases above change one field each of this release, which imports.
    with open_release(release_copy) as source:
        result = write_release(source=source)
    assert result.plan.ok
    assert Attempt.objects.released().count() == result.plan.manifest.counts.attempts


@pytest.mark.django_db
def test_a_nul_in_unknown_fields_is_kept_exactly_on_either_database(release_copy, client):
    for name in ("manifest.json", MODEL, TASK, FOLDER + "summary.json"):
        mutate(release_copy, name, ["x_note"], NUL)
    mutate(release_copy, "leaderboard.json", ["rows", 0, "x_note"], NUL)
    with open_release(release_copy) as source:
        bench = write_release(source=source).bench
    for address in (
        f"/data/v1/{bench.slug}/manifest.json",
        f"/data/v1/{bench.slug}/{MODEL}",
        f"/data/v1/{bench.slug}/{TASK}",
        f"/data/v1/{bench.slug}/{FOLDER}summary.json",
    ):
        response = client.get(address)
        assert response.status_code == 200, address
        assert (
            json.loads(
                b"".join(response.streaming_content) if response.streaming else response.content
            )["x_note"]
            == NUL
        )
    board = json.loads(client.get(f"/data/v1/{bench.slug}/leaderboard.json").content)
    assert NUL in [row.get("x_note") for row in board["rows"]]
