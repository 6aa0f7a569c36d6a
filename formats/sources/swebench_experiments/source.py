"""SWE-bench experiments submissions as a ``ResultsSource``, and their ``Adapter``.

Every submission folder is a model of the bench (its id the folder name);
every instance any of them reports is a task; each (system, instance) is one
attempt, its folder built when read. What a submission publishes of its
resolved rate (``results/results.json``'s list, a README's ``Resolved%``
line) is the model's ``published`` figure, compared with the site's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formats.reader import ReleaseReadError, open_tree
from formats.reader.peek import peek_names
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
from formats.sources.swebench_experiments.metadata import METADATA
from formats.sources.swebench_experiments.results import RESULT_FILES
from formats.sources.swebench_experiments.systems import System, looks_like, read_systems, slug
from formats.v1.slugs import is_slug

NAME = "swebench-experiments"
# The row key of what a submission publishes: the comparison the site already
# makes of a Harbor job's own figures (formats.v1.harbor_result) fits it.
PUBLISHED_KEY = "x-harbor-result"
SURFACE = "swe-bench"


@dataclass
class Scrubbing:
    """The source's answer to the pipeline's scrubbing question: its files are
    the release's, so the import's own scrub rewrites (or, without ``--scrub``,
    refuses) what it finds in them; the adapter itself found nothing more."""

    rewrite: bool

    def found(self) -> list[str]:
        return []


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
        # Compared with the site's figures as a Harbor job's result.json is
        # (passed; mean where the total is known), and shown as it was published.
        figure: dict[str, Any] = {"jobs": [published["source"]], "passed": published["resolved"]}
        if isinstance(published.get("total"), int) and published["total"]:
            figure["trials"] = published["total"]
            figure["mean"] = published["resolved"] / published["total"]
        score = None
        if isinstance(published.get("percent"), float):
            score = round(published["percent"] / 100, 6)
            figure["published_score"] = score
        entry.published = figure
        # The row's own published score where the interface has the field (it is
        # being added beside this adapter): a README's percentage, to 2 decimals.
        entry.published_score = score
        entry.published_precision = 0.00005 if score is not None else None
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
    scrubbing: Scrubbing = field(default_factory=lambda: Scrubbing(True))
    progress: Callable[[int, int], None] | None = None
    trees: list[Any] = field(default_factory=list)

    def attempts(self) -> Iterator[AttemptEntry]:
        # One holder for the whole source: the import reads the folders back
        # system by system, in the order they are given here.
        held = Held()
        done, total = 0, self.trials
        for system in self.systems:
            for instance in sorted(system.instances):
                yield instance_attempt(
                    system,
                    system.instances[instance],
                    bench=self.bench.id,
                    task=task_id(instance),
                    held=held,
                )
                done += 1
                if self.progress is not None:
                    self.progress(done, total)

    @property
    def trials(self) -> int:
        return sum(len(s.instances) for s in self.systems)

    def close(self) -> None:
        for tree in self.trees:
            tree.close()
        self.trees = []


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
        """The names first (cheap: a metadata.yaml with results beside it), then
        the metadata itself, read through the safe reader."""
        for path in paths:
            names = peek_names(Path(path))
            if names is None or not _candidate(names):
                return False
            try:
                with open_tree(path) as tree:
                    if not looks_like(tree):
                        return False
            except (ReleaseReadError, OSError):
                return False
        return bool(paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ExperimentsSource:
        shown = ", ".join(options.label(i, p) for i, p in enumerate(paths))
        if not options.bench:
            raise SourceError(
                [f"{shown}: SWE-bench experiments submissions need the bench id to import into"]
            )
        trees: list[tuple[Any, str]] = []
        try:
            for i, path in enumerate(paths):
                trees.append((open_tree(path), options.label(i, path)))
            source = open_trees(trees, bench=options.bench, title=options.title or options.bench)
        except BaseException:
            for tree, _ in trees:
                tree.close()
            raise
        source.trees = [tree for tree, _ in trees]
        source.scrubbing = Scrubbing(options.scrub)
        source.progress = options.progress
        return source


def _candidate(names: list[str]) -> bool:
    present = set(names)
    for name in names:
        if name == METADATA or name.endswith("/" + METADATA):
            prefix = name[: -len(METADATA)]
            if any(prefix + f in present for f in RESULT_FILES) or any(
                n.startswith(prefix + "logs/") and n.endswith("/report.json") for n in names
            ):
                return True
    return False


ADAPTER = SwebenchExperiments()
