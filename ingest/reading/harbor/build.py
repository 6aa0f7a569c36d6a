"""Harbor trees → one release: the adapter's entry point.

``harbor_release`` reads the jobs (``stream``: the models and tasks, then
each attempt one at a time, its files dropped once hashed), keeps the bench's
other models (unless ``replace``), and writes the release's own documents
from the small parts kept. The ``HarborSource`` it returns builds each
attempt folder again when the import reads it, so memory does not grow with
the jobs. Every refusal is collected and raised together as ``HarborError``,
before anything could be written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from formats.reader import ReleaseSource
from formats.sources import AttemptEntry, LazyFolder, ResultsSource, digests_of
from formats.sources.harbor.adapter import open_jobs
from formats.sources.harbor.errors import HarborError
from formats.sources.harbor.release import release_files, task_checks
from formats.sources.harbor.scrubbing import SCRUB_HINT
from formats.sources.published import published_only_problems
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE, DEFAULT_REWARD_THRESHOLD
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reading.harbor.existing import NotHarborBench, kept_files, kept_models
from ingest.reading.harbor.source import HarborSource
from leaderboard.models import Bench


@dataclass
class HarborRelease:
    source: HarborSource
    trials: int
    notes: list[str] = field(default_factory=list)
    kept_models: list[str] = field(default_factory=list)


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
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> HarborRelease:
    """Build the release of ``trees`` (each with the label that names it).

    ``scrub`` rewrites home paths and internal host names in the trials' files
    (listed on the source's ``scrubbed``); without it they are refused.
    ``progress`` hears of each trial read (phase "checking").
    ``exceptions_rule`` scores the trials that raised (formats.v1.scoring).
    """
    jobs = open_jobs(
        trees,
        bench=bench,
        title=title,
        models_file=models_file,
        threshold=threshold,
        allow_partial=allow_partial,
        scrub=scrub,
        progress=None
        if progress is None
        else lambda done, total: progress(Progress(Phase.CHECKING, done, total)),
        exceptions_rule=exceptions_rule,
    )
    try:
        return release_of(jobs, replace=replace, title_given=bool(title))
    except BaseException:
        jobs.remove_spool()  # refused: no source to close, so its spool goes now
        raise


def release_of(
    results: ResultsSource, *, replace: bool = False, title_given: bool = True
) -> HarborRelease:
    """The release built from a source of results: its attempts read one at a
    time (each kept light, its folder read again when the import reads it),
    the bench's other models kept (unless ``replace``), and the release's own
    documents written from the light entries. Every problem is raised together
    as HarborError before anything could be written."""
    facts = results.bench
    models, tasks = results.models, results.tasks
    attempts: list[AttemptEntry] = []  # each without its files
    folders: dict[str, LazyFolder] = {}

    def keep(attempt: AttemptEntry) -> None:
        task = tasks[attempt.task]
        if not task.ticket and attempt.ticket:
            task.ticket = attempt.ticket
        folders[attempt.path] = attempt.folder
        attempts.append(attempt)

    # Refused or not, every attempt is read, so that every problem is reported at once.
    for attempt in results.attempts():
        keep(attempt)
    scrubbing = getattr(results, "scrubbing", None)
    scrub = scrubbing is None or scrubbing.rewrite
    problems = results.problems
    problems += published_only_problems(models.values(), {a.model for a in attempts})
    if not scrub and scrubbing.found():
        problems += [f"{finding} (not scrubbed)" for finding in scrubbing.found()]
    if problems:
        hint = SCRUB_HINT if not scrub and scrubbing.found() else ""
        raise HarborError(sorted(set(problems), key=problems.index), hint=hint)

    title = facts.title
    exceptions_rule = facts.exceptions_rule or DEFAULT_EXCEPTIONS_RULE
    existing = Bench.objects.filter(slug=facts.id).first()
    kept: list[str] = []
    if existing is not None and not replace:
        try:
            kept_entries, kept_tasks, kept_attempts = kept_models(
                existing, set(models), exceptions_rule
            )
        except NotHarborBench as exc:
            raise HarborError([str(exc)]) from None
        for entry in kept_entries:
            models[entry.id] = entry
            kept.append(entry.id)
        for task in kept_tasks:
            tasks.setdefault(task.id, task)
        for attempt in kept_attempts:
            rebuild = partial(
                kept_files, existing, attempt.model, attempt.task, attempt.trial, exceptions_rule
            )
            origin = f"bench {facts.id}: {attempt.folder} (kept)"
            keep(attempt.entry(LazyFolder(rebuild, digests_of(attempt.files), origin)))
        if not title_given:
            title = existing.title
    checks = task_checks(attempts)
    for task in tasks.values():
        task.checks = checks.get(task.id, [])
    files = release_files(
        bench=facts.id,
        title=title,
        models=list(models.values()),
        tasks=list(tasks.values()),
        attempts=attempts,
        exceptions_rule=exceptions_rule,
        scoring_rule=facts.scoring_rule,
        published_key=facts.published_key,
    )
    source = HarborSource(
        name=results.name,
        files=files,
        folders=folders,
        scrubbed=scrubbing.found() if scrubbing is not None and scrub else [],
        scrubs=scrub,
        # The built folders it reads go with it, however the import ends.
        on_close=getattr(results, "remove_spool", None),
    )
    return HarborRelease(source, getattr(results, "trials", len(attempts)), results.notes, kept)


def describe(release: HarborRelease) -> list[str]:
    lines = [f"harbor: {release.trials} trial(s) read"]
    if release.kept_models:
        lines.append(f"harbor: keeping {len(release.kept_models)} model(s) already in the bench")
    return lines + [f"note: {n}" for n in release.notes]
