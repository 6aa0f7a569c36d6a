"""Harbor trees → one in-memory release: the adapter's entry point.

``harbor_release`` reads every trial of the given trees, maps models and
tasks to release ids, keeps the bench's other models (unless ``replace``)
and returns a ``HarborSource`` for ``ingest.services.release_import``. Every
refusal is collected first and raised together as ``HarborError``, before
anything could be written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest import schema
from ingest.harbor.attempts import AttemptFiles, trial_attempt
from ingest.harbor.errors import HarborError
from ingest.harbor.existing import NotHarborBench, kept_models
from ingest.harbor.job_summary import Eval, job_figures, read_evals
from ingest.harbor.layout import RESULT, find_trials
from ingest.harbor.release import ModelEntry, TaskEntry, release_files, task_checks
from ingest.harbor.source import HarborSource
from ingest.harbor.trial import Trial, TrialProblem, read_trial
from ingest.reader import ReleaseSource
from leaderboard.models import Bench
from leaderboard.scoring import DEFAULT_EXCEPTIONS_RULE, DEFAULT_REWARD_THRESHOLD, EXCEPTIONS_RULES
from leaderboard.slugs import RESERVED_BENCH_SLUGS, is_slug

_NOT_SLUG = re.compile(r"[^a-z0-9._-]+")


def slugify(name: str) -> str:
    """``etl_checkpoint_resume_bug`` -> ``etl-checkpoint-resume-bug``."""
    slug = _NOT_SLUG.sub("-", name.lower().replace("_", "-"))
    slug = re.sub(r"-{2,}", "-", slug).lstrip("._-").rstrip("-")
    return slug[:100].rstrip("-")


def title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in re.split(r"[-_.]+", bench) if part)


@dataclass
class ModelRule:
    id: str
    display_name: str | None = None
    provider: str | None = None


@dataclass
class HarborRelease:
    source: HarborSource
    trials: int
    notes: list[str] = field(default_factory=list)
    kept_models: list[str] = field(default_factory=list)


def read_models_file(data: bytes, name: str) -> dict[tuple[str, str], ModelRule]:
    """--models FILE: a JSON list of {model_name, agent, id, display_name?, provider?}."""
    try:
        doc = schema.parse_json(data)
    except ValueError as exc:
        raise HarborError([f"{name}: {exc}"]) from None
    if not isinstance(doc, list):
        raise HarborError([f"{name}: expected a JSON list of model entries"])
    rules: dict[tuple[str, str], ModelRule] = {}
    problems = []
    for i, entry in enumerate(doc):
        where = f"{name}: [{i}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: expected an object")
            continue
        for key in ("model_name", "agent", "id"):
            if not isinstance(entry.get(key), str):
                problems.append(f"{where}.{key}: expected a string")
        for key in ("display_name", "provider"):
            if key in entry and not isinstance(entry[key], str):
                problems.append(f"{where}.{key}: expected a string")
        if problems:
            continue
        if not is_slug(entry["id"]):
            problems.append(f"{where}.id: {entry['id']!r} is not a valid id")
            continue
        key = (entry["model_name"], entry["agent"])
        if key in rules:
            problems.append(f"{where}: a second entry for model {key[0]!r} in {key[1]!r}")
        rules[key] = ModelRule(entry["id"], entry.get("display_name"), entry.get("provider"))
    if problems:
        raise HarborError(problems)
    return rules


def _model_of(trial: Trial, rules: dict[tuple[str, str], ModelRule]) -> ModelEntry:
    rule = rules.get((trial.model_name, trial.agent))
    shown = trial.model_name or trial.agent
    if rule is not None:
        return ModelEntry(
            rule.id,
            rule.display_name or shown,
            trial.agent,
            rule.provider if rule.provider is not None else trial.provider,
        )
    ident = slugify(f"{trial.model_name}-{trial.agent}" if trial.model_name else trial.agent)
    return ModelEntry(ident, shown, trial.agent, trial.provider)


def _order(trial: Trial) -> tuple[str, str]:
    return (trial.started_at or "", trial.trial_name)


def harbor_release(
    trees: list[tuple[ReleaseSource, str]],
    *,
    bench: str,
    title: str | None = None,
    models_file: tuple[bytes, str] | None = None,
    threshold: float = DEFAULT_REWARD_THRESHOLD,
    allow_partial: bool = False,
    replace: bool = False,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> HarborRelease:
    """Build the release of ``trees`` (each with the label that names it);
    ``exceptions_rule`` scores the trials that raised (leaderboard.scoring)."""
    if exceptions_rule not in EXCEPTIONS_RULES:
        raise HarborError(
            [f"--exceptions {exceptions_rule!r}: expected one of {', '.join(EXCEPTIONS_RULES)}"]
        )
    problems: list[str] = []
    notes: list[str] = []
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    rules = read_models_file(*models_file) if models_file else {}
    trials: list[Trial] = []
    evals: list[Eval] = []
    for tree, label in trees:
        found, found_problems, found_notes = find_trials(tree, label, allow_partial=allow_partial)
        problems += found_problems
        notes += found_notes
        evals += read_evals(tree, label, found, threshold=threshold)
        for folder in found:
            try:
                trials.append(read_trial(folder))
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
    task_names: dict[str, str] = {}
    for trial in sorted(trials, key=lambda t: t.task_name):
        slug = slugify(trial.task_name)
        if not is_slug(slug):
            problems.append(f"{trial.label}: {RESULT}: task_name {trial.task_name!r} gives no id")
        elif task_names.setdefault(slug, trial.task_name) != trial.task_name:
            problems.append(
                f"tasks {task_names[slug]!r} and {trial.task_name!r} both give the id {slug!r}"
            )
    if problems:
        raise HarborError(sorted(set(problems), key=problems.index))

    models: dict[str, ModelEntry] = {}
    grouped: dict[tuple[str, str], list[Trial]] = {}
    model_of_trial: dict[tuple[str, str], str] = {}
    for trial in trials:
        model = _model_of(trial, rules)
        models.setdefault(model.id, model)
        grouped.setdefault((model.id, slugify(trial.task_name)), []).append(trial)
        model_of_trial[(trial.folder.job, trial.trial_name)] = model.id
    by_model, eval_notes = job_figures(evals, model_of_trial)
    notes += eval_notes
    for model_id, figures in by_model.items():
        models[model_id].harbor_result = figures.document()
    attempts: list[AttemptFiles] = []
    for (model_id, task_id), group in sorted(grouped.items()):
        group.sort(key=_order)
        # Several trials (n_attempts): the first is the attempt folder, trial n
        # its trials/<n>/ folder, each with a page of its own (docs/harbor.md).
        listed = [
            {
                "trial": n,
                "trial_name": t.trial_name,
                "reward": t.reward,
                "exception": t.exception["type"] if t.exception else None,
            }
            for n, t in enumerate(group)
        ]
        if len(group) > 1:
            notes.append(f"{model_id}/{task_id}: {len(group)} trials, each imported")
        for n, trial in enumerate(group):
            if len(group) > 1:
                trial.notes.append(
                    f"{len(group)} trials of this model on this task; this is trial {n} "
                    f"({trial.trial_name}; trial 0 is the attempt's own page)"
                )
            attempt = trial_attempt(
                trial,
                bench=bench,
                model=model_id,
                task=task_id,
                threshold=threshold,
                exceptions_rule=exceptions_rule,
            )
            attempt.trial = n
            if len(group) > 1:
                attempt.summary["harbor"]["trials"] = listed
                attempt.refresh()
            attempts.append(attempt)
    tasks = {
        slugify(name): TaskEntry(
            slugify(name), name, _surface(trials, name), extra={"harbor_task_name": name}
        )
        for name in task_names.values()
    }
    existing = Bench.objects.filter(slug=bench).first()
    kept: list[str] = []
    if existing is not None and not replace:
        try:
            kept_entries, kept_tasks, kept_attempts = kept_models(existing, set(models))
        except NotHarborBench as exc:
            raise HarborError([str(exc)]) from None
        for entry in kept_entries:
            models[entry.id] = entry
            kept.append(entry.id)
        for task in kept_tasks:
            tasks.setdefault(task.id, task)
        attempts += kept_attempts
        title = title or existing.title
    for attempt in attempts:
        task = tasks[attempt.task]
        if not task.ticket and attempt.ticket:
            task.ticket = attempt.ticket
    checks = task_checks(attempts)
    for task in tasks.values():
        task.checks = checks.get(task.id, [])
    files = release_files(
        bench=bench,
        title=title or title_of(bench),
        models=list(models.values()),
        tasks=list(tasks.values()),
        attempts=attempts,
        exceptions_rule=exceptions_rule,
    )
    name = "+".join(label.rsplit("/", 1)[-1] for _, label in trees)
    return HarborRelease(HarborSource(name=name, files=files), len(trials), notes, kept)


def _surface(trials: list[Trial], name: str) -> str:
    """A task's surface: the Harbor dataset it came from, where the trial says."""
    for trial in trials:
        if trial.task_name == name and trial.dataset:
            return trial.dataset
    return "harbor"


def describe(release: HarborRelease) -> list[str]:
    lines = [f"harbor: {release.trials} trial(s) read"]
    if release.kept_models:
        lines.append(f"harbor: keeping {len(release.kept_models)} model(s) already in the bench")
    return lines + [f"note: {n}" for n in release.notes]
