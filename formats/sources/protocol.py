"""What a source of results is, and what an adapter that opens one is.

A *source of results* is one bench's results in some format on disk (a v1
release, Harbor jobs, a Terminal-Bench run, ...), opened by its *adapter*. It
gives, in this order:

1. the bench-level facts (``bench``: id, title, scoring rule and threshold,
   exceptions rule where it applies);
2. the bench's ``models`` and ``tasks`` (with what the source itself
   publishes of each model's figures, where it does);
3. each attempt (one model × one task × one trial), one at a time, from
   ``attempts()``: the light ``AttemptEntry`` the release's derived
   documents are figured from (score, checks, flags, cost, timing), and a
   ``LazyFolder`` that builds the attempt's v1 folder files (summary.json,
   verdict.json, trajectory.json, transcript.jsonl, problem.md) only when
   the import reads them, so memory does not grow with the source;
4. while and after reading, ``notes`` (said to the user) and ``problems``
   (each refuses the import; every one is collected, so a refusal lists
   them all).

An adapter never writes rows and never imports an app: the one import
pipeline (``ingest``) checks, scrubs, previews and writes every source alike,
under one lock and one import record.

This module is the contract four adapters are written against: fields may be
added (with defaults), never renamed or removed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from formats.v1.files import attempt_folder

# --- Bench, models, tasks ---------------------------------------------------


@dataclass(frozen=True)
class BenchFacts:
    """What the source says of the bench as a whole."""

    id: str  # the bench's slug (formats.v1 slug rule)
    title: str
    # How an attempt's score comes from its verdict: a rule name of
    # formats.v1.scoring (e.g. "reward-threshold", "all-mandatory").
    scoring_rule: str
    # The pass mark of a reward rule; None where the rule has none.
    threshold: float | None = None
    # How trials that raised are counted (formats.v1.scoring.EXCEPTIONS_RULES);
    # None where the source has no notion of an exception.
    exceptions_rule: str | None = None
    # The key under which a leaderboard row carries ``ModelEntry.published``
    # (e.g. Harbor's "x-harbor-result"); None: the source publishes no figures.
    published_key: str | None = None


@dataclass
class ModelEntry:
    """One model (with its harness) as the bench lists it."""

    id: str  # the model's slug in the bench
    display_name: str
    harness: str
    provider: str
    # Extension fields of the model (leaderboard.facts: organisation, labels, ...).
    extra: dict[str, Any] = field(default_factory=dict)
    # What the source itself publishes of this model's figures (a job's
    # result.json, a leaderboard's resolved rate, ...), carried into the
    # leaderboard row under ``BenchFacts.published_key`` and compared with the
    # site's own figures; None where the source publishes nothing.
    published: dict[str, Any] | None = None
    # The score the source publishes for this model (a fraction in [0, 1]: a
    # leaderboard's resolved rate, a run's accuracy), carried into the row as
    # its ``published_score`` and compared with the site's; None: none.
    published_score: float | None = None
    # The source has this figure and no per-task results for the model: no
    # attempt of it may come from ``attempts()``. Its row is placed by
    # ``published_score`` (which it then needs) and marked; it counts in no
    # statistic that needs tasks (docs/statistics.md).
    published_only: bool = False
    # How finely ``published_score`` was rounded (a fraction: 0.0005 for a
    # percentage given to one decimal): the site shows no difference within it.
    published_precision: float | None = None


@dataclass
class TaskEntry:
    """One task of the bench."""

    id: str  # the task's slug in the bench
    title: str  # as the source spells the task
    surface: str  # the group the task belongs to (a dataset, a category)
    ticket: str = ""  # the task's statement (problem.md), where the source has it
    # Check definitions: {"name", "level", "mandatory"} each, in order.
    checks: list[dict[str, Any]] = field(default_factory=list)
    # Extension fields written into tasks/<id>.json (e.g. {"harbor_task_name": ...}).
    extra: dict[str, Any] = field(default_factory=dict)


# --- Attempts ---------------------------------------------------------------


@dataclass(frozen=True)
class LazyFolder:
    """An attempt folder: how to build its files, and what they were.

    ``build()`` returns ``{file name: bytes}`` for the folder's files (the v1
    attempt files, ``formats.v1.files.ATTEMPT_FILES``); ``digests`` are what the
    first build gave, so the import can refuse a source that changed while it
    was read (a sha256 of "" where the source's own reader already refuses a
    file that changed, as the safe reader does).
    """

    build: Callable[[], dict[str, bytes]]
    digests: dict[str, tuple[str, int]]  # file name -> (sha256 hex, size)
    origin: str  # where it comes from, as the user knows it (a trial folder), for messages


def digests_of(files: dict[str, bytes]) -> dict[str, tuple[str, int]]:
    """``LazyFolder.digests`` of a folder's files."""
    return {name: (hashlib.sha256(data).hexdigest(), len(data)) for name, data in files.items()}


@dataclass(frozen=True)
class Check:
    """One check of an attempt's verdict, as the derived documents need it."""

    name: str
    level: str  # e.g. "test", "reward", "mandatory"
    passed: bool
    mandatory: bool = False


