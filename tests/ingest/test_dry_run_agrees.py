"""What a dry run accepts the import accepts: a transcript the normalisers read
is written as they read it, however deep its values nest."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from leaderboard.models import Attempt
from samplegen.release import generate_release
from trajectories.models import Event

pytestmark = pytest.mark.django_db

TINY = {"models": 2, "tasks": 3, "released": 2, "events": 8, "seed": 11}


def nested(levels: int) -> dict:
    value: dict = {"query": "x"}
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.fixture
def release(tmp_path) -> Path:
    root = tmp_path / "release"
    generate_release(root, **TINY)
    return root


def import_release(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("import_release", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("levels", [252, 300, 600])
def test_a_transcript_tool_input_of_many_levels_imports_after_its_dry_run(release, levels):
    folder = sorted((release / "attempts").glob("*/*"))[0]
    lines = [
        {"type": "thread.started", "thread_id": "t"},
        {
            "type": "item.completed",
            "item": {
                "id": "i1",
                "type": "mcp_tool_call",
                "server": "search",
                "tool": "find",
                "arguments": nested(levels),
                "status": "completed",
                "result": {"content": [{"text": "found"}]},
            },
        },
    ]
    (folder / "transcript.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (folder / "trajectory.json").unlink()

    import_release(release, "--dry-run")
    import_release(release)

    attempt = Attempt.objects.get(model__slug=folder.parent.name, task__slug=folder.name)
    (call,) = Event.objects.filter(attempt=attempt, type="tool_call")
    stored = call.as_document()["input"]
    # Kept whole: as the object itself where JSON can be written that deep, else as its text.
    assert (json.loads(stored) if isinstance(stored, str) else stored) == nested(levels)
