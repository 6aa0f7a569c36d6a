"""Terminal-Bench runs in a tree: which files are runs' results, and whose submission each is.

A run is a ``results.json`` that ``tb run`` wrote beside its trial folders: an
object with a ``results`` list of trials (``task_id``, ``trial_name``,
``is_resolved``) and the run's ``accuracy``. It is found by content, never
by name: the leaderboard's results-only submissions ship it as
``<stamp>_results.json`` with no folders at all. ``run_metadata.json`` beside
it (agent, model, dataset, start and end) is read where there is one.

A submission is one model on the leaderboard: the whole tree when its runs
sit at its root or one folder down (one run, or a folder of runs), else each
top-level folder (a folder of submissions). A run found twice (the same run
id and the same trials, as when a run folder was copied into another) is read
once, with a note.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import orjson

# Files read to find runs: JSON, and no larger than a run's results can be
# (a results.json of 400 trials with their instructions is under 1 MB).
RUN_DOC_MAX = 64 * 1024**2
METADATA = "run_metadata.json"
TRIAL_FIELDS = ("task_id", "trial_name")


@dataclass
class Run:
    """One ``tb run``: its results document, metadata and where its trial folders are."""

    doc_name: str  # the results file, relative to the tree
    folder: str  # the folder its trial folders are in ("" or ending in "/")
    label: str  # how messages name it: "<tree label>/<doc name>"
    doc: dict[str, Any]
    metadata: dict[str, Any]
    submission: str  # the submission's label (a model)
    digest: str

    @property
    def run_id(self) -> str:
        for value in (self.metadata.get("run_id"), self.doc.get("id"), self.metadata.get("uuid")):
            if isinstance(value, str) and value:
                return value
        return self.doc_name.rsplit("/", 1)[0] if "/" in self.doc_name else self.doc_name

    @property
    def started(self) -> str:
        value = self.metadata.get("start_time")
        return value if isinstance(value, str) else ""

    @property
    def entries(self) -> list[Any]:
        return self.doc["results"]


@dataclass
class FoundRuns:
    runs: list[Run] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def is_run_document(doc: Any) -> bool:
    """A ``tb run`` results document: ``results`` a list of trials, and the run's figures."""
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        return False
    if not any(k in doc for k in ("accuracy", "n_resolved", "pass_at_k")):
        return False
    return all(
        isinstance(entry, dict) and all(k in entry for k in TRIAL_FIELDS)
        for entry in doc["results"][:5]
    )


def _candidates(tree) -> list[str]:
    return [n for n in tree.names() if n.endswith(".json") and tree.size(n) <= RUN_DOC_MAX]


def parse_json(data: bytes) -> Any:
    """A JSON document; ValueError saying where it breaks (bytes that are not
    UTF-8 are read with U+FFFD in their place: a recording's stray byte must not
    cost the run)."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if "utf-8" not in str(exc).lower():
            raise ValueError(f"not valid JSON ({exc})") from None
    try:
        return orjson.loads(data.decode("utf-8", "replace"))
    except orjson.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc})") from None


def _read_json(tree, name: str, label: str, problems: list[str]) -> Any:
    try:
        return parse_json(tree.read(name))
    except ValueError as exc:
        problems.append(f"{label}/{name}: {exc}")
        return None


def looks_like_runs(tree) -> bool:
    """Detection: some ``results.json``-like file of the tree is a run's results."""
    for name in _candidates(tree):
        if not name.endswith("results.json"):
            continue  # a run's results are always "...results.json"; cheap to rule out first
        try:
            doc = parse_json(tree.read(name))
        except ValueError:
            continue
        if is_run_document(doc):
            return True
    return False


def _depth(name: str) -> int:
    return name.count("/")


def find_runs(tree, label: str) -> FoundRuns:
    """Every run of ``tree``, with its submission; broken JSON named by file."""
    found = FoundRuns()
    docs: list[tuple[str, dict[str, Any], bytes]] = []
    for name in _candidates(tree):
        if not name.endswith("results.json"):
            continue
        raw = tree.read(name)
        try:
            doc = parse_json(raw)
        except ValueError as exc:
            # A trial's own results.json is an object too; a broken one is the
            # trial's problem, reported when the trial is read, unless it is a run.
            if b'"accuracy"' in raw[:4096] or b'"results"' in raw[:4096]:
                found.problems.append(f"{label}/{name}: {exc}")
            continue
        if is_run_document(doc):
            docs.append((name, doc, raw))
    if not docs:
        return found
    runs: list[Run] = []
    seen: dict[str, Run] = {}
    for name, doc, raw in sorted(docs, key=lambda d: (_depth(d[0]), d[0])):
        folder = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        metadata: dict[str, Any] = {}
        if tree.exists(folder + METADATA):
            read = _read_json(tree, folder + METADATA, label, found.problems)
            if isinstance(read, dict):
                metadata = read
            elif read is not None:
                found.problems.append(f"{label}/{folder}{METADATA}: expected a JSON object")
        digest = hashlib.sha256(raw).hexdigest()
        run = Run(name, folder, f"{label}/{name}", doc, metadata, "", digest)
        first = seen.get(run.run_id)
        if first is not None and first.digest == digest:
            found.notes.append(
                f"{run.label}: the same run as {first.label} (same run id, same results); read once"
            )
            continue
        seen.setdefault(run.run_id, run)
        runs.append(run)
    # One submission (one model): runs at the root, or all one folder down (a
    # folder of runs); otherwise each top-level folder is a submission.
    depths = {_depth(run.doc_name) for run in runs}
    whole = 0 in depths or depths == {1}
    for run in runs:
        run.submission = label if whole else f"{label}/{run.doc_name.split('/', 1)[0]}"
    clashes: dict[tuple[str, str], Run] = {}
    for run in runs:
        other = clashes.setdefault((run.submission, run.run_id), run)
        if other is not run:
            found.problems.append(
                f"{run.label}: run id {run.run_id!r} again, with other results than {other.label}"
            )
    found.runs = runs
    return found
