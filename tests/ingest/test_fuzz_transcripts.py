"""Property: any one-field mutation of a transcript is read, imported or refused by name.

Seeds are real captures of every format a normaliser reads (and a short Codex
legacy log). Per example one field of one line (of the document, for ATIF and Inspect samples) is
replaced by a hostile value, raw JSON text or nothing, as the release fuzzer
does (tests/ingest/test_fuzz_release.py, whose values this reuses), then:

- every normaliser: no exception; valid v1 events that JSON can write back,
  every line accounted for;
- a release whose attempt has that transcript and no trajectory.json: the dry
  run and the import agree, and a refusal names that attempt's own file;
- a Harbor job whose one trial has it as its ATIF or its raw agent log: the
  dry run and the import agree, nothing fails with a traceback, a refusal
  names the trial.

Examples are bounded by the profile (``HYPOTHESIS_PROFILE``): "bounded" for
the suite (derandomized, so the same examples every run), "long" for
``make fuzz``.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import orjson
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import event, given, note
from hypothesis import settings as profiles
from hypothesis import strategies as st

from formats.normalise import NORMALISERS, detect, normalise
from formats.reader import open_release
from ingest.models import ImportRecord
from ingest.reading.plan import build_plan
from ingest.writing.services import ImportRefused, write_release
from leaderboard.models import Attempt
from samplegen.release import generate_release
from tests.formats.normalise.helpers import (
    DOCUMENT_FORMATS,
    check_contract,
    check_document_contract,
    numbers_items,
)
from tests.formats.normalise.test_swe_agents import make_instance, make_traj
from tests.ingest.harbor_trials import job, trial
from tests.ingest.test_fuzz_release import HOSTILE_JSON, HOSTILE_RAW, PROFILE, mutated_json

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
LEGACY = [
    {"model": "o3", "sandbox": "read-only", "workdir": "/app"},
    {"id": "1", "msg": {"type": "agent_reasoning", "text": "look first"}},
    {"id": "1", "msg": {"type": "exec_command_begin", "call_id": "c1", "command": ["ls"]}},
    {"id": "1", "msg": {"type": "exec_command_end", "call_id": "c1", "exit_code": 0,
                        "stdout": "a\n", "stderr": "", "duration": {"secs": 1, "nanos": 5}}},
    {"id": "1", "msg": {"type": "token_count", "input_tokens": 10, "output_tokens": 2}},
    {"id": "1", "msg": {"type": "agent_message", "message": "done"}},
]  # fmt: skip
LINES_MAX = 40  # lines of a seed a mutation may touch
_READ = re.compile(
    r"(^|_)id$|Id$|uuid|Uuid|usage|tokens|metrics|duration|time|start|end|exit|input|arguments"
)


def _seeds() -> dict[str, list[bytes]]:
    """Format name -> captures in it (every registered format has one)."""
    found: dict[str, list[bytes]] = {}
    captures = [*sorted((FIXTURES / "transcripts").glob("*.jsonl"))]
    captures += sorted((FIXTURES / "harbor").glob("*.json"))
    for path in captures:
        data = path.read_bytes()
        fmt = detect(data)
        if fmt is not None:
            found.setdefault(fmt, []).append(data)
    found["codex-legacy"] = [b"".join(orjson.dumps(x) + b"\n" for x in LEGACY)]
    # SWE-agent and OpenHands documents: the normaliser tests' own, hostile text included.
    found.setdefault("swe-agent-traj", []).append(orjson.dumps(make_traj()))
    found.setdefault("openhands-history", []).append(orjson.dumps(make_instance()))
    return found


SEEDS = _seeds()
LINE_FORMATS = sorted(f for f in SEEDS if f not in DOCUMENT_FORMATS)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value[:3]):
            yield from _paths(child, (*prefix, i))


def _mutate(doc, path: tuple, kind: str, value) -> bytes:
    if not path:
        text = value if kind == "raw" else json.dumps(value)  # a whole line replaced
        return text.encode("utf-8", "surrogatepass")
    return mutated_json(doc, path, kind, value)


@st.composite
def transcripts(draw, formats: list[str] | None = None) -> tuple[str, bytes]:
    """(format, a seed of it with one field of one line changed)."""
    fmt = draw(st.sampled_from(formats or sorted(SEEDS)))
    seed = draw(st.sampled_from(SEEDS[fmt]))
    lines = [seed] if fmt in DOCUMENT_FORMATS else seed.split(b"\n")
    number = draw(st.integers(0, min(len(lines), LINES_MAX) - 1))
    try:
        doc = json.loads(lines[number])
    except ValueError:
        return fmt, seed  # a line that is no JSON (noise in the capture): left as it is
    paths = list(_paths(doc))
    # Half the time a field a normaliser reads rather than passes on: ids it
    # pairs by, usage it sums, times it subtracts, inputs it keeps.
    read = [p for p in paths if p and isinstance(p[-1], str) and _READ.search(p[-1])]
    path = draw(st.sampled_from(read if read and draw(st.booleans()) else paths))
    kind = draw(st.sampled_from(["value", "value", "raw", "raw", "delete"]))
    value = draw(HOSTILE_JSON) if kind == "value" else draw(HOSTILE_RAW) if kind == "raw" else None
    if kind == "delete" and not path:
        kind = "value"
    note(f"{fmt} line {number + 1} {path!r}: {kind} {value!r:.200}")
    lines[number] = _mutate(doc, path, kind, value)
    return fmt, lines[0] if fmt in DOCUMENT_FORMATS else b"\n".join(lines)


def _scaled(examples: int) -> profiles:
    long = PROFILE.max_examples > 100
    return profiles(PROFILE, max_examples=examples * 20 if long else examples)


def test_every_normaliser_reads_any_one_field_mutation_into_events_json_can_write():
    @_scaled(200)
    @given(case=transcripts())
    def check(case):
        fmt, data = case
        # What detection gives (the import's way) and the format forced (the command's).
        for name in {fmt, detect(data)} - {None}:
            result = normalise(data, name)
            if numbers_items(name, result):
                check_document_contract(result)
            elif name not in DOCUMENT_FORMATS:
                check_contract(result, data)
            else:
                assert check_events_ok(result.events)
            orjson.dumps({"events": result.events})

    check()


def check_events_ok(events) -> bool:
    from formats.v1.event_schema import check_events

    return check_events(events) == []


# --------------------------------------------------------------------- the release import

TINY = {"models": 2, "tasks": 3, "released": 2, "events": 6, "seed": 5}


@pytest.fixture(scope="module")
def tiny_release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz-transcripts") / "release"
    generate_release(root, **TINY)
    return root


@pytest.mark.django_db
def test_a_release_with_a_mutated_transcript_imports_as_its_dry_run_said_or_names_it(
    tiny_release, tmp_path, client
):
    counter = iter(range(10**9))

    @_scaled(20)
    @given(case=transcripts(LINE_FORMATS))
    def check(case):
        _, data = case
        root = tmp_path / f"case-{next(counter)}"
        shutil.copytree(tiny_release, root)
        folder = sorted((root / "attempts").glob("*/*"))[0]
        own = folder.relative_to(root).as_posix()
        (folder / "transcript.jsonl").write_bytes(data)
        (folder / "trajectory.json").unlink()
        with open_release(root) as source:
            dry = build_plan(source)
        with transaction.atomic():
            try:
                with open_release(root) as source:
                    write_release(source=source)
            except ImportRefused as refused:
                event("refused")
                problems = refused.plan.problems if refused.plan else []
                assert not dry.ok, f"the dry run passed, the import refused: {problems}"
                assert problems and all(p.file.startswith(own + "/") for p in problems), [
                    str(p) for p in problems
                ]
                assert any("transcript.jsonl" in str(p) for p in problems)
            else:
                event("imported")
                assert dry.ok, f"the dry run refused what imports: {dry.problems}"
                attempt = Attempt.objects.get(
                    model__slug=folder.parent.name, task__slug=folder.name
                )
                assert client.get(attempt_url(attempt)).status_code == 200
            transaction.set_rollback(True)
        shutil.rmtree(root)

    check()


def attempt_url(attempt: Attempt) -> str:
    return f"/{attempt.bench.slug}/attempts/{attempt.model.slug}/{attempt.task.slug}/"


# ---------------------------------------------------------------------- the Harbor adapter


def harbor(root: Path, *, dry_run: bool) -> str:
    """'' when it imports, else the refusal's message."""
    try:
        call_command(
            # Scrubbed: the captures name their authors' home folders.
            "import_harbor", str(root), bench="hb", dry_run=dry_run, scrub=True,
            stdout=io.StringIO(), stderr=io.StringIO(),
        )  # fmt: skip
    except CommandError as exc:
        return str(exc) or "refused"
    return ""


@pytest.mark.django_db
def test_a_harbor_trial_with_a_mutated_trajectory_imports_as_its_dry_run_said(tmp_path):
    counter = iter(range(10**9))

    @_scaled(40)
    @given(case=transcripts())
    def check(case):
        fmt, data = case
        root = tmp_path / f"case-{next(counter)}"
        if fmt == "atif":
            folder = trial(job(root), "t1", trajectory=data)
        else:
            folder = trial(job(root), "t1", raw_log=data)
        with transaction.atomic():
            dry = harbor(root, dry_run=True)
            real = harbor(root, dry_run=False)
            failed = list(ImportRecord.objects.filter(outcome="failed").values_list("message"))
            assert not failed, f"an unexpected error (a traceback in the log): {failed}"
            assert bool(dry) == bool(real), f"dry run: {dry or 'ok'}; import: {real or 'ok'}"
            if real:
                event("refused")
                assert folder.name in real, real
            else:
                event("imported")
                assert Attempt.objects.filter(task__slug="t1").exists()
            transaction.set_rollback(True)
        shutil.rmtree(root)

    check()


def test_every_registered_format_has_a_seed():
    assert set(SEEDS) == set(NORMALISERS)
