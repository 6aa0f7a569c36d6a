"""A deterministic synthetic SWE-bench experiments split, for the demo and the tests.

Three submissions (``evaluation/verified/<date>_<system>/``) on the same
instances, one per trajectory format the site reads: SWE-agent ``.traj``
files with ``results/results.json``, ``logs/<id>/report.json`` and
``all_preds.jsonl``; mini-swe-agent trajectories with
``evaluation_details.jsonl``; OpenHands' ``output.jsonl`` with
``evaluation_details.jsonl`` and a README that publishes its resolved rate.
Two of them share a display name, as real submissions do. The same
arguments give the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPOS = ("astropy__astropy", "django__django", "sympy__sympy", "pylint-dev__pylint")
# folder, display name, models, org, open model, open system, checked, resolved every n-th
SYSTEMS = (
    ("20250601_sweagent_gpt6", "SWE-agent", ["gpt-6-astra"], "SWE-agent", False, True, True, 2),
    (
        "20250715_mini_devstral3",
        "mini-SWE-agent",
        ["devstral-3"],
        "Mistral AI",
        True,
        True,
        False,
        3,
    ),
    (
        "20250802_openhands_sonnet45",
        "SWE-agent",
        ["claude-sonnet-4-5"],
        "OpenHands",
        False,
        True,
        True,
        4,
    ),
)


def instances(count: int) -> list[str]:
    return [f"{REPOS[i % len(REPOS)]}-{1000 + 37 * i}" for i in range(count)]


def _metadata(name: str, models: list[str], org: str, om: bool, osys: bool, checked: bool) -> str:
    lines = [
        "info:",
        f"  name: {name}",
        f"  site: https://example.org/{name.lower()}",
        "tags:",
        f"  checked: {str(checked).lower()}",
        "  model:",
        *(f"  - {m}" for m in models),
        f"  org: {org}",
        f"  os_model: {str(om).lower()}",
        f"  os_system: {str(osys).lower()}",
        "  system:",
        "    attempts: '1'",
    ]
    return "\n".join(lines) + "\n"


def _patch(ident: str) -> str:
    path = ident.split("__")[1].split("-")[0]
    return (
        f"diff --git a/{path}/core.py b/{path}/core.py\n--- a/{path}/core.py\n"
        f"+++ b/{path}/core.py\n@@ -1,2 +1,2 @@\n def run():\n-    return None\n"
        f"+    return '{ident}'\n"
    )


def _tests(ident: str, resolved: bool) -> dict[str, Any]:
    new = [f"tests/test_{ident.split('-')[-1]}.py::test_feature"]
    keep = [f"tests/test_core.py::test_keeps[{n}]" for n in range(3)]
    return {
        "FAIL_TO_PASS": {"success": new if resolved else [], "failure": [] if resolved else new},
        "PASS_TO_PASS": {"success": keep, "failure": []},
    }


def _swe_agent(ident: str, resolved: bool) -> dict[str, Any]:
    steps = [
        ("Find the module.", "find_file core.py", "Found 1 matches for core.py"),
        ("Open it.", "open core.py", "[File: core.py (2 lines total)]"),
        ("Fix the return.", "edit 2:2\n    return 'x'\nend_of_edit", "File updated."),
        ("Run the tests.", "python -m pytest -q", "1 passed" if resolved else "1 failed"),
        ("Submit.", "submit", _patch(ident)),
    ]
    return {
        "environment": "swe_main",
        "trajectory": [
            {"thought": t, "action": a, "observation": o, "response": t, "execution_time": 0.5}
            for t, a, o in steps
        ],
        "history": [
            {"role": "system", "content": "You are an autonomous programmer."},
            {"role": "user", "content": f"Solve the issue of {ident}: run() returns None."},
        ],
        "info": {
            "submission": _patch(ident),
            "exit_status": "submitted",
            "model_stats": {"instance_cost": 0.42, "tokens_sent": 21000, "tokens_received": 900},
        },
        "replay_config": json.dumps({"agent": {"model": {"name": "gpt-6-astra"}}}),
    }


def _mini(ident: str, resolved: bool) -> dict[str, Any]:
    def said(text: str, command: str, t: float) -> dict[str, Any]:
        block = f"THOUGHT: {text}\n\n```mswea_bash_command\n{command}\n```"
        return {
            "role": "assistant",
            "content": block,
            "extra": {"actions": [{"command": command}], "timestamp": t},
        }

    def seen(code: int, output: str, t: float) -> dict[str, Any]:
        return {
            "role": "user",
            "content": f"<returncode>{code}</returncode>\n<output>\n{output}\n</output>",
            "extra": {"returncode": code, "timestamp": t},
        }

    start = 1752537600.0
    return {
        "info": {
            "model_stats": {"instance_cost": 0.08, "api_calls": 3},
            "config": {"model": {"model_name": "mistral/devstral-3"}},
            "mini_version": "2.0.0",
            "exit_status": "Submitted",
            "submission": _patch(ident),
        },
        "messages": [
            {"role": "system", "content": "You are a helpful assistant that can run bash."},
            {"role": "user", "content": f"Please solve this issue: {ident}: run() returns None."},
            said("Find the code.", "grep -rn 'def run' .", start + 1),
            seen(0, "./core.py:1:def run():", start + 2),
            said("Run the tests.", "python -m pytest -q", start + 3),
            seen(0 if resolved else 1, "1 passed" if resolved else "1 failed", start + 4),
            said("Submit.", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff", start + 5),
            {"role": "exit", "content": "", "extra": {"exit_status": "Submitted"}},
        ],
        "trajectory_format": "mini-swe-agent-1.1",
    }


def _openhands(ident: str, resolved: bool) -> dict[str, Any]:
    return {
        "instance_id": ident,
        "metadata": {"llm_config": {"model": "anthropic/claude-sonnet-4-5"}},
        "history": [
            {
                "id": 0,
                "source": "agent",
                "action": "system",
                "args": {"content": "You are OpenHands.", "tools": [{}, {}]},
            },
            {
                "id": 1,
                "source": "user",
                "action": "message",
                "args": {"content": f"Fix {ident}: run() returns None."},
            },
            {
                "id": 2,
                "source": "agent",
                "action": "run",
                "args": {"command": "python -m pytest -q", "thought": "Reproduce first."},
                "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "c1"},
            },
            {
                "id": 3,
                "source": "agent",
                "observation": "run",
                "cause": 2,
                "content": "1 passed" if resolved else "1 failed",
                "extras": {"metadata": {"exit_code": 0 if resolved else 1}},
            },
            {"id": 4, "source": "agent", "action": "finish", "args": {"final_thought": "Done."}},
        ],
        "metrics": {"accumulated_cost": 0.61},
    }


def write_sample_swebench(root: Path, *, count: int = 12) -> dict[str, int]:
    """Write the split under ``root/evaluation/verified``; returns the counts."""
    ids = instances(count)
    split = root / "evaluation" / "verified"
    for folder, name, models, org, om, osys, checked, every in SYSTEMS:
        path = split / folder
        (path / "trajs").mkdir(parents=True, exist_ok=True)
        (path / "metadata.yaml").write_text(_metadata(name, models, org, om, osys, checked))
        resolved = {i: n % every == 0 for n, i in enumerate(ids)}
        if folder.startswith("20250601"):
            results = {"resolved": [i for i in ids if resolved[i]], "no_generation": []}
            _json(path / "results" / "results.json", results)
            preds = "".join(
                json.dumps({"instance_id": i, "model_name_or_path": name, "model_patch": _patch(i)})
                + "\n"
                for i in ids
            )
            (path / "all_preds.jsonl").write_text(preds)
            for i in ids:
                report = {
                    i: {
                        "resolved": resolved[i],
                        "patch_successfully_applied": True,
                        "tests_status": _tests(i, resolved[i]),
                    }
                }
                _json(path / "logs" / i / "report.json", report)
                _json(path / "trajs" / f"{i}.traj", _swe_agent(i, resolved[i]))
            continue
        details = "".join(
            json.dumps(
                {
                    "instance_id": i,
                    "resolved": resolved[i],
                    "applied": True,
                    "model_patch": _patch(i),
                    **{
                        "F2P" if k == "FAIL_TO_PASS" else "P2P": v
                        for k, v in _tests(i, resolved[i]).items()
                    },
                }
            )
            + "\n"
            for i in ids
        )
        (path / "evaluation_details.jsonl").write_text(details)
        if folder.startswith("20250715"):
            for i in ids:
                _json(path / "trajs" / f"{i}.traj.json", _mini(i, resolved[i]))
        else:
            lines = "".join(json.dumps(_openhands(i, resolved[i])) + "\n" for i in ids)
            (path / "trajs" / "output.jsonl").write_text(lines)
            passed = sum(resolved.values())
            (path / "README.md").write_text(
                f"# OpenHands\n\nResolved% : {100 * passed / count:.2f}% ({passed} / {count})\n"
            )
    return {"systems": len(SYSTEMS), "instances": count, "attempts": len(SYSTEMS) * count}


def _json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, sort_keys=True) + "\n")
