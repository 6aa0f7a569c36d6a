"""The SWE-agent ``.traj``, mini-swe-agent and OpenHands history normalisers.

The documents are written here from the formats' documented shapes (SWE-agent's
and mini-swe-agent's own test data and docs; OpenHands' event stream); each
is one JSON document whose ``sources`` are positions in its list of steps.
"""

from __future__ import annotations

import json

import pytest

from formats.normalise import detect, normalise
from formats.tools import tool_family as canonical_tool
from tests.formats.normalise.helpers import check_contract, counts, failed_calls

HOSTILE = "<script>alert(1)</script> caf\u00e9"


def dumps(doc) -> bytes:
    return json.dumps(doc, indent=2).encode()


# SWE-agent .traj ---------------------------------------------------------------


def make_traj(steps=None, **info) -> dict:
    return {
        "environment": "swe_main",
        "trajectory": steps
        if steps is not None
        else [
            step("I will look for the file.", "find_file missing_colon.py", "Found 1 matches"),
            step("Open it.", 'open "tests/missing_colon.py"', "[File: tests/missing_colon.py]"),
            step("Run it.", "python tests/missing_colon.py", "SyntaxError: invalid syntax"),
            step("Fix the colon.", "edit 'a' 'b' False", "Replaced 1 occurrences."),
            step("Done.", "submit", "diff --git a/x b/x"),
        ],
        "history": [
            {"role": "system", "content": "SETTING: an autonomous programmer"},
            {"role": "user", "content": "Fix the SyntaxError " + HOSTILE},
            {"role": "assistant", "content": "later turns are the steps again"},
        ],
        "info": {"submission": "diff --git a/x b/x", "exit_status": "submitted", **info},
        "replay_config": json.dumps({"agent": {"model": {"name": "gpt-4o"}}}),
    }


def step(thought, action, observation, seconds=0.25) -> dict:
    return {
        "thought": thought,
        "action": action,
        "observation": observation,
        "response": thought,
        "execution_time": seconds,
        "state": {"open_file": "n/a"},
    }


def test_a_swe_agent_traj_is_detected_and_gives_a_turn_per_step():
    data = dumps(make_traj())
    assert detect(data) == "swe-agent-traj"
    got = normalise(data)
    check_contract(got, lines=5)
    assert counts(got) == {"system": 1, "user": 1, "message": 5, "tool_call": 5}
    assert got.events[0]["model"] == "gpt-4o"
    assert got.events[1]["text"] == "Fix the SyntaxError " + HOSTILE  # kept as text, never HTML
    calls = [e for e in got.events if e["type"] == "tool_call"]
    assert [c["tool"] for c in calls] == ["find_file", "open", "bash", "edit", "submit"]
    assert calls[2]["input"] == {"command": "python tests/missing_colon.py"}
    assert calls[2]["result"] == {
        "ok": True,
        "output": "SyntaxError: invalid syntax",
        "exit_code": None,
    }
    assert calls[0]["duration_ms"] == 250
    assert got.sources[:4] == [[1], [1], [1], [1]]  # session start and task come from step 1
    assert got.meta["submission"] == "diff --git a/x b/x"
    assert got.meta["problems"] == []


def test_a_traj_that_stopped_on_a_limit_ends_with_an_error_event():
    got = normalise(dumps(make_traj(exit_status="exit_cost")))
    assert got.events[-1]["type"] == "error"
    assert got.events[-1]["text"] == "exit status: exit_cost"
    assert got.sources[-1] == [5]


def test_a_traj_with_a_broken_step_and_an_empty_one_loses_neither():
    steps = [step("t", "ls", "a"), "not a step", {"thought": "", "action": ""}]
    got = normalise(dumps(make_traj(steps)), "swe-agent-traj")
    check_contract(got, lines=3)
    reasons = {u.line: u.reason for u in got.unmapped}
    assert reasons == {2: "not a step object", 3: "step with no thought or action"}
    assert got.meta["problems"] == ["trajectory[1] is not an object"]


def test_a_traj_with_no_steps_gives_no_events():
    got = normalise(dumps(make_traj([])), "swe-agent-traj")
    assert got.events == [] and got.meta["problems"] == ["trajectory is empty"]


# mini-swe-agent ---------------------------------------------------------------


