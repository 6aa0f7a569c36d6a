"""Releases A and B of one bench, from the sample generator, for the revision tests.

B differs from A as a next release would: the revision string "02", two more
tasks released in a new batch (which moves scores), a model added
(``ADDED``) and one removed (``REMOVED``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from samplegen.release import generate_release
from tests.factories import SMALL, edit_json

A = dict(SMALL)
B = {**SMALL, "models": SMALL["models"] + 1, "released": SMALL["released"] + 2}
ADDED = "gpt-6-astra-medium"
REMOVED = "qwen4-coder-opencode"


def _set_revision(root: Path, revision: str) -> None:
    for path in root.rglob("*.json"):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and "revision" in data:
            data["revision"] = revision
            path.write_text(json.dumps(data, indent=2))


def drop_model(root: Path, slug: str) -> None:
    """Take ``slug`` out of the release at ``root``, from every file that names it."""
    attempts = len([p for p in (root / "attempts" / slug).iterdir() if p.is_dir()])

    def manifest(d):
        d["models"].remove(slug)
        d["counts"]["models"] -= 1
        d["counts"]["attempts"] -= attempts

    edit_json(root / "manifest.json", manifest)
    edit_json(
        root / "leaderboard.json",
        lambda d: d.update(rows=[r for r in d["rows"] if r["model"] != slug]),
    )

    def matrix(d):
        d["models"].remove(slug)
        d["cells"].pop(slug)

    edit_json(root / "matrix.json", matrix)
    (root / "models" / f"{slug}.json").unlink()
    shutil.rmtree(root / "attempts" / slug)
    for path in (root / "tasks").glob("*.json"):
        edit_json(path, lambda d: d.update(results=[r for r in d["results"] if r["model"] != slug]))


def release_a(root: Path) -> Path:
    generate_release(root, **A)
    return root


def release_b(root: Path, *, revision: str = "02") -> Path:
    generate_release(root, **B)
    _set_revision(root, revision)
    drop_model(root, REMOVED)
    return root
