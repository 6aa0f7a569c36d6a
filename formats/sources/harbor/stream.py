"""Harbor jobs read as the import takes them: the bench's models and tasks, then
each attempt one at a time.

``read_jobs`` reads every trial's ``result.json`` (already read to find the
trials): the models, the tasks, and what must be one of a kind
(``identity``). ``HarborJobs.attempts()`` then reads the trials in turn: each
is mapped to its attempt folder, hashed and dropped, and comes out as the
small parts the release's documents need with a ``LazyFolder`` that builds
its files again when the import reads them. So memory does not grow with the
jobs. Problems are collected on ``problems``, every trial read regardless, so
that a refusal reports them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from formats.reader import ReleaseSource
from formats.reader.tempdirs import UnpackDir
from formats.sources import AttemptEntry, BenchFacts, LazyFolder, ModelEntry, TaskEntry, digests_of
from formats.sources.harbor.attempts import RULE, AttemptFiles, trial_attempt
from formats.sources.harbor.identity import (
    ModelIdentity,
    model_clashes,
    repeated_trials,
    task_clashes,
)
from formats.sources.harbor.job_summary import Eval, job_figures, read_evals
from formats.sources.harbor.layout import RESULT, find_trials
from formats.sources.harbor.naming import ModelRule, model_of, slugify, title_of
from formats.sources.harbor.scrubbing import TrialScrub
from formats.sources.harbor.trial import Trial, TrialProblem, read_head, read_trial
from formats.v1.harbor_result import HARBOR_RESULT
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE


def _order(trial: Trial) -> tuple[str, str]:
    return (trial.started_at or "", trial.trial_name)


@dataclass(frozen=True)
class _Slot:
    """Where one trial goes in the release, and what its attempt needs to be built."""

    head: Trial
    bench: str
    model: str
    task: str
    n: int  # its number among the model's trials of the task
    of: int  # how many there are
    threshold: float
    exceptions_rule: str


def _build(slot: _Slot, scrub: TrialScrub) -> AttemptFiles:
    """The attempt of one trial, its files read from the trial folder."""
    trial = read_trial(slot.head, scrub)
    if slot.of > 1:
        trial.notes.append(
            f"{slot.of} trials of this model on this task; this is trial {slot.n} "
            f"({trial.trial_name}; trial 0 is the attempt's own page)"
        )
    attempt = trial_attempt(
        trial,
        bench=slot.bench,
        model=slot.model,
        task=slot.task,
        threshold=slot.threshold,
        exceptions_rule=slot.exceptions_rule,
    )
    attempt.trial = slot.n
    return attempt


# Spool folders are plain strings joined with os.path: pathlib would intern
# each one's name, a table that grows with every trial of the import.


def _spill(folder: str, files: dict[str, bytes]) -> None:
    # The spool's own folder is private (0700), so plain writes are safe in it.
    os.mkdir(folder)
    _spill_again(folder, files)


def _unspool(folder: str, names: tuple[str, ...]) -> dict[str, bytes]:
    """An attempt folder as it was built and checked (``HarborSource`` compares
    its digests again before anything of it is written)."""
    found = {}
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            found[name] = f.read()
    return found


def _surface(trials: list[Trial], name: str) -> str:
    """A task's surface: the Harbor dataset it came from, where the trial says."""
    for trial in trials:
        if trial.task_name == name and trial.dataset:
            return trial.dataset
    return "harbor"


