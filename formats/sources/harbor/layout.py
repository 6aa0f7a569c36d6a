"""Which folders of an opened tree are Harbor jobs and trials.

A tree (``formats.reader.open_tree``) may be a job folder (``result.json`` with
trial folders beside it), a folder of jobs, a single trial folder, or an
archive of any of these. Folders are told apart by content, never by name: a
trial's ``result.json`` has a ``task_name``; any other ``result.json`` with
trial folders under it is a job's. Files deeper inside a trial (an agent may
well write its own ``result.json``) belong to that trial.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from formats.reader import ReleaseSource
from formats.v1 import schema

RESULT = "result.json"
# What a trial folder holds besides result.json: a folder with these and no
# result.json is a trial that never finished writing (or was cut off).
TRIAL_MARKERS = ("config.json", "trial.log", "agent/", "verifier/")


@dataclass(frozen=True)
class TrialFolder:
    tree: ReleaseSource
    prefix: str  # "" or "job/trial/": names inside the tree
    label: str  # how messages name the folder: "<path>/<job>/<trial>"
    job: str  # the job folder's name ("" for a lone trial)
    result: dict[str, Any]

    def has(self, name: str) -> bool:
        return self.tree.exists(self.prefix + name)

    def read(self, name: str) -> bytes:
        return self.tree.read(self.prefix + name)


def _folder_of(name: str) -> str:
    return name[: -len(RESULT)]


def _depth(name: str) -> int:
    return name.count("/")


def _label(label: str, prefix: str) -> str:
    return f"{label}/{prefix.rstrip('/')}" if prefix else label


def find_trials(
    tree: ReleaseSource, label: str, *, allow_partial: bool = False
) -> tuple[list[TrialFolder], list[str], list[str]]:
    """(trial folders, problems, notes) of one tree; ``label`` names it in messages."""
    names = tree.names()
    results = sorted((n for n in names if n == RESULT or n.endswith("/" + RESULT)), key=_depth)
    trials: list[TrialFolder] = []
    jobs: list[str] = []
    problems: list[str] = []
    notes: list[str] = []
    for name in results:
        folder = _folder_of(name)
        if any(folder.startswith(t.prefix) for t in trials):
            continue  # inside a trial: the agent's or verifier's own file
        try:
            doc = schema.parse_json(tree.read(name))
        except ValueError as exc:
            problems.append(f"{_label(label, folder)}: {RESULT}: {exc}")
            continue
        if not isinstance(doc, dict):
            problems.append(f"{_label(label, folder)}: {RESULT}: expected a JSON object")
            continue
        if "task_name" in doc:
            parent = folder.rstrip("/").rsplit("/", 1)[0] if "/" in folder.rstrip("/") else ""
            job = parent.rsplit("/", 1)[-1] if parent else (label.rsplit("/", 1)[-1])
            trials.append(TrialFolder(tree, folder, _label(label, folder), job, doc))
        else:
            jobs.append(folder)
    present = set(names) | _folders(names)
    for job in jobs:
        for child in _children(names, job):
            if tree.exists(child + RESULT):
                continue
            if any(child + marker in present for marker in TRIAL_MARKERS):
                message = f"{_label(label, child)}: {RESULT}: missing (the trial has no result)"
                (notes if allow_partial else problems).append(
                    message + ("; skipped (--allow-partial)" if allow_partial else "")
                )
    if not trials and not problems:
        problems.append(
            f"{label}: not a Harbor job folder, folder of jobs or trial folder "
            f"(no {RESULT} with a task_name in it)"
        )
    return trials, problems, notes


def _children(names: list[str], folder: str) -> list[str]:
    found = set()
    for name in names:
        if name.startswith(folder):
            rest = name[len(folder) :]
            if "/" in rest:
                found.add(folder + rest.split("/", 1)[0] + "/")
    return sorted(found)


def _folders(names: list[str]) -> set[str]:
    """Every folder of the tree, as "a/b/"."""
    found = set()
    for name in names:
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            found.add("/".join(parts[:depth]) + "/")
    return found
