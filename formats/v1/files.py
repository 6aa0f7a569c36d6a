"""Where things are in a v1 release, and which files an attempt folder holds."""

from __future__ import annotations

from dataclasses import dataclass

MANIFEST = "manifest.json"
LEADERBOARD = "leaderboard.json"
MATRIX = "matrix.json"
MODELS_DIR = "models/"
TASKS_DIR = "tasks/"
ATTEMPTS_DIR = "attempts/"

JSON = "application/json"
TEXT = "text/plain; charset=utf-8"
MARKDOWN = "text/markdown; charset=utf-8"


def model_path(model: str) -> str:
    return f"{MODELS_DIR}{model}.json"


def task_path(task: str) -> str:
    return f"{TASKS_DIR}{task}.json"


def attempt_folder(model: str, task: str, trial: int = 0) -> str:
    """An attempt's folder, ending in "/": a further trial (n >= 1) is under trials/<n>/."""
    base = f"{ATTEMPTS_DIR}{model}/{task}/"
    return base + f"trials/{trial}/" if trial else base


@dataclass(frozen=True)
class AttemptFileKind:
    content_type: str
    # Whether a release must have it in every attempt folder.
    required: bool = False
    # The stored blob it is kept as, byte for byte, if it is one.
    blob_field: str | None = None


# The files of an attempt folder, in the format's order: the import hashes an
# attempt's files in this order too (docs/release-format.md). trajectory.json
# is optional because transcript.jsonl (required) can be normalised instead.
ATTEMPT_FILES: dict[str, AttemptFileKind] = {
    "summary.json": AttemptFileKind(JSON, required=True),
    "verdict.json": AttemptFileKind(JSON),
    "trajectory.json": AttemptFileKind(JSON),
    "vendor-requests.json": AttemptFileKind(JSON),
    "patch.diff": AttemptFileKind(TEXT, blob_field="patch"),
    "transcript.jsonl": AttemptFileKind(TEXT, required=True, blob_field="transcript"),
    "problem.md": AttemptFileKind(MARKDOWN, required=True, blob_field="problem"),
}
