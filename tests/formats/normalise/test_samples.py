"""Every public sample normalises to what reading the file by hand says it holds.

The expected figures were written from reading each file line by line (see
the comments), not from running the normalisers.
"""

from __future__ import annotations

import pytest

from formats.normalise import detect, normalise
from formats.normalise.opencode_storage import normalise_storage
from tests.formats.normalise.helpers import (
    FIXTURES,
    check_contract,
    check_document_contract,
    counts,
    failed_calls,
    numbers_items,
    unanswered,
)

SAMPLES = {
    # Written for these tests (SOURCES.md): header and prompt (the system
    # event), then five runs of keystrokes: clear, ls, chmod typed in two
    # chunks, Ctrl-C, Ctrl-D. The marker (line 14) and the resize (16) give none.
    "benchview_asciinema_tmux_session.jsonl": {
        "format": "asciinema",
        "counts": {"system": 1, "tool_call": 5},
        "failed": [],
        "unanswered": [],
        "unmapped": 2,
    },
    # init, prompt, text+Bash+Write in one line, two results, text, result,
    # a second session's init and its error_during_execution result.
    "takopi_claude_stream_json_session.jsonl": {
        "format": "claude-stream-json",
        "counts": {"system": 2, "user": 1, "message": 2, "tool_call": 2, "error": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 1,  # line 7, the first (successful) result
    },
    # 2 queue-operations, prompt, 3 attachments, Write call, its result, text, last-prompt.
    "harbor_hello-load-native-trajectory_session_d7d4e19e.jsonl": {
        "format": "claude-session",
        "counts": {"user": 1, "tool_call": 1, "message": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 6,
    },
    # Trimmed uuids repeat, so lines are taken in file order. users: 7, 49,
    # 60, 62, 63, 87; reasoning: 8, 29, 55, 65, 77, 78; text: 8, 18, 19, 29, 47,
    # 55; tool_use: 8 (no id), 29 (answered by 30), 55 (trimmed id, never
    # answered); errors: api_refusal 20, system error 31, api_error 48, 56,
    # 58, 74. 22 lines give events, the other 67 are bookkeeping.
    "agent-sessions_claude_session_schema_catalog_small.jsonl": {
        "format": "claude-session",
        "counts": {"user": 6, "reasoning": 6, "message": 6, "tool_call": 3, "error": 6},
        "failed": [],
        "unanswered": ["bash", "[trimmed for fixture]"],
        "unmapped": 67,
    },
    # todo_list, 2 commands (second exit 1), 2 file_changes (second failed),
    # 2 MCP calls (second errors), web_search, reasoning, message, error item,
    # turn.failed and a top-level error; thread/turn start and end unmapped.
    "takopi_codex_exec_json_all_formats.jsonl": {
        "format": "codex-exec",
        "counts": {"tool_call": 8, "reasoning": 1, "message": 1, "error": 3},
        "failed": [("shell", 1), ("apply_patch", None), ("github.search_issues", None)],
        "unanswered": [],
        "unmapped": 4,
    },
    # Two phased messages, a collab spawn_agent, an unknown future item.
    "takopi_codex_exec_json_phase_and_unknown.jsonl": {
        "format": "codex-exec",
        "counts": {"message": 2, "tool_call": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 4,  # thread.started, turn.started, future_item, turn.completed
    },
    # Calls: custom shell (9→21), function shell (10→11), tool_search (12→13),
    # web_search (14), tool_search (43, trimmed id, completed by the trimmed
    # end events 52-58, 90, 95), image_generation (49, trimmed status: not
    # ok), custom (103→105), function (114→115). user 6, reasoning 7
    # (39 has none), assistant 23 and agent_message 33, 116; errors
    # turn_aborted 20 and error 73. 27 lines give events, 91 do not.
    "agent-sessions_codex_rollout_schema_catalog_small.jsonl": {
        "format": "codex-rollout",
        "counts": {"user": 1, "reasoning": 1, "tool_call": 8, "error": 2, "message": 3},
        "failed": [("image_generation", None)],
        "unanswered": [],
        "unmapped": 91,
    },
    # step_start, bash (exitCode 0), text, step_finish, APIError.
    "takopi_opencode_run_json.jsonl": {
        "format": "opencode-run",
        "counts": {"tool_call": 1, "message": 1, "error": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 1,
    },
    "takopi_opencode_stream_error.jsonl": {
        "format": "opencode-run",
        "counts": {"error": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 1,
    },
    # Two steps: bash (exit 0) then text; both step_starts unmapped.
    "takopi_opencode_stream_success.jsonl": {
        "format": "opencode-run",
        "counts": {"tool_call": 1, "message": 1},
        "failed": [],
        "unanswered": [],
        "unmapped": 2,
    },
    # Written by this project (SOURCES.md): system, prompt, seven turns (each a
    # reasoning part and a call; turns 0, 2, 4 and 6 with text too), the call of
    # turn 5 timing out, an error event and the message limit (sourced to the last
    # item, the score event); the sample_init and state events are bookkeeping.
    # Items, not lines: messages, then events.
    "benchview_inspect_sample_hand_written.jsonl": {
        "format": "inspect-sample",
        "counts": {
            "system": 1,
            "user": 1,
            "reasoning": 7,
            "message": 4,
            "tool_call": 7,
            "error": 2,
        },
        "failed": [("python", None)],
        "unanswered": [],
        "unmapped": 2,
    },
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_sample_gives_the_events_read_from_the_file(name):
    expected = SAMPLES[name]
    data = (FIXTURES / name).read_bytes()
    assert detect(data) == expected["format"]
    result = normalise(data)
    if numbers_items(expected["format"], result):
        check_document_contract(result)
    else:
        check_contract(result, data)
    assert counts(result) == expected["counts"]
    assert failed_calls(result) == expected["failed"]
    assert unanswered(result) == expected["unanswered"]
    assert len(result.unmapped) == expected["unmapped"]


def test_every_fixture_file_has_its_expectations():
    names = {p.name for p in FIXTURES.glob("*.jsonl")}
    assert names == set(SAMPLES)


def test_the_claude_stream_sample_in_detail():
    result = normalise((FIXTURES / "takopi_claude_stream_json_session.jsonl").read_bytes())
    system, second = (e for e in result.events if e["type"] == "system")
    assert system["model"] == "claude-sonnet-4-5-20250929"
    assert system["tool_count"] == 7 and second["tool_count"] == 3
    assert system["cwd"] == "/home/alex/demo-project"
    bash, write = (e for e in result.events if e["type"] == "tool_call")
    assert bash["tool"] == "Bash" and bash["input"]["command"] == "ls"
    assert bash["result"] == {
        "ok": True,
        "output": "README.md\npyproject.toml\nsrc/\n",
        "exit_code": 0,
    }
    assert write["result"] == {"ok": True, "output": "ok", "exit_code": None}
    # Line 3 holds the text and both calls; each result is a later line.
    assert result.sources[bash["index"]] == [3, 4]
    assert result.sources[write["index"]] == [3, 5]
    error = result.events[-1]
    assert error["type"] == "error" and error["source"] == "harness"
    assert error["text"] == "Permission denied: cannot write to /root/secret.txt"
    assert result.meta["complete"] is True


def test_the_session_sample_walks_its_chain():
    result = normalise(
        (FIXTURES / "harbor_hello-load-native-trajectory_session_d7d4e19e.jsonl").read_bytes()
    )
    user, call, message = result.events
    assert user["text"].startswith("Create a file called hello.txt")
    assert call["tool"] == "Write" and call["result"]["ok"] is True
    assert call["result"]["output"].startswith("File created successfully at: /app/hello.txt")
    assert result.sources == [[3], [7, 8], [9]]
    assert result.meta["walk"] == "tree from the newest leaf"
    assert result.meta["session_id"] == "d7d4e19e-608d-44ef-b166-cd050ef274ba"


def test_the_session_catalog_keeps_sidechain_lines_marked():
    result = normalise(
        (FIXTURES / "agent-sessions_claude_session_schema_catalog_small.jsonl").read_bytes()
    )
    assert result.meta["walk"].startswith("file order")
    first = result.events[0]
    assert first == {
        "index": 0,
        "type": "user",
        "ts": "2025-12-16T00:00:01.000Z",
        "text": "Hello",
        "subagent": "sidechain",
    }
    # Line 30 answers line 29's Bash call; an ok Bash result exited 0.
    bash = next(e for e in result.events if e["type"] == "tool_call" and e["tool"] == "Bash")
    assert bash["result"] == {"ok": True, "output": "a.txt\nb.txt\n", "exit_code": 0}
    assert result.sources[bash["index"]] == [29, 30]
    sources = [e["source"] for e in result.events if e["type"] == "error"]
    assert sources == ["provider", "harness", "provider", "provider", "provider", "provider"]
    # "[trimmed for fixture]" is no timestamp: such events have none.
    assert all("ts" not in e for e in result.events[-3:])


def test_the_codex_exec_sample_in_detail():
    result = normalise((FIXTURES / "takopi_codex_exec_json_all_formats.jsonl").read_bytes())
    todo = result.events[0]
    assert todo["tool"] == "todo_list"
    assert result.sources[0] == [3, 4, 5]  # started, updated, completed: one event
    assert todo["result"]["output"] == (
        "[x] Inspect repo structure\n[x] Run tests\n[x] Fix failing tests"
    )
    failing = result.events[2]
    assert failing["result"] == {"ok": False, "output": "....F\n", "exit_code": 1}
    assert result.events[6]["result"]["output"] == "tool timeout"
    kinds = [(e["type"], e.get("source")) for e in result.events if e["type"] == "error"]
    assert kinds == [("error", "harness"), ("error", "provider"), ("error", "provider")]
    assert result.meta["tokens"] == {"input": 1840, "cache_read": 256, "output": 732}


def test_the_rollout_sample_pairs_calls_by_call_id():
    result = normalise(
        (FIXTURES / "agent-sessions_codex_rollout_schema_catalog_small.jsonl").read_bytes()
    )
    calls = [e for e in result.events if e["type"] == "tool_call"]
    custom, function = calls[0], calls[1]
    assert custom["tool"] == "shell" and custom["input"] == {"command": ["ls"]}
    assert result.sources[custom["index"]] == [9, 21]
    assert custom["result"]["output"] == "a.txt\nb.txt\n"
    assert result.sources[function["index"]] == [10, 11]
    assert function["result"]["output"] == "a.txt\n"
    assert result.events[0] == {
        "index": 0,
        "type": "user",
        "ts": "2026-08-03T10:48:56.000Z",
        "text": "List the files\n[image]",
    }
    assert result.meta["session_id"]


def test_the_opencode_samples_carry_time_tokens_and_exit_codes():
    run = normalise((FIXTURES / "takopi_opencode_run_json.jsonl").read_bytes())
    bash, text, error = run.events
    assert bash["tool"] == "bash" and bash["result"]["exit_code"] == 0
    assert bash["ts"] == "2026-01-03T12:56:40.200Z" and bash["duration_ms"] == 150
    assert text["tokens"] == {"input": 534, "output": 128}  # the step's last event
    assert run.sources[text["index"]] == [3, 4]
    assert error["source"] == "provider"
    assert error["text"] == "Upstream timeout while calling provider"
    success = normalise((FIXTURES / "takopi_opencode_stream_success.jsonl").read_bytes())
    assert [e.get("tokens") for e in success.events] == [
        {"input": 21772, "output": 110},
        {"input": 671, "output": 8},
    ]


STORAGE = FIXTURES / "agent-sessions_opencode_storage_v2"


def test_the_storage_folder_reads_the_last_updated_session():
    result = normalise_storage(STORAGE)
    # session, msg 1, "Step 1", msg 2 (aborted: MessageAbortedError), bash
    # (exit 1), text, file, reasoning, step-start, step-finish, compaction,
    # patch, msg 3, "Step 2", msg 4, "Ok".
    check_contract(result, lines=16)
    assert result.meta["session_id"] == "s_stage0_large"
    assert counts(result) == {"user": 2, "error": 1, "tool_call": 1, "message": 2, "reasoning": 1}
    assert failed_calls(result) == [("bash", 1)]
    assert [u.line for u in result.unmapped] == [1, 2, 7, 9, 11, 12, 13, 15]
    error = result.events[1]
    assert error["source"] == "harness" and error["text"] == "The operation was aborted."
    assert result.sources[1] == [4]
    reasoning = next(e for e in result.events if e["type"] == "reasoning")
    assert reasoning["tokens"] == {"input": 120, "output": 16}
    assert result.meta["files"][4] == "part/m_assistant_large_1/001.json"  # line 5


def test_the_storage_folder_reads_a_named_session():
    result = normalise_storage(STORAGE, "s_stage0_small")
    check_contract(result, lines=6)
    assert [e["type"] for e in result.events] == ["user", "tool_call", "message"]
    assert result.events[1]["result"] == {"ok": True, "output": "a.txt\nb.txt\n", "exit_code": 0}
    assert result.meta["model"] == "gpt-4o-mini"


def test_the_storage_folder_of_an_unknown_session_is_empty():
    result = normalise_storage(STORAGE, "ses_nope")
    assert result.events == [] and result.meta["files"] == []
