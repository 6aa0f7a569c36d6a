"""The output folder: clearing an earlier release, writing JSON documents and bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

_RELEASE_ENTRIES = (
    "manifest.json",
    "leaderboard.json",
    "matrix.json",
    "models",
    "tasks",
    "attempts",
)


def prepare_root(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise FileExistsError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()):
        # Only ever clear what an earlier run of this generator wrote.
        if not (root / "manifest.json").is_file():
            raise FileExistsError(f"{root} is not empty and holds no release; refusing to write")
        for name in _RELEASE_ENTRIES:
            target = root / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
    root.mkdir(parents=True, exist_ok=True)


def dump_json(obj: Any) -> bytes:
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_file(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
