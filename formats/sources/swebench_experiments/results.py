"""Per-instance results and predictions, in each shape submissions use.

- ``evaluation_details.jsonl`` (NoCode-bench): a line per instance with
  ``resolved``, ``applied``, ``model_patch`` and ``F2P``/``P2P`` (or
  ``FAIL_TO_PASS``/``PASS_TO_PASS``) ``{success: [...], failure: [...]}``.
- ``results/results.json`` (SWE-bench): lists of instance ids by outcome
  (``resolved``, ``applied``/``no_apply``, ``no_generation``, …).
- ``logs/<instance>/report.json`` (SWE-bench harness):
  ``{<instance>: {resolved, patch_successfully_applied, tests_status}}``.
- predictions: ``all_preds.jsonl`` (a line per instance with ``model_patch``)
  or ``preds.json`` (an object keyed by instance id, or a list).

Every problem names the file and the line or JSON path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

EVALUATION_DETAILS = "evaluation_details.jsonl"
RESULTS = "results/results.json"
REPORT = "report.json"
ALL_PREDS = "all_preds.jsonl"
PREDS = "preds.json"
# Any of these beside a metadata.yaml makes a folder a submission.
RESULT_FILES = (EVALUATION_DETAILS, RESULTS, ALL_PREDS, PREDS)
TEST_GROUPS = {
    "F2P": "FAIL_TO_PASS",
    "P2P": "PASS_TO_PASS",
    "FAIL_TO_PASS": "FAIL_TO_PASS",
    "PASS_TO_PASS": "PASS_TO_PASS",
}


@dataclass
class Outcome:
    """What the submission says of one instance."""

    instance_id: str
    where: str  # the file (and line) it was read from, for messages
    line: int | None = None  # its line, in a .jsonl file
    file: str | None = None  # the file in the tree, where it is read again
    resolved: bool | None = None
    applied: bool | None = None
    patch: str | None = None
    # "FAIL_TO_PASS" / "PASS_TO_PASS" -> {"success": [...], "failure": [...]}
    tests: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _json_lines(data: bytes, where: str, problems: list[str]):
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            problems.append(f"{where}: line {number}: not JSON ({exc})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{where}: line {number}: expected a JSON object")
            continue
        yield number, obj


def _instance_id(obj: dict, at: str, problems: list[str]) -> str | None:
    ident = obj.get("instance_id")
    if isinstance(ident, str) and ident.strip():
        return ident
    problems.append(f"{at}: instance_id: expected a string, got {ident!r}"[:300])
    return None


def _tests(obj: Any, at: str, problems: list[str]) -> dict[str, list[str]] | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        problems.append(f"{at}: expected {{success: [...], failure: [...]}}")
        return None
    found: dict[str, list[str]] = {}
    for key in ("success", "failure"):
        names = obj.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(f"{at}.{key}: expected a list of test names")
            return None
        found[key] = names
    return found


def groups(obj: dict, at: str, problems: list[str]) -> dict[str, dict[str, list[str]]]:
    groups: dict[str, dict[str, list[str]]] = {}
    for key, group in TEST_GROUPS.items():
        if key in obj:
            found = _tests(obj[key], f"{at}: {key}", problems)
            if found is not None:
                groups[group] = found
    return groups


def _bool(obj: dict, key: str, at: str, problems: list[str]) -> bool | None:
    value = obj.get(key)
    if value is None or isinstance(value, bool):
        return value
    problems.append(f"{at}: {key}: expected true or false, got {value!r}"[:300])
    return None


def evaluation_details(data: bytes, where: str, problems: list[str]) -> dict[str, Outcome]:
    found: dict[str, Outcome] = {}
    lines: dict[str, int] = {}
    for number, obj in _json_lines(data, where, problems):
        at = f"{where}: line {number}"
        ident = _instance_id(obj, at, problems)
        if ident is None:
            continue
        if ident in found:
            problems.append(f"{at}: instance_id {ident!r} repeats line {lines[ident]}")
            continue
        resolved = _bool(obj, "resolved", at, problems)
        if "resolved" not in obj:
            problems.append(f"{at}: resolved: missing")
        patch = obj.get("model_patch")
        if patch is not None and not isinstance(patch, str):
            problems.append(f"{at}: model_patch: expected a string")
            patch = None
        notes = obj.get("notes")
        found[ident] = Outcome(
            ident,
            at,
            line=number,
            resolved=resolved,
            applied=_bool(obj, "applied", at, problems),
            patch=patch,
            tests=groups(obj, at, problems),
            notes=[notes] if isinstance(notes, str) and notes else [],
        )
        lines[ident] = number
    return found


def results_json(data: bytes, where: str, problems: list[str]) -> dict[str, Outcome]:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        problems.append(f"{where}: not JSON ({exc})")
        return {}
    if not isinstance(doc, dict):
        problems.append(f"{where}: expected an object of instance id lists")
        return {}
    lists: dict[str, set[str]] = {}
    for key, ids in doc.items():
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            problems.append(f"{where}: {key}: expected a list of instance ids")
            continue
        lists[key] = set(ids)
    if "resolved" not in lists:
        problems.append(f"{where}: resolved: missing (the list of resolved instance ids)")
        return {}
    every = sorted(set().union(*lists.values()))
    found = {}
    for ident in every:
        applied = None
        if "applied" in lists:
            applied = ident in lists["applied"]
        elif "no_apply" in lists:
            applied = ident not in lists["no_apply"]
        notes = [
            f"listed as {key}" for key in sorted(lists) if key != "resolved" and ident in lists[key]
        ]
        found[ident] = Outcome(
            ident,
            f"{where}",
            resolved=ident in lists["resolved"],
            applied=applied,
            notes=notes,
        )
    return found


def report_json(data: bytes, where: str, problems: list[str]) -> Outcome | None:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        problems.append(f"{where}: not JSON ({exc})")
        return None
    if not isinstance(doc, dict) or len(doc) != 1:
        problems.append(f"{where}: expected one object keyed by the instance id")
        return None
    ((ident, report),) = doc.items()
    if not isinstance(report, dict):
        problems.append(f"{where}: {ident}: expected an object")
        return None
    at = f"{where}: {ident}"
    status = report.get("tests_status")
    tests = groups(status, f"{at}.tests_status", problems) if isinstance(status, dict) else {}
    if "resolved" not in report:
        problems.append(f"{at}: resolved: missing")
    return Outcome(
        ident,
        where,
        resolved=_bool(report, "resolved", at, problems),
        applied=_bool(report, "patch_successfully_applied", at, problems),
        tests=tests,
    )


def predictions(data: bytes, where: str, problems: list[str]) -> dict[str, int | str]:
    """Instance id → where its patch is in ``all_preds.jsonl`` (the line) or
    ``preds.json`` (the key), each checked to be a string or null."""
    patches: dict[str, str | None] = {}
    keys: dict[str, int | str] = {}
    if where.endswith(".jsonl"):
        entries = [(n, obj) for n, obj in _json_lines(data, where, problems)]
    else:
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            problems.append(f"{where}: not JSON ({exc})")
            return {}
        if isinstance(doc, dict):
            entries = [
                (key, {"instance_id": key, **value} if isinstance(value, dict) else value)
                for key, value in doc.items()
            ]
        elif isinstance(doc, list):
            problems.append(f"{where}: expected an object keyed by instance id")
            return {}
        else:
            problems.append(f"{where}: expected an object or a list of predictions")
            return {}
    for key, obj in entries:
        at = f"{where}: line {key}" if isinstance(key, int) else f"{where}: {key}"
        if not isinstance(obj, dict):
            problems.append(f"{at}: expected an object")
            continue
        ident = _instance_id(obj, at, problems)
        patch = obj.get("model_patch")
        if ident is None:
            continue
        if patch is not None and not isinstance(patch, str):
            problems.append(f"{at}: model_patch: expected a string")
            continue
        if ident in patches and patches[ident] != patch:
            problems.append(f"{at}: instance_id {ident!r} is predicted twice, differently")
            continue
        patches[ident] = patch
        keys.setdefault(ident, key)
    return keys
