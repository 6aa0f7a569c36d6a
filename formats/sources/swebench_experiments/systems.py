"""Submission folders → ``System`` values: the entry point of this format.

A submission is a folder with a ``metadata.yaml`` (a mapping with ``info`` or
``tags``) and per-instance results or predictions beside it; a tree may be
one submission, a split of them, or a whole experiments repository. The
system's id is its folder name (made a slug): display names repeat across
systems, folder names do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from formats.sources.swebench_experiments import results as R
from formats.sources.swebench_experiments.errors import ExperimentsError
from formats.sources.swebench_experiments.metadata import (
    METADATA,
    README,
    Metadata,
    folder_date,
    is_metadata,
    parse_yaml,
    read_metadata,
    readme_figure,
)
from formats.sources.swebench_experiments.trajs import TrajRef, find_trajectories

_NOT_SLUG = re.compile(r"[^a-z0-9._-]+")
_RESULT_FILES = R.RESULT_FILES


@dataclass
class Instance:
    """What a submission says of one instance: the small parts, and where the
    large ones are (``held.Held`` reads the patch and tests again when the
    attempt is built, so a submission's reading does not grow with them)."""

    id: str
    where: str  # the file (and line) its result came from
    resolved: bool | None
    applied: bool | None
    notes: list[str] = field(default_factory=list)
    trajectory: TrajRef | None = None
    detail: tuple[str, int] | None = None  # (evaluation_details.jsonl, line)
    report: str | None = None  # its logs/<id>/report.json
    prediction: tuple[str, int | str] | None = None  # (predictions file, line or key)


@dataclass
class System:
    id: str
    folder: str
    prefix: str  # the folder's path in its tree ("" for the tree itself)
    label: str  # the folder as the user named it, for messages
    tree: Any  # the opened tree its files are read from
    split: str | None
    metadata: Metadata
    date: str | None
    results_from: str
    instances: dict[str, Instance] = field(default_factory=dict)
    published: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def read(self, name: str) -> bytes:
        return self.tree.read(name)


def slug(folder: str) -> str:
    text = _NOT_SLUG.sub("-", folder.lower()).strip("-._")
    return text[:100] or "system"


def _submissions(names: list[str]) -> list[str]:
    """Prefixes of folders with a metadata.yaml and results or predictions beside it."""
    present = set(names)
    prefixes = []
    for name in names:
        if name != METADATA and not name.endswith("/" + METADATA):
            continue
        prefix = name[: -len(METADATA)]
        has_results = any(prefix + f in present for f in _RESULT_FILES) or any(
            n.startswith(prefix + "logs/") and n.endswith("/" + R.REPORT) for n in names
        )
        if has_results:
            prefixes.append(prefix)
    return prefixes


def looks_like(tree) -> bool:
    """A tree holding at least one submission whose metadata.yaml reads as one."""
    for prefix in _submissions(tree.names()):
        doc, problem = parse_yaml(tree.read(prefix + METADATA), prefix + METADATA)
        if problem is None and is_metadata(doc):
            return True
    return False


def read_systems(trees: list[tuple[Any, str]]) -> tuple[list[System], list[str]]:
    """Every submission of ``trees`` (each an opened tree and the label naming it),
    with its instances; ExperimentsError lists every problem found."""
    problems: list[str] = []
    notes: list[str] = []
    systems: list[System] = []
    for tree, label in trees:
        names = tree.names()
        prefixes = _submissions(names)
        if not prefixes:
            problems.append(
                f"{label}: no SWE-bench experiments submission found (looked for a "
                f"metadata.yaml with {', '.join(_RESULT_FILES)} or logs/*/report.json beside it)"
            )
        for prefix in prefixes:
            system = _read_system(tree, label, names, prefix, problems)
            if system is not None:
                systems.append(system)
                notes += system.notes
    seen: dict[str, System] = {}
    for system in systems:
        other = seen.get(system.id)
        if other is not None:
            problems.append(
                f"{system.label}: the same system id {system.id!r} as {other.label}: "
                "import each split into its own bench"
            )
        seen[system.id] = system
    if problems:
        raise ExperimentsError(problems)
    return systems, notes


def _read_system(
    tree, label: str, names: list[str], prefix: str, problems: list[str]
) -> System | None:
    where = f"{label}/{prefix}".rstrip("/")
    parts = [p for p in f"{label}/{prefix}".split("/") if p]
    folder = parts[-1] if parts else label
    split = parts[-2] if len(parts) > 1 else None
    doc, problem = parse_yaml(tree.read(prefix + METADATA), f"{where}/{METADATA}")
    if problem is not None:
        problems.append(problem)
        return None
    if not is_metadata(doc):
        problems.append(f"{where}/{METADATA}: expected a mapping with info and tags")
        return None
    before = len(problems)
    metadata = read_metadata(doc, f"{where}/{METADATA}", problems)
    outcomes, source, published = _outcomes(tree, names, prefix, where, problems)
    patches = _patches(tree, names, prefix, where, problems)
    system = System(
        id=slug(folder),
        folder=folder,
        prefix=prefix,
        label=where,
        tree=tree,
        split=split,
        metadata=metadata,
        date=folder_date(folder),
        results_from=source,
        published=published,
    )
    for ident in sorted(set(outcomes) | set(patches)):
        outcome = outcomes.get(ident)
        if outcome is None:
            system.notes.append(
                f"{where}: {ident} has a prediction and no result: scored as failed"
            )
        instance = Instance(
            ident,
            outcome.where if outcome else f"{where}: predictions",
            outcome.resolved if outcome else None,
            outcome.applied if outcome else None,
            list(outcome.notes) if outcome else [],
            prediction=patches.get(ident),
        )
        if outcome is not None and outcome.file is not None:
            if outcome.line is not None:
                instance.detail = (outcome.file, outcome.line)
            else:
                instance.report = outcome.file
        system.instances[ident] = instance
    if prefix + README in set(names):
        figure = readme_figure(tree.read(prefix + README))
        if figure is not None and system.published is None:
            system.published = {**figure, "source": README}
    trajs = find_trajectories(
        names, prefix, tree.read, set(system.instances), problems, system.notes
    )
    for ident, ref in trajs.items():
        system.instances[ident].trajectory = ref
    if not system.instances and len(problems) == before:
        problems.append(f"{where}: no instance results")
    return system if len(problems) == before else None


def _outcomes(
    tree, names: list[str], prefix: str, where: str, problems: list[str]
) -> tuple[dict[str, R.Outcome], str, dict[str, Any] | None]:
    present = set(names)
    if prefix + R.EVALUATION_DETAILS in present:
        name = R.EVALUATION_DETAILS
        found = R.evaluation_details(tree.read(prefix + name), f"{where}/{name}", problems)
        for outcome in found.values():
            outcome.file = prefix + name
            outcome.patch, outcome.tests = None, {}  # read again when built
        return found, name, None
    reports: dict[str, R.Outcome] = {}
    for name in names:
        if name.startswith(prefix + "logs/") and name.endswith("/" + R.REPORT):
            got = R.report_json(tree.read(name), f"{label_of(where, prefix, name)}", problems)
            if got is not None:
                got.file, got.tests = name, {}  # read again when built
                reports[got.instance_id] = got
    if prefix + R.RESULTS not in present:
        return reports, "logs/*/report.json", None
    listed = R.results_json(tree.read(prefix + R.RESULTS), f"{where}/{R.RESULTS}", problems)
    resolved = sum(1 for o in listed.values() if o.resolved)
    published = {"resolved": resolved, "source": R.RESULTS}
    for ident, outcome in listed.items():
        report = reports.pop(ident, None)
        if report is None:
            continue
        if report.resolved is not None and report.resolved != outcome.resolved:
            outcome.notes.append(
                f"{report.where} says resolved {report.resolved}; {R.RESULTS} decides"
            )
        outcome.file = report.file
        outcome.applied = report.applied if report.applied is not None else outcome.applied
    for ident, report in reports.items():
        report.notes.append(f"not in {R.RESULTS}: {report.where} decides")
        listed[ident] = report
    return listed, R.RESULTS, published


def label_of(where: str, prefix: str, name: str) -> str:
    return f"{where}/{name[len(prefix) :]}"


def _patches(tree, names: list[str], prefix: str, where: str, problems: list[str]) -> dict:
    """Instance id → (predictions file, its line or key)."""
    present = set(names)
    patches: dict[str, tuple[str, int | str]] = {}
    for name in (R.ALL_PREDS, R.PREDS):
        if prefix + name in present:
            got = R.predictions(tree.read(prefix + name), f"{where}/{name}", problems)
            for ident, key in got.items():
                patches.setdefault(ident, (prefix + name, key))
    return patches