@dataclass
class AttemptEntry:
    """One attempt (model × task × trial), light: what the release's derived
    documents (leaderboard, matrix, models/, tasks/) are figured from, kept for
    every attempt until the import ends; its files are in ``folder``."""

    model: str  # a ModelEntry.id
    task: str  # a TaskEntry.id
    score: float  # under the bench's scoring rule (and exceptions rule)
    flags: list[str]  # e.g. "exception:AgentTimeoutError", "left-out", "unfinished"
    checks: list[Check]  # empty: no verdict (the grader never ran)
    cost_usd: float | None
    duration_s: float | None
    finished_at: str  # ISO 8601, UTC ("...Z")
    folder: LazyFolder
    # 0: the attempt itself; n >= 1: its n-th further trial (attempts/<m>/<t>/trials/<n>/).
    trial: int = 0
    ticket: str = ""  # the task statement this attempt saw (problem.md), if any

    @property
    def path(self) -> str:
        """The attempt's folder in the release, ending in "/"."""
        return attempt_folder(self.model, self.task, self.trial)

    @property
    def checks_passed(self) -> int:
        return sum(1 for c in self.checks if c.passed)

    @property
    def mandatory_failed(self) -> int:
        return sum(1 for c in self.checks if c.mandatory and not c.passed)


# --- Import options ---------------------------------------------------------


@dataclass(frozen=True)
class ImportOptions:
    """Every option an import may be given. An adapter declares the ones it
    takes (``Adapter.options``); the registry refuses the others by name
    (``registry.refuse_options``) rather than ignoring them."""

    bench: str | None = None  # the bench to import into, where the source does not say
    title: str | None = None  # the bench's title, where the source does not say
    models_file: tuple[bytes, str] | None = None  # (its bytes, its name): ids and facts of models
    threshold: float | None = None  # a reward rule's pass mark
    exceptions_rule: str | None = None  # how trials that raised count
    allow_partial: bool = False  # import what finished, flag the rest
    replace: bool = False  # the source is the whole bench (else: merge into it)
    scrub: bool = True  # rewrite home paths and host names rather than refuse them
    # Told (done, total) as attempts are read, for a progress bar.
    progress: Callable[[int, int], None] | None = None
    # How messages name each path (an upload's own file name, say); default:
    # each path's last part.
    labels: tuple[str, ...] | None = None

    def label(self, index: int, path: Path) -> str:
        return self.labels[index] if self.labels else Path(path).name

    def given(self) -> list[str]:
        """The names of the options set away from their defaults."""
        blank = ImportOptions()
        return [
            f.name
            for f in fields(self)
            if f.name not in _NOT_OPTIONS and getattr(self, f.name) != getattr(blank, f.name)
        ]


# How the import is told of progress and names its paths: for every adapter.
_NOT_OPTIONS = frozenset({"progress", "labels"})
OPTION_NAMES = frozenset(f.name for f in fields(ImportOptions)) - _NOT_OPTIONS


# --- The source and the adapter ----------------------------------------------


class SourceError(ValueError):
    """The source cannot be imported: every problem found, each naming its file
    (and JSON path), with a hint of what to do."""

    def __init__(self, problems: list[str], hint: str = ""):
        self.problems = list(problems)
        self.hint = hint
        super().__init__("\n".join(self.problems + ([hint] if hint else [])))


@runtime_checkable
class ResultsSource(Protocol):
    """One bench's results, opened by an adapter. Close it when done (it may
    hold an unpacked archive)."""

    name: str  # what was opened, for messages and the import record
    bench: BenchFacts
    models: dict[str, ModelEntry]  # by id
    tasks: dict[str, TaskEntry]  # by id
    notes: list[str]  # said to the user; may grow while attempts() runs
    problems: list[str]  # each refuses the import; may grow while attempts() runs

    def attempts(self) -> Iterator[AttemptEntry]:
        """Each attempt once, one at a time (the trials of one model on one task
        together); a bad attempt goes to ``problems`` and reading goes on."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Adapter(Protocol):
    """Opens one format of results as a ``ResultsSource``."""

    name: str  # its key in registry.ADAPTERS, e.g. "harbor"
    # What ``detect`` looks for, in words, for the error when no adapter matches
    # (e.g. "Harbor jobs: job folders of trial folders with result.json").
    looks_for: str
    # The ImportOptions fields this adapter uses (a subset of OPTION_NAMES).
    options: frozenset[str]

    def detect(self, paths: Sequence[Path]) -> bool:
        """Whether ``paths`` hold this format, decided by their content (never
        by a file name's suffix), cheaply, without raising for other formats."""
        ...

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ResultsSource:
        """Open ``paths`` (raising ``SourceError`` for what cannot be read)."""
        ...


@runtime_checkable
class SeveralBenches(Protocol):
    """An adapter whose one input holds several benches (swebench.com's
    leaderboards.json: one per leaderboard; OpenHands' index results: one per
    benchmark). Optional beside ``Adapter``: the import opens such an adapter
    with ``open_all`` and writes every bench or none (``registry.open_sources``)."""

    def open_all(self, paths: Sequence[Path], *, options: ImportOptions) -> list[ResultsSource]:
        """One source per bench, their ``bench.id`` all different (``options.bench``
        the prefix of each); ``SourceError`` for what cannot be read."""
        ...


def only_source(sources: list[ResultsSource], adapter: str, what: str) -> ResultsSource:
    """The one bench an adapter of several benches (``open_all``) opened, for
    ``open``; more than one is refused (each is closed), naming ``what`` they
    come from ("benchmarks", "leaderboards")."""
    if len(sources) != 1:
        for source in sources:
            source.close()
        raise SourceError(
            [f"{adapter}: {len(sources)} {what} make {len(sources)} benches"],
            "import them with open_all (import_results does)",
        )
    return sources[0]
