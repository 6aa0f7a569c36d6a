"""SWE-bench experiments submissions as a ``ResultsSource``, and their ``Adapter``.

Every submission folder is a model of the bench (its id the folder name);
every instance any of them reports is a task; each (system, instance) is one
attempt, its folder built when read. What a submission publishes of its
resolved rate (``results/results.json``'s list, a README's ``Resolved%``
line) is the model's ``published`` figure, compared with the site's.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formats.normalise.files import read_regular
from formats.sources.protocol import (
    AttemptEntry,
    BenchFacts,
    ImportOptions,
    ModelEntry,
    SourceError,
    TaskEntry,
)
from formats.sources.swebench_experiments.attempts import RULE, instance_attempt
from formats.sources.swebench_experiments.errors import ExperimentsError
from formats.sources.swebench_experiments.held import Held
from formats.sources.swebench_experiments.systems import System, looks_like, read_systems, slug
from formats.v1.slugs import is_slug

NAME = "swebench-experiments"
# The row key of what a submission publishes: the comparison the site already
# makes of a Harbor job's own figures (leaderboard.harbor_result) fits it.
PUBLISHED_KEY = "x-harbor-result"
SURFACE = "swe-bench"
# A submission's files are read whole; none of a real one comes near this.
FILE_LIMIT = 1 << 30


class FolderTree:
    """A folder's regular files by relative name (links and special files are
    skipped, never followed), read on demand: what ``read_systems`` takes."""

    def __init__(self, root: Path):
        self.root = root
        found = []
        for top, dirs, files in os.walk(root, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(top, d)))
            for name in files:
                path = os.path.join(top, name)
                if stat.S_ISREG(os.lstat(path).st_mode):
                    found.append(os.path.relpath(path, root).replace(os.sep, "/"))
        self._names = sorted(found)

    def names(self) -> list[str]:
        return list(self._names)

    def read(self, name: str) -> bytes:
        return read_regular(self.root / name, FILE_LIMIT)


def task_id(instance: str) -> str:
    return instance if is_slug(instance) else slug(instance)


def model_entry(system: System) -> ModelEntry:
    meta = system.metadata
    facts: dict[str, Any] = {
        "organisation": meta.org,
        "open_weights": meta.open_model,
        "open_system": meta.open_system,
        "verified": meta.checked,
        "results_date": system.date,
        "site": meta.site,
        "report": meta.report,
        "models": meta.models or None,
        "attempts": meta.attempts,
        "split": system.split,
        "folder": system.folder,
    }
    name = meta.name or system.folder
    entry = ModelEntry(
        system.id,
        name,
        name,
        ", ".join(meta.models)[:100],
        {k: v for k, v in facts.items() if v is not None},
    )
    published = system.published
    if published and isinstance(published.get("resolved"), int):
        figure: dict[str, Any] = {"jobs": [published["source"]], "passed": published["resolved"]}
        if isinstance(published.get("total"), int) and published["total"]:
            figure["trials"] = published["total"]
            figure["mean"] = published["resolved"] / published["total"]
        entry.published = figure
    return entry


@dataclass
class ExperimentsSource:
    """The submissions of the trees given, read as far as their results."""

    name: str
    bench: BenchFacts
    systems: list[System]
    models: dict[str, ModelEntry] = field(default_factory=dict)
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def attempts(self) -> Iterator[AttemptEntry]:
        # One holder for the whole source: the import reads the folders back
        # system by system, in the order they are given here.
        held = Held()
        for system in self.systems:
            for instance in sorted(system.instances):
                yield instance_attempt(
                    system,
                    system.instances[instance],
                    bench=self.bench.id,
                    task=task_id(instance),
                    held=held,
                )

    @property
    def total(self) -> int:
        return sum(len(s.instances) for s in self.systems)

    def close(self) -> None:
        self.systems = []


def open_trees(trees: list[tuple[Any, str]], *, bench: str, title: str) -> ExperimentsSource:
    """The source of ``trees`` (each an opened tree, with the label naming it)."""
    try:
        systems, notes = read_systems(trees)
    except ExperimentsError as exc:
        raise SourceError(exc.problems) from None
    facts = BenchFacts(bench, title, RULE, threshold=1.0, published_key=PUBLISHED_KEY)
    name = "+".join(label.rstrip("/").rsplit("/", 1)[-1] for _, label in trees)
    source = ExperimentsSource(name, facts, systems, notes=notes)
    named: dict[str, str] = {}
    for system in systems:
        source.models[system.id] = model_entry(system)
        for instance in system.instances:
            ident = task_id(instance)
            if named.setdefault(ident, instance) != instance:
                source.problems.append(
                    f"{system.label}: instances {named[ident]!r} and {instance!r} "
                    f"give the same task id {ident!r}"
                )
            source.tasks.setdefault(
                ident, TaskEntry(ident, instance, SURFACE, extra={"instance_id": instance})
            )
    return source


class SwebenchExperiments:
    """The adapter: folders holding SWE-bench experiments submissions."""

    name = NAME
    looks_for = (
        "SWE-bench experiments submissions: folders with a metadata.yaml (info, tags) "
        "and evaluation_details.jsonl, results/results.json, logs/*/report.json, "
        "all_preds.jsonl or preds.json beside it"
    )
    options = frozenset({"bench", "title", "replace", "scrub"})

    def detect(self, paths: Sequence[Path]) -> bool:
        try:
            return bool(paths) and all(
                Path(p).is_dir() and looks_like(FolderTree(Path(p))) for p in paths
            )
        except OSError:
            return False

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ExperimentsSource:
        if not options.bench:
            raise SourceError([f"{NAME}: --bench is required (the submissions do not name one)"])
        trees = [(FolderTree(Path(p)), str(p)) for p in paths]
        title = options.title or options.bench
        return open_trees(trees, bench=options.bench, title=title)


ADAPTER = SwebenchExperiments()
