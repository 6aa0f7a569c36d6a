"""OpenHands' index results, read and checked: pure, no app.

A model folder holds ``metadata.json`` ({agent_name, agent_version, model,
openness, directory_name, release_date, ...}), ``scores.json`` (a list of
{benchmark, score (percent), metric, cost_per_instance, average_runtime,
submission_time, component_scores, full_archive, ...}) and, optionally,
``instance_results/<benchmark>.json`` ({instance: {resolved: true, false or
null, cost: number or null}}). ``results/<model>/`` holds OpenHands' own;
``alternative_agents/<agent>/<model>/`` other agents' in the same shape.

A folder is one of these by its content: a ``scores.json`` that is a list
of objects with ``benchmark`` and ``score``, beside a ``metadata.json``
object. Every problem names the file and the JSON path; all are collected.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

SCORES, METADATA, INSTANCES = "scores.json", "metadata.json", "instance_results/"
SLUG_MAX = 100


class Tree(Protocol):
    def names(self) -> list[str]: ...
    def size(self, name: str) -> int: ...
    def read(self, name: str) -> bytes: ...


def slugify(text: str) -> str:
    """The release-format id of ``text`` (lowercase; other characters than
    letters, digits, '.', '_', '-' made '-'; at most 100)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower())
    return re.sub(r"^[^a-z0-9]+", "", slug)[:SLUG_MAX].rstrip("-")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Outcome:
    resolved: bool | None
    cost: float | None


@dataclass
class Score:
    benchmark: str
    score: float  # percent, as published
    fields: dict[str, Any]  # the entry as published
    instances: dict[str, Outcome] | None = None  # None: no instance_results file


@dataclass
class ModelFolder:
    folder: str  # its path in the tree, ending in "/"
    id: str
    metadata: dict[str, Any]
    scores: dict[str, Score] = field(default_factory=dict)  # by benchmark


def decode(data: bytes, file: str) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"{file}: not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ValueError(f"{file}: not JSON ({exc.msg} at {where})") from None


def _scores_shape(doc: Any) -> bool:
    return (
        isinstance(doc, list)
        and bool(doc)
        and all(isinstance(s, dict) and "benchmark" in s and "score" in s for s in doc)
    )


def model_folders(tree: Tree, max_bytes: int) -> list[str]:
    """The folders of ``tree`` (ending in "/", "" for its root) that hold a
    model's results, by content: scores.json of the right shape beside
    metadata.json."""
    names = set(tree.names())
    found = []
    for name in sorted(names):
        if not (name == SCORES or name.endswith("/" + SCORES)):
            continue
        folder = name[: -len(SCORES)]
        if folder + METADATA not in names or tree.size(name) > max_bytes:
            continue
        try:
            if _scores_shape(decode(tree.read(name), name)):
                found.append(folder)
        except ValueError:
            continue
    return found


def model_id(folder: str) -> str:
    """A model's id: its folder's name, with the agent's under
    alternative_agents/ ("acp-claude/claude-opus-4-6" → "acp-claude-claude-opus-4-6")."""
    parts = [p for p in folder.strip("/").split("/") if p]
    if "alternative_agents" in parts:
        parts = parts[parts.index("alternative_agents") + 1 :]
    else:
        parts = parts[-1:]
    return slugify("-".join(parts)) or "model"


def read_model(tree: Tree, folder: str, problems: list[str], max_bytes: int) -> ModelFolder | None:
    """One model folder, its problems added to ``problems``."""
    before = len(problems)
    docs = {}
    for name in (METADATA, SCORES):
        path = folder + name
        if tree.size(path) > max_bytes:
            problems.append(f"{path}: larger than {max_bytes} bytes")
            continue
        try:
            docs[name] = decode(tree.read(path), path)
        except ValueError as exc:
            problems.append(str(exc))
    if len(problems) > before:
        return None
    metadata, scores = docs[METADATA], docs[SCORES]
    if not isinstance(metadata, dict):
        problems.append(f"{folder}{METADATA}: expected an object")
        return None
    for key in ("model", "agent_name"):
        if key in metadata and not isinstance(metadata[key], str):
            problems.append(f"{folder}{METADATA}: {key}: expected a string")
    entry = ModelFolder(folder=folder, id=model_id(folder), metadata=metadata)
    for i, raw in enumerate(scores):
        where = f"{folder}{SCORES}: [{i}]"
        bench, score = raw.get("benchmark"), raw.get("score")
        if not isinstance(bench, str) or not slugify(bench):
            problems.append(f"{where}.benchmark: expected a benchmark name")
            continue
        if not _number(score) or not 0 <= score <= 100:
            problems.append(f"{where}.score: expected a percentage from 0 to 100")
            continue
        if slugify(bench) in {slugify(b) for b in entry.scores}:
            problems.append(f"{where}.benchmark: {bench!r} has a score already")
            continue
        entry.scores[bench] = Score(bench, float(score), dict(raw))
    names = set(tree.names())
    for bench, found in entry.scores.items():
        path = f"{folder}{INSTANCES}{bench}.json"
        if path in names:
            found.instances = _instances(tree, path, problems, max_bytes)
    return None if len(problems) > before else entry


def _instances(tree: Tree, path: str, problems: list[str], max_bytes: int) -> dict | None:
    if tree.size(path) > max_bytes:
        problems.append(f"{path}: larger than {max_bytes} bytes")
        return None
    try:
        doc = decode(tree.read(path), path)
    except ValueError as exc:
        problems.append(str(exc))
        return None
    if not isinstance(doc, dict):
        problems.append(f"{path}: expected an object of instances")
        return None
    found = {}
    for instance, value in doc.items():
        at = f"{path}: {instance}"
        if not slugify(instance):
            problems.append(f"{at}: an instance id needs a letter or digit")
            continue
        if not isinstance(value, dict):
            problems.append(f"{at}: expected {{resolved, cost}}")
            continue
        resolved, cost = value.get("resolved"), value.get("cost")
        if resolved is not None and not isinstance(resolved, bool):
            problems.append(f"{at}.resolved: expected true, false or null")
            continue
        if cost is not None and (not _number(cost) or cost < 0):
            problems.append(f"{at}.cost: expected a number of at least 0, or null")
            continue
        found[instance] = Outcome(resolved, None if cost is None else float(cost))
    return found
