"""The normalise_transcript command."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from formats.v1.event_schema import check_events
from tests.formats.normalise.helpers import FIXTURES


def run(*args) -> tuple[dict, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    call_command("normalise_transcript", *map(str, args), stdout=out, stderr=err)
    return json.loads(out.getvalue()), err.getvalue().splitlines()


def test_it_prints_a_trajectory_document_and_the_unmapped_lines_apart():
    path = FIXTURES / "takopi_codex_exec_json_all_formats.jsonl"
    doc, err = run(path)
    assert doc["schema"] == "v1" and doc["harness"] == "codex" and doc["format"] == "codex-exec"
    assert check_events(doc["events"]) == []
    assert len(doc["events"]) == 13
    assert err == [
        f"{path}: line 1: thread start (id in meta; the stream names no model)",
        f"{path}: line 2: turn start",
        f"{path}: line 20: turn end (usage in meta)",
        f"{path}: line 21: turn start",
    ]


def test_format_overrides_detection():
    doc, _ = run(FIXTURES / "takopi_claude_stream_json_session.jsonl", "--format", "codex-exec")
    assert doc["format"] == "codex-exec" and doc["events"] == []


def test_it_reads_an_opencode_storage_folder():
    doc, _ = run(FIXTURES / "agent-sessions_opencode_storage_v2", "--session", "s_stage0_small")
    assert doc["format"] == "opencode-storage" and doc["model"] == "gpt-4o-mini"
    assert [e["type"] for e in doc["events"]] == ["user", "tool_call", "message"]


def test_an_unknown_format_is_a_clear_error():
    with pytest.raises(
        CommandError, match="unknown format 'nope'; known: asciinema, atif, claude-session"
    ):
        run(FIXTURES / "takopi_opencode_run_json.jsonl", "--format", "nope")


def test_an_unreadable_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="missing.jsonl: cannot read it"):
        run(tmp_path / "missing.jsonl")


def test_content_in_no_known_format_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just words\n")
    with pytest.raises(CommandError, match="notes.txt: not a transcript format this site knows"):
        run(path)