@dataclass
class HarborJobs:
    """The trees' trials, read as far as their result.json: the bench's ``models``
    and ``tasks``; ``attempts()`` reads the rest, one trial at a time. A
    ``ResultsSource`` (formats.sources)."""

    name: str
    bench: BenchFacts
    scrubbing: TrialScrub
    models: dict[str, ModelEntry] = field(default_factory=dict)
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    groups: dict[tuple[str, str], list[Trial]] = field(default_factory=dict)
    trials: int = 0
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    progress: Callable[[int, int], None] | None = None
    # The opened trees, closed with the source.
    trees: list[ReleaseSource] = field(default_factory=list)
    # The built attempt folders, made by ``attempts()``, removed by ``close()``.
    spool: UnpackDir | None = None

    @property
    def threshold(self) -> float:
        return self.bench.threshold if self.bench.threshold is not None else 0.0

    @property
    def exceptions_rule(self) -> str:
        return self.bench.exceptions_rule or DEFAULT_EXCEPTIONS_RULE

    def close(self) -> None:
        self.remove_spool()
        for tree in self.trees:
            tree.close()

    def remove_spool(self) -> None:
        """Remove the built attempt folders (again: a no-op)."""
        if self.spool is not None:
            self.spool.remove()

    def attempts(self) -> Iterator[AttemptEntry]:
        """Each trial's attempt, its files already spooled and dropped, with the
        folder that reads them back; the trials of one model on one task come
        together, once all are read (each lists the others). Read once: the
        trials' heads and the input trees are let go as they are built."""
        if self.spool is None:
            self.spool = UnpackDir()
        spool = str(self.spool.unpack)
        done = 0
        for model_id, task_id in sorted(self.groups):
            # A group's trial heads go once its attempts are built: the import holds
            # what it must of every trial until it ends, and no more.
            group = self.groups.pop((model_id, task_id))
            group.sort(key=_order)
            if len(group) > 1:
                self.notes.append(f"{model_id}/{task_id}: {len(group)} trials, each imported")
            built: list[tuple[AttemptFiles, dict, str, _Slot]] = []
            listed = []
            for n, head in enumerate(group):
                slot = _Slot(
                    head,
                    self.bench.id,
                    model_id,
                    task_id,
                    n,
                    len(group),
                    self.threshold,
                    self.exceptions_rule,
                )
                try:
                    attempt = _build(slot, self.scrubbing)
                except TrialProblem as exc:
                    self.problems.append(str(exc))
                    continue
                done += 1
                folder = os.path.join(spool, str(done))
                _spill(folder, attempt.files)
                built.append((attempt, digests_of(attempt.files), folder, slot))
                if self.progress:
                    self.progress(done, self.trials)
                verdict = attempt.verdict or {}
                listed.append(
                    {
                        "trial": n,
                        "trial_name": head.trial_name,
                        "reward": verdict.get("reward"),
                        "exception": head.exception["type"] if head.exception else None,
                    }
                )
                attempt.files = {}  # the trial's bytes go (to the spool); its digests stay
            for attempt, digests, folder, slot in built:
                if len(group) > 1:
                    # Each trial of the group lists them all: its summary is amended
                    # in place, in memory and in the spool.
                    attempt.summary["harbor"]["trials"] = listed
                    summary = attempt.summary_file()
                    digests |= digests_of(summary)
                    _spill_again(folder, summary)
                names = tuple(sorted(digests))
                read = partial(_unspool, folder, names)
                yield attempt.entry(LazyFolder(read, digests, slot.head.label))
        # Every trial is in the spool now: the input trees (and their indexes) go.
        for tree in self.trees:
            tree.close()


def _spill_again(folder: str, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def read_jobs(
    trees: list[tuple[ReleaseSource, str]],
    *,
    bench: str,
    rules: dict[tuple[str, str], ModelRule],
    threshold: float,
    scrubbing: TrialScrub,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    allow_partial: bool = False,
    progress: Callable[[int, int], None] | None = None,
    title: str | None = None,
) -> HarborJobs:
    """Find the trials of ``trees`` and read their result.json (and each job's
    own result.json, its figures set on its models); nothing more."""
    facts = BenchFacts(
        bench,
        title or title_of(bench),
        RULE,
        threshold=threshold,
        exceptions_rule=exceptions_rule,
        published_key=HARBOR_RESULT,
    )
    name = "+".join(label.rsplit("/", 1)[-1] for _, label in trees)
    jobs = HarborJobs(name, facts, scrubbing, progress=progress)
    problems, notes = jobs.problems, jobs.notes
    trials: list[Trial] = []
    evals: list[Eval] = []
    for tree, label in trees:
        found, found_problems, found_notes = find_trials(tree, label, allow_partial=allow_partial)
        problems += found_problems
        notes += found_notes
        evals += read_evals(tree, label, found, threshold=threshold)
        for folder in found:
            try:
                trials.append(read_head(folder, scrubbing))
            except TrialProblem as exc:
                problems.append(str(exc))
    for trial in trials:
        if not trial.finished:
            if allow_partial:
                notes.append(f"{trial.label}: not finished; imported and flagged 'unfinished'")
            else:
                problems.append(
                    f"{trial.label}: {RESULT}: no finished_at: the job is still running "
                    "(--allow-partial imports the finished trials and flags the rest)"
                )
    problems += repeated_trials(trials)
    problems += task_clashes(trials, slugify)
    problems += model_clashes(
        trials,
        lambda t: ModelIdentity(model_of(t, rules).id, (t.model_name, t.agent) in rules),
    )
    task_names: dict[str, str] = {}
    model_of_trial: dict[tuple[str, str], str] = {}
    for trial in trials:
        model = model_of(trial, rules)
        jobs.models.setdefault(model.id, model)
        jobs.groups.setdefault((model.id, slugify(trial.task_name)), []).append(trial)
        task_names.setdefault(slugify(trial.task_name), trial.task_name)
        model_of_trial[(trial.folder.job, trial.trial_name)] = model.id
    by_model, eval_notes = job_figures(evals, model_of_trial)
    notes += eval_notes
    for model_id, figures in by_model.items():
        jobs.models[model_id].published = figures.document()
    jobs.tasks = {
        slug: TaskEntry(slug, name, _surface(trials, name), extra={"harbor_task_name": name})
        for slug, name in sorted(task_names.items())
    }
    jobs.trials = len(trials)
    return jobs
