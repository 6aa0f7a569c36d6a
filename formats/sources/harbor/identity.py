"""What makes a trial, a task and a model one of a kind, checked before anything is read.

A trial given twice (``import_harbor job1 job1``, or a copy of a job beside
it) would count twice; two task names or two models (Harbor's identity is
the model name with the agent) that give the same id would merge into one
row. Each is refused, naming the folders, once per cause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from formats.sources.harbor.layout import RESULT
from formats.sources.harbor.trial import Trial
from formats.v1.slugs import is_slug


def _job_of(trial: Trial) -> str:
    label = trial.label
    return label.rsplit("/", 1)[0] if "/" in label else label


def _trial_key(trial: Trial) -> tuple[str, ...]:
    # Harbor gives every trial an id; without one, its name and start tell it.
    if trial.trial_id:
        return ("id", trial.trial_id)
    return ("name", trial.trial_name, trial.task_name, trial.started_at or "")


def repeated_trials(trials: list[Trial]) -> list[str]:
    """One problem per pair of job folders holding the same trials."""
    first: dict[tuple[str, ...], Trial] = {}
    pairs: dict[tuple[str, str], list[str]] = {}
    for trial in trials:
        seen = first.setdefault(_trial_key(trial), trial)
        if seen is not trial:
            pair = tuple(sorted((_job_of(seen), _job_of(trial))))
            pairs.setdefault(pair, []).append(trial.trial_name)
    problems = []
    for (a, b), names in pairs.items():
        where = f"{a} (given twice)" if a == b else f"{a} and {b}"
        problems.append(
            f"{where}: {len(names)} trial(s) given twice (first: {names[0]!r}, by its "
            f"{RESULT} id): a trial counts once, so give each job once"
        )
    return problems


def task_clashes(trials: list[Trial], slugify: Callable[[str], str]) -> list[str]:
    """Task names with no id, or two names giving the same id."""
    problems = []
    names: dict[str, Trial] = {}
    for trial in sorted(trials, key=lambda t: t.task_name):
        slug = slugify(trial.task_name)
        if not is_slug(slug):
            problems.append(f"{trial.label}: {RESULT}: task_name {trial.task_name!r} gives no id")
            continue
        seen = names.setdefault(slug, trial)
        if seen.task_name != trial.task_name:
            problems.append(
                f"tasks {seen.task_name!r} and {trial.task_name!r} both give the id {slug!r} "
                f"({seen.label} and {trial.label})"
            )
    return sorted(set(problems), key=problems.index)


@dataclass(frozen=True)
class ModelIdentity:
    id: str
    explicit: bool  # given by the models file: several names may share it on purpose


def model_clashes(trials: list[Trial], identify: Callable[[Trial], ModelIdentity]) -> list[str]:
    """Two (model name, agent) pairs whose ids are made alike from their names."""
    first: dict[str, Trial] = {}
    problems: dict[tuple[str, str, str], str] = {}
    for trial in trials:
        ident = identify(trial)
        if ident.explicit:
            continue
        seen = first.setdefault(ident.id, trial)
        mine, theirs = (trial.model_name, trial.agent), (seen.model_name, seen.agent)
        if mine != theirs:
            key = (ident.id, *sorted([repr(mine), repr(theirs)]))
            a, b = sorted((seen, trial), key=lambda t: (t.model_name, t.agent, t.label))
            problems.setdefault(
                key,
                f"models {a.model_name!r} ({a.agent}, in {a.label}) and "
                f"{b.model_name!r} ({b.agent}, in {b.label}) both give the id "
                f"{ident.id!r}: they would merge into one row; give each its own id "
                "in a --models file",
            )
    return list(problems.values())
