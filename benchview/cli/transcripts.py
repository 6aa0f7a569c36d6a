"""A single raw transcript as a Harbor trial folder, so the Harbor import reads it.

The trial is written once, deterministically (same transcript, same files), so a
second import of an unchanged transcript changes nothing. Its task is named
after the file; its model is the transcript's own (or "unknown").
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

LOCAL_BENCH = "local"
# The Harbor agent whose raw log the importer normalises, by transcript format.
_AGENT = {"claude": "claude-code", "codex": "codex", "opencode": "opencode"}


def transcript_trial(path: Path, into: Path) -> Path:
    """Write ``path`` as a trial folder under ``into``; return the folder."""
    from formats.normalise import UnknownFormat, normalise
    from formats.normalise.atif import FORMAT as ATIF
    from formats.normalise.files import NotReadable, read_regular

    try:
        data = read_regular(path, settings.BENCHVIEW_LIMITS["file_max_bytes"])
    except NotReadable as exc:
        raise CommandError(f"{path}: {exc}") from None
    except OSError as exc:
        raise CommandError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        result = normalise(data)
    except UnknownFormat as exc:
        raise CommandError(f"{path}: {exc}") from None
    family = result.format.split("-")[0]
    model = result.meta.get("model")
    task = re.sub(r"[^A-Za-z0-9._-]+", "-", path.stem).strip("-.") or "transcript"
    folder = into / task
    (folder / "agent").mkdir(parents=True, exist_ok=True)
    agent = "harbor" if result.format == ATIF else _AGENT.get(family, family)
    log = "trajectory.json" if result.format == ATIF else f"{agent}.txt"
    _write(folder / "agent" / log, data)
    stamp = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat()
    doc = {
        "task_name": task,
        "trial_name": task,
        "agent_info": {
            "name": agent,
            "model_info": {"name": model if isinstance(model, str) and model else "unknown"},
        },
        "started_at": stamp,
        "finished_at": stamp,
    }
    _write(folder / "result.json", json.dumps(doc, indent=2).encode())
    return folder


def _write(path: Path, data: bytes) -> None:
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
