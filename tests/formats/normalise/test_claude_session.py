"""Claude Code session files: the tree walk, meta lines, compaction (§1.3, §1.4)."""

from __future__ import annotations

import json

from formats.normalise import detect, normalise
from tests.formats.normalise.helpers import check_contract, jsonl


def link(uuid, parent, kind="user", content="hi", **extra) -> str:
    role = "assistant" if kind == "assistant" else "user"
    if isinstance(content, str) and kind == "assistant":
        content = [{"type": "text", "text": content}]
    obj = {
        "type": kind,
        "uuid": uuid,
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": "s1",
        "message": {"role": role, "content": content},
        **extra,
    }
    return json.dumps(obj)


def run(*lines):
    data = jsonl(*lines)
    assert detect(data) == "claude-session"
    result = normalise(data)
    check_contract(result, data)
    return result


def test_a_rewind_leaves_the_old_branch_out():
    result = run(
        link("u1", None, content="do it"),
        link("a1", "u1", "assistant", "first try"),
        link("u2", "a1", content="no, other way"),  # abandoned by the rewind
        link("a2", "u1", "assistant", "second try"),  # newest leaf branches from u1
    )
    kept = [(e["type"], e["text"]) for e in result.events]
    assert kept == [("user", "do it"), ("message", "second try")]
    assert [(u.line, u.reason) for u in result.unmapped] == [
        (2, "on an abandoned branch (rewind or retry)"),
        (3, "on an abandoned branch (rewind or retry)"),
    ]


def test_the_newest_leaf_that_is_not_a_sidechain_is_the_one_walked():
    result = run(
        link("u1", None, content="main"),
        link("a1", "u1", "assistant", "main answer"),
        link("s1", "u1", "assistant", "sidechain", isSidechain=True, agentId="ag1"),
    )
    assert [e["text"] for e in result.events] == ["main", "main answer"]
    assert result.unmapped[0].line == 3


def test_meta_lines_and_command_wrappers_are_not_user_turns():
    result = run(
        link("u1", None, content="<command-name>/clear</command-name>"),
        link("u2", "u1", content="Caveat: the messages below were generated", isMeta=True),
        link("u3", "u2", content="<local-command-stdout></local-command-stdout>"),
        link("u4", "u3", content="the real prompt"),
    )
    assert [e["text"] for e in result.events] == ["the real prompt"]
    assert [u.reason for u in result.unmapped] == [
        "slash-command wrapper, not a user turn",
        "meta message (harness context, not a user turn)",
        "slash-command wrapper, not a user turn",
    ]


def test_the_walk_steps_over_a_compact_boundary_and_drops_the_summary():
    boundary = {
        "type": "system",
        "subtype": "compact_boundary",
        "uuid": "c1",
        "parentUuid": None,
        "logicalParentUuid": "a1",
        "sessionId": "s1",
    }
    result = run(
        link("u1", None, content="before"),
        link("a1", "u1", "assistant", "worked"),
        json.dumps(boundary),
        link("u2", "c1", content="This session is being continued…", isCompactSummary=True),
        link("a2", "u2", "assistant", "after"),
    )
    assert [e["text"] for e in result.events] == ["before", "worked", "after"]
    assert [u.reason for u in result.unmapped] == [
        "system notice (compact_boundary)",
        "compaction summary (replaces earlier context, not a user turn)",
    ]


def test_tool_use_result_gives_the_exit_code_and_results_pair_by_id():
    call = [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]
    answer = [{"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": True}]
    result = run(
        link("a1", None, "assistant", call, timestamp="2026-01-01T00:00:00Z"),
        link(
            "u1",
            "a1",
            content=answer,
            toolUseResult={"exit_code": 2},
            timestamp="2026-01-01T00:00:03Z",
        ),
    )
    assert result.events[0]["result"] == {"ok": False, "output": "boom", "exit_code": 2}
    assert result.events[0]["duration_ms"] == 3000


def test_api_errors_are_provider_errors():
    error = {
        "type": "system",
        "subtype": "api_error",
        "uuid": "e1",
        "parentUuid": "u1",
        "sessionId": "s1",
        "error": {"message": "overloaded"},
        "retryInMs": 500,
    }
    result = run(link("u1", None, content="go"), json.dumps(error))
    assert result.events[1] == {
        "index": 1,
        "type": "error",
        "source": "provider",
        "text": "overloaded",
    }


def test_a_cycle_in_parent_uuids_ends_the_walk():
    result = run(link("u1", "u2", content="one"), link("u2", "u1", content="two"))
    # No leaf (each is the other's parent): the lines are taken in file order.
    assert [e["text"] for e in result.events] == ["one", "two"]


def test_a_session_folder_brings_its_subagent_files_after_it(tmp_path):
    from formats.normalise.claude_session import normalise_session_folder

    call = [{"type": "tool_use", "id": "t1", "name": "Task", "input": {"prompt": "look"}}]
    answer = [{"type": "tool_result", "tool_use_id": "t1", "content": "seen"}]
    main = tmp_path / "s1.jsonl"
    main.write_bytes(
        jsonl(
            link("u1", None, content="go"),
            link("a1", "u1", "assistant", call),
            link("u2", "a1", content=answer),
        )
    )
    (tmp_path / "s1" / "subagents").mkdir(parents=True)
    (tmp_path / "s1" / "subagents" / "agent-ab12.jsonl").write_bytes(
        jsonl(
            '{"type": "queue-operation", "operation": "enqueue", "sessionId": "s1"}',
            link("x1", None, content="look", isSidechain=True, agentId="ab12"),
            link("x2", "x1", "assistant", "found it", isSidechain=True, agentId="ab12"),
        )
    )
    (tmp_path / "agent-old.jsonl").write_bytes(
        jsonl(
            link("y1", None, content="other session", sessionId="s9", isSidechain=True),
        )
    )
    result = normalise_session_folder(main)
    check_contract(result, lines=6)
    assert [(e["type"], e.get("subagent")) for e in result.events] == [
        ("user", None),
        ("tool_call", None),
        ("user", "ab12"),
        ("message", "ab12"),
    ]
    assert result.sources[2:] == [[5], [6]]
    assert result.meta["files"] == [
        {"path": "s1.jsonl", "first_line": 1},
        {"path": "s1/subagents/agent-ab12.jsonl", "first_line": 4},
    ]
