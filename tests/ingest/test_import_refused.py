"""Bad input over a release already imported: a refusal naming the file and JSON
path, and the database exactly as it was.

The small release is imported once for the module (``bench``); each test imports
an edited copy of it, which must be refused, inside its own rolled-back transaction.
"""

from __future__ import annotations

import json

import pytest

from tests.factories import dump, edit_json, failing_import, first_attempt_dir


def refused_leaving_all(release_copy) -> str:
    """Import the edited copy where the release is already imported; it must be
    refused and leave every row as it was."""
    before = dump()
    said = failing_import(release_copy)
    assert dump() == before
    return said


@pytest.mark.django_db
def test_malformed_json_names_the_file_and_writes_nothing(release_copy, bench):
    target = first_attempt_dir(release_copy) / "summary.json"
    target.write_text('{"schema": "v1", ')
    said = refused_leaving_all(release_copy)
    rel = target.relative_to(release_copy).as_posix()
    assert f"{rel}: malformed JSON at line 1" in said


@pytest.mark.django_db
def test_a_wrong_type_names_the_file_and_the_json_path(release_copy, bench):
    verdicts = sorted(release_copy.glob("attempts/*/*/verdict.json"))
    target = next(p for p in verdicts if len(json.loads(p.read_text())["checks"]) > 3)
    edit_json(target, lambda v: v["checks"][3].update(passed="yes"))
    said = refused_leaving_all(release_copy)
    rel = target.relative_to(release_copy).as_posix()
    assert f"{rel}: checks[3].passed: expected a boolean" in said


@pytest.mark.django_db
def test_an_unknown_scoring_rule_is_refused(release_copy, bench):
    edit_json(release_copy / "manifest.json", lambda m: m.update(scoring_rule="vibes-v1"))
    said = refused_leaving_all(release_copy)
    assert "manifest.json: scoring_rule: unknown scoring rule 'vibes-v1'" in said


@pytest.mark.django_db
def test_a_bad_slug_is_refused(release_copy, bench):
    def rename(manifest):
        manifest["tasks"][0] = "Bad Task!"

    edit_json(release_copy / "manifest.json", rename)
    said = refused_leaving_all(release_copy)
    assert "manifest.json: tasks[0]:" in said or "manifest.json: tasks:" in said
    assert "'Bad Task!' is not a valid id" in said


@pytest.mark.django_db
def test_a_missing_required_file_is_named(release_copy, bench):
    # (trajectory.json is optional: transcript.jsonl can stand in for it.)
    target = first_attempt_dir(release_copy) / "summary.json"
    target.unlink()
    said = refused_leaving_all(release_copy)
    assert f"{target.relative_to(release_copy).as_posix()}: required file is missing" in said


@pytest.mark.django_db
def test_an_attempt_for_a_task_not_in_the_manifest_is_refused(release_copy, bench):
    source = first_attempt_dir(release_copy)
    stray = source.parent / "no-such-task"
    stray.mkdir()
    for f in source.iterdir():
        (stray / f.name).write_bytes(f.read_bytes())
    said = refused_leaving_all(release_copy)
    assert (
        f"attempts/{source.parent.name}/no-such-task/: task 'no-such-task' is not in the manifest"
        in said
    )
