"""SWE-bench experiments submissions written for the tests, from the layout's
documented shapes (NoCode-bench's evaluation_details.jsonl, SWE-bench's
results/results.json and report.json, metadata.yaml as its checklist shows).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

HOSTILE = '<script>alert("x")</script>'


def metadata(**tags: Any) -> dict[str, Any]:
    return {
        "assets": {"logs": None, "trajs": None},
        "info": {
            "logo": "https://example.org/logo.png",
            "name": "Agentless-1.5",
            "site": "https://github.com/OpenAutoCoder/Agentless",
        },
        "tags": {
            "checked": False,
            "model": ["claude-3-5-sonnet-20241022"],
            "org": "Agentless",
            "os_model": False,
            "os_system": True,
            "system": {"attempts": "2+"},
            **tags,
        },
    }


def detail(instance: str, resolved: bool, **extra: Any) -> dict[str, Any]:
    return {
        "instance_id": instance,
        "resolved": resolved,
        "applied": True,
        "model_patch": f"diff --git a/{instance}.py b/{instance}.py\n+fix\n",
        "P2P": {"success": ["tests/test_a.py::test_keeps"], "failure": []},
        "F2P": {
            "success": ["tests/test_a.py::test_new"] if resolved else [],
            "failure": [] if resolved else ["tests/test_a.py::test_new"],
        },
        **extra,
    }


def submission(
    root: Path,
    folder: str,
    *,
    meta: dict[str, Any] | None = None,
    details: list[dict[str, Any]] | None = None,
    files: dict[str, bytes | str | Any] | None = None,
) -> Path:
    """``root/<folder>/`` with metadata.yaml, evaluation_details.jsonl (unless
    ``details`` is None and ``files`` give the results) and ``files``."""
    path = root / folder
    path.mkdir(parents=True, exist_ok=True)
    (path / "metadata.yaml").write_text(yaml.safe_dump(meta or metadata()), encoding="utf-8")
    if details is not None:
        lines = "".join(json.dumps(d) + "\n" for d in details)
        (path / "evaluation_details.jsonl").write_text(lines, encoding="utf-8")
    for name, content in (files or {}).items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        elif isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_text(json.dumps(content), encoding="utf-8")
    return path


def swe_agent_traj(instance: str) -> dict[str, Any]:
    return {
        "environment": "swe_main",
        "trajectory": [
            {
                "thought": "Look first.",
                "action": "ls",
                "observation": "a.py",
                "response": "",
                "execution_time": 0.1,
                "state": {},
            },
            {
                "thought": "Done.",
                "action": "submit",
                "observation": "diff",
                "response": "",
                "execution_time": 0.1,
                "state": {},
            },
        ],
        "history": [
            {"role": "system", "content": "You are SWE-agent."},
            {"role": "user", "content": f"Solve {instance} {HOSTILE}"},
        ],
        "info": {
            "exit_status": "submitted",
            "submission": "diff",
            "model_stats": {"instance_cost": 0.25, "tokens_sent": 1200, "tokens_received": 80},
        },
    }


def openhands_line(instance: str) -> dict[str, Any]:
    return {
        "instance_id": instance,
        "metadata": {"llm_config": {"model": "claude-4-sonnet"}},
        "history": [
            {"id": 0, "source": "user", "action": "message", "args": {"content": f"Do {instance}"}},
            {
                "id": 1,
                "source": "agent",
                "action": "run",
                "args": {"command": "pytest"},
                "tool_call_metadata": {"function_name": "execute_bash"},
            },
            {
                "id": 2,
                "source": "agent",
                "observation": "run",
                "cause": 1,
                "content": "ok",
                "extras": {"metadata": {"exit_code": 0}},
            },
        ],
        "metrics": {"accumulated_cost": 0.5},
    }
