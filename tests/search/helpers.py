"""Releases with known events, for the search tests."""

from __future__ import annotations

import json
from pathlib import Path

from django.urls import reverse


def attempt_folders(root: Path) -> list[tuple[str, str]]:
    """(model, task) of every attempt folder of the release, sorted."""
    return sorted(
        (task_dir.parent.name, task_dir.name)
        for task_dir in (root / "attempts").glob("*/*")
        if task_dir.is_dir()
    )


def add_events(root: Path, model: str, task: str, events: list[dict]) -> None:
    """Append ``events`` (indexes filled in) to one attempt's trajectory."""
    path = root / "attempts" / model / task / "trajectory.json"
    doc = json.loads(path.read_text())
    start = len(doc["events"])
    for offset, event in enumerate(events):
        doc["events"].append({"index": start + offset, **event})
    path.write_text(json.dumps(doc, indent=2))


def tool_call(tool: str, command: str, output: str, *, ok: bool = True, exit_code=0) -> dict:
    return {
        "type": "tool_call",
        "tool": tool,
        "input": {"command": command},
        "result": {"ok": ok, "output": output, "exit_code": exit_code},
    }


def message(text: str) -> dict:
    return {"type": "message", "text": text}


def search_url(bench: str, q: str = "", **params) -> str:
    from urllib.parse import urlencode

    query = urlencode({"q": q, **params}, doseq=True)
    return f"{reverse('search', args=[bench])}?{query}"
