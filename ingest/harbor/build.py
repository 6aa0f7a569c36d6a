"""Harbor trees → one release: the adapter's entry point.

``harbor_release`` reads the trees in two steps. First every trial's
``result.json`` (already read to find the trials): the bench's models and
tasks, with what makes each one of a kind (``identity``). Then each trial's
other files, one trial at a time: the attempt is built, the small parts the
release's documents need are kept and the rest dropped; the import builds
it again when its turn comes (``source.HarborSource``), so memory does not
grow with the jobs. Every refusal is collected and raised together as
``HarborError``, before anything could be written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import partial

import orjson

from ingest import schema
from ingest.harbor.attempts import AttemptFiles, dump, trial_attempt
from ingest.harbor.errors import HarborError
from ingest.harbor.existing import NotHarborBench, kept_files, kept_models
from ingest.harbor.identity import ModelIdentity, model_clashes, repeated_trials, task_clashes
from ingest.harbor.layout import RESULT, find_trials
from ingest.harbor.release import ModelEntry, TaskEntry, release_files, task_checks
from ingest.harbor.scrubbing import SCRUB_HINT, TrialScrub
from ingest.harbor.source import HarborSource, LazyFolder, digests_of
from ingest.harbor.trial import Trial, TrialProblem, read_head, read_trial
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reader import ReleaseSource
from leaderboard.models import Bench
from leaderboard.scoring import DEFAULT_REWARD_THRESHOLD
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


# How a models file given as its entries (the admin's field) is named in messages.
MODELS_NAME = "models file"


def models_file(entries: list | None) -> tuple[bytes, str] | None:
    """A models file's entries (the admin's field, a job's ``harbor_models``) as
    ``harbor_release`` takes a file."""
    return None if entries is None else (orjson.dumps(entries), MODELS_NAME)


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


def _build(slot: _Slot, scrub: TrialScrub, listed: list[dict] | None) -> AttemptFiles:
    """The attempt of one trial, its files read from the trial folder."""
    trial = read_trial(slot.head, scrub)
    if slot.of > 1:
        trial.notes.append(
            f"{slot.of} trials of this model on this task; this is trial {slot.n} "
            f"({trial.trial_name}; trial 0 is the attempt's own page)"
        )
    attempt = trial_attempt(
        trial, bench=slot.bench, model=slot.model, task=slot.task, threshold=slot.threshold
    )
    attempt.trial = slot.n
    if listed is not None:
        attempt.summary["harbor"]["trials"] = listed
        attempt.refresh()
    return attempt


def _rebuild(slot: _Slot, rewrite: bool, listed: list[dict] | None) -> dict[str, bytes]:
    # Scrubbed again the same way; what it finds was reported the first time.
    return _build(slot, TrialScrub(rewrite=rewrite), listed).files


def harbor_release(
    trees: list[tuple[ReleaseSource, str]],
    *,
    bench: str,
    title: str | None = None,
    models_file: tuple[bytes, str] | None = None,
    threshold: float = DEFAULT_REWARD_THRESHOLD,
    allow_partial: bool = False,
    replace: bool = False,
    scrub: bool = True,
    progress: ProgressCallback | None = None,
) -> HarborRelease:
    """Build the release of ``trees`` (each with the label that names it).

    ``scrub`` rewrites home paths and internal host names in the trials' files
    (listed on the source's ``scrubbed``); without it they are refused.
    ``progress`` hears of each trial read (phase "checking").
    """
    problems: list[str] = []
    notes: list[str] = []
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    if not math.isfinite(threshold) or threshold < 0:
        raise HarborError([f"--pass-threshold {threshold!r}: expected a finite number, 0 or more"])
    rules = read_models_file(*models_file) if models_file else {}
    scrubbing = TrialScrub(rewrite=scrub)
    trials: list[Trial] = []
    for tree, label in trees:
        found, found_problems, found_notes = find_trials(tree, label, allow_partial=allow_partial)
        problems += found_problems
        notes += found_notes
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
        lambda t: ModelIdentity(_model_of(t, rules).id, (t.model_name, t.agent) in rules),
    )
    # Refused or not, every trial is read, so that every problem is reported at once.
    models: dict[str, ModelEntry] = {}
    grouped: dict[tuple[str, str], list[Trial]] = {}
    task_names: dict[str, str] = {}
    for trial in trials:
        model = _model_of(trial, rules)
        models.setdefault(model.id, model)
        grouped.setdefault((model.id, slugify(trial.task_name)), []).append(trial)
        task_names.setdefault(slugify(trial.task_name), trial.task_name)
    tasks = {
        slug: TaskEntry(slug, name, _surface(trials, name), extra={"harbor_task_name": name})
        for slug, name in sorted(task_names.items())
    }
    attempts: list[AttemptFiles] = []  # each without its files (AttemptFiles.light)
    folders: dict[str, LazyFolder] = {}

    def keep(attempt: AttemptFiles, folder: LazyFolder) -> None:
        task = tasks[attempt.task]
        if not task.ticket and attempt.ticket:
            task.ticket = attempt.ticket
        folders[attempt.folder] = folder
        attempts.append(attempt.light())

    done = 0
    for (model_id, task_id), group in sorted(grouped.items()):
        group.sort(key=_order)
        if len(group) > 1:
            notes.append(f"{model_id}/{task_id}: {len(group)} trials, each imported")
        slots = [
            _Slot(t, bench, model_id, task_id, n, len(group), threshold)
            for n, t in enumerate(group)
        ]
        built: list[tuple[AttemptFiles, dict, _Slot]] = []
        listed = []
        for slot in slots:
            try:
                attempt = _build(slot, scrubbing, None)
            except TrialProblem as exc:
                problems.append(str(exc))
                continue
            built.append((attempt, digests_of(attempt.files), slot))
            done += 1
            if progress:
                progress(Progress(Phase.CHECKING, done, len(trials)))
            verdict = attempt.verdict or {}
            listed.append(
                {
                    "trial": slot.n,
                    "trial_name": slot.head.trial_name,
                    "reward": verdict.get("reward"),
                    "exception": slot.head.exception["type"] if slot.head.exception else None,
                }
            )
            attempt.files = {}  # the trial's bytes go; its digests stay
        shown = listed if len(group) > 1 else None
        for attempt, digests, slot in built:
            if shown is not None:
                attempt.summary["harbor"]["trials"] = shown
                digests |= digests_of({"summary.json": dump(attempt.summary)})
            rebuild = partial(_rebuild, slot, scrub, shown)
            keep(attempt, LazyFolder(rebuild, digests, slot.head.label))
    if not scrub and scrubbing.found():
        problems += [f"{finding} (not scrubbed)" for finding in scrubbing.found()]
    if problems:
        hint = SCRUB_HINT if not scrub and scrubbing.found() else ""
        raise HarborError(sorted(set(problems), key=problems.index), hint=hint)

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
        for attempt in kept_attempts:
            rebuild = partial(kept_files, existing, attempt.model, attempt.task, attempt.trial)
            origin = f"bench {bench}: {attempt.folder} (kept)"
            keep(attempt, LazyFolder(rebuild, digests_of(attempt.files), origin))
        title = title or existing.title
    checks = task_checks(attempts)
    for task in tasks.values():
        task.checks = checks.get(task.id, [])
    files = release_files(
        bench=bench,
        title=title or title_of(bench),
        models=list(models.values()),
        tasks=list(tasks.values()),
        attempts=attempts,
    )
    name = "+".join(label.rsplit("/", 1)[-1] for _, label in trees)
    source = HarborSource(
        name=name,
        files=files,
        folders=folders,
        scrubbed=scrubbing.found() if scrub else [],
        scrubs=scrub,
    )
    return HarborRelease(source, len(trials), notes, kept)


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