def make_mini(messages=None, **info) -> dict:
    return {
        "info": {
            "model_stats": {"instance_cost": 0.05, "api_calls": 3},
            "config": {"model": {"model_name": "anthropic/claude-sonnet-4-5"}},
            "mini_version": "2.0.0",
            "exit_status": "Submitted",
            "submission": "diff --git a/f b/f",
            **info,
        },
        "messages": messages
        if messages is not None
        else [
            {"role": "system", "content": "You are a helpful assistant. " * 300},
            {"role": "user", "content": "Please solve this issue: " + HOSTILE},
            assistant("THOUGHT: list.\n\n```mswea_bash_command\nls -la\n```", "ls -la", 1.0),
            observation(0, "file1.py\nfile2.py", 2.0),
            assistant("THOUGHT: run.\n\n```mswea_bash_command\npython x.py\n```", "python x.py", 3),
            observation(1, "Traceback", 4.0),
            {"role": "user", "content": "Please always provide EXACTLY ONE action."},
            {"role": "exit", "content": "", "extra": {"exit_status": "Submitted"}},
        ],
        "trajectory_format": "mini-swe-agent-1.1",
    }


def assistant(content, command, ts) -> dict:
    return {
        "role": "assistant",
        "content": content,
        "extra": {
            "actions": [{"command": command}],
            "cost": 0.01,
            "timestamp": 1706000000.0 + ts,
            "response": {"usage": {"prompt_tokens": 100, "completion_tokens": 20}},
        },
    }


def observation(code, output, ts) -> dict:
    return {
        "role": "user",
        "content": f"<returncode>{code}</returncode>\n<output>\n{output}\n</output>",
        "extra": {"returncode": code, "timestamp": 1706000000.0 + ts},
    }


def test_a_mini_swe_agent_trajectory_is_detected_by_its_format_key_at_the_end():
    data = dumps(make_mini())
    assert b'"trajectory_format"' not in data[:4096]  # it is the document's last key
    assert detect(data) == "mini-swe-agent"
    got = normalise(data)
    check_contract(got, lines=8)
    assert counts(got) == {"system": 1, "user": 2, "message": 2, "tool_call": 2}
    assert got.events[0]["model"] == "anthropic/claude-sonnet-4-5"
    calls = [e for e in got.events if e["type"] == "tool_call"]
    assert [(c["tool"], c["input"]) for c in calls] == [
        ("bash", {"command": "ls -la"}),
        ("bash", {"command": "python x.py"}),
    ]
    assert calls[0]["result"] == {"ok": True, "output": "file1.py\nfile2.py", "exit_code": 0}
    assert failed_calls(got) == [("bash", 1)]
    assert got.events[2]["tokens"] == {"input": 100, "output": 20}  # on the turn's first event
    assert got.events[2]["ts"] == "2024-01-23T08:53:21.000Z"
    assert got.sources[3] == [3, 4]  # the call and the observation that answered it
    assert {u.line: u.reason for u in got.unmapped} == {
        8: "exit status Submitted (the submission is in meta)"
    }
    assert got.meta["submission"] == "diff --git a/f b/f"


def test_tool_call_models_pair_results_by_call_id():
    messages = [
        {"role": "system", "content": "s"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "function": {"name": "bash", "arguments": '{"command": "ls"}'}},
                {"id": "c2", "function": {"name": "bash", "arguments": '{"command": "pwd"}'}},
            ],
        },
        {"role": "tool", "tool_call_id": "c2", "content": "/repo", "extra": {"returncode": 0}},
        {"role": "tool", "tool_call_id": "c1", "content": "x", "extra": {"returncode": 2}},
    ]
    got = normalise(dumps(make_mini(messages)), "mini-swe-agent")
    check_contract(got, lines=4)
    calls = {c["call_id"]: c for c in got.events if c["type"] == "tool_call"}
    assert calls["c1"]["input"] == {"command": "ls"}
    assert calls["c1"]["result"]["exit_code"] == 2 and not calls["c1"]["result"]["ok"]
    assert calls["c2"]["result"] == {"ok": True, "output": "/repo", "exit_code": 0}


def test_older_runs_without_parsed_actions_read_the_command_block():
    messages = [
        {"role": "assistant", "content": "THOUGHT\n\n```bash\ncat f\n```"},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nhi\n</output>"},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nstray\n</output>"},
    ]
    got = normalise(dumps(make_mini(messages, exit_status="LimitsExceeded")), "mini-swe-agent")
    check_contract(got, lines=3)
    assert [e["type"] for e in got.events] == ["message", "tool_call", "user"]
    assert got.events[1]["result"]["output"] == "hi"
    assert got.events[2]["observation"] is True  # no call waited for it


def test_a_run_stopped_by_its_limits_ends_with_an_error():
    messages = [{"role": "user", "content": "", "extra": {"exit_status": "LimitsExceeded"}}]
    got = normalise(dumps(make_mini(messages)), "mini-swe-agent")
    assert got.events == [
        {"index": 0, "type": "error", "text": "exit status: LimitsExceeded", "source": "harness"}
    ]


# OpenHands history -------------------------------------------------------------


def make_instance(history=None) -> dict:
    return {
        "instance_id": "django__django-11099",
        "instruction": "Fix it",
        "metadata": {"llm_config": {"model": "litellm_proxy/claude-sonnet-4"}},
        "history": history
        if history is not None
        else [
            {
                "id": 0,
                "timestamp": "2025-05-01T10:00:00.000001",
                "source": "agent",
                "action": "system",
                "args": {"content": "You are OpenHands", "tools": [{}, {}, {}]},
            },
            {
                "id": 1,
                "source": "user",
                "action": "message",
                "message": "Fix it " + HOSTILE,
                "args": {"content": "Fix it " + HOSTILE},
            },
            {"id": 2, "source": "user", "action": "recall", "args": {}},
            {"id": 3, "source": "agent", "observation": "agent_state_changed", "content": ""},
            {
                "id": 4,
                "source": "agent",
                "action": "run",
                "args": {"command": "pytest -x", "thought": "Run the tests."},
                "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1"},
            },
            {
                "id": 5,
                "source": "agent",
                "observation": "run",
                "cause": 4,
                "content": "1 failed",
                "extras": {"command": "pytest -x", "metadata": {"exit_code": 1}},
            },
            {
                "id": 6,
                "source": "agent",
                "action": "edit",
                "args": {"path": "a.py", "command": "str_replace"},
                "tool_call_metadata": {"function_name": "str_replace_editor"},
            },
            {"id": 7, "source": "agent", "observation": "error", "cause": 6, "content": "no"},
            {"id": 8, "source": "agent", "action": "think", "args": {"thought": "Hmm."}},
            {"id": 9, "source": "agent", "observation": "error", "content": "stuck in a loop"},
            {"id": 10, "source": "agent", "action": "finish", "args": {"final_thought": "Done"}},
        ],
        "test_result": {"git_patch": "diff --git a/a.py b/a.py"},
        "metrics": {"accumulated_cost": 0.42},
    }


def test_an_openhands_instance_is_detected_and_pairs_observations_by_cause():
    data = json.dumps(make_instance()).encode()
    assert detect(data) == "openhands-history"
    got = normalise(data)
    check_contract(got, lines=11)
    assert [e["type"] for e in got.events] == [
        "system",
        "user",
        "message",
        "tool_call",
        "tool_call",
        "reasoning",
        "error",
        "message",
    ]
    assert got.events[0]["tool_count"] == 3
    assert got.events[0]["ts"] == "2025-05-01T10:00:00.000001Z"
    run, edit = got.events[3], got.events[4]
    assert run["tool"] == "execute_bash" and canonical_tool(run["tool"]) == "bash"
    assert run["result"] == {"ok": False, "output": "1 failed", "exit_code": 1}
    assert got.sources[3] == [5, 6]
    assert edit["result"]["ok"] is False and canonical_tool(edit["tool"]) == "edit"
    assert {u.line: u.reason for u in got.unmapped} == {
        3: "bookkeeping (recall)",
        4: "bookkeeping (agent_state_changed)",
    }
    assert got.meta["metrics"] == {"accumulated_cost": 0.42}


def test_old_openhands_histories_of_pairs_and_bare_lists_are_read():
    pairs = [
        [
            {"source": "agent", "action": "run", "args": {"command": "ls"}},
            {"source": "agent", "observation": "run", "content": "a", "extras": {"exit_code": 0}},
        ],
        [{"source": "agent", "action": "finish", "args": {}}, {"observation": "null"}],
    ]
    got = normalise(json.dumps(make_instance(pairs)).encode(), "openhands-history")
    check_contract(got, lines=2)
    assert got.events[0]["result"] == {"ok": True, "output": "a", "exit_code": 0}
    bare = json.dumps(make_instance()["history"]).encode()
    assert detect(bare) == "openhands-history"
    assert counts(normalise(bare))["tool_call"] == 2


@pytest.mark.parametrize("fmt", ["swe-agent-traj", "mini-swe-agent", "openhands-history"])
def test_json_of_another_shape_gives_no_events_and_every_line_unmapped(fmt):
    data = b'{\n  "steps": [],\n  "x": 1\n}\n'
    got = normalise(data, fmt)
    check_contract(got, data)
    assert got.events == [] and got.meta["problems"]


def test_the_three_formats_tool_spellings_are_in_the_one_table():
    assert canonical_tool("str_replace_editor") == "edit"
    assert canonical_tool("find_file") == "search"
    assert canonical_tool("search_dir") == "search"
    assert canonical_tool("open") == "read"
    assert canonical_tool("create") == "write"
    assert canonical_tool("execute_bash") == "bash"
    assert canonical_tool("execute_ipython_cell") == "python"
