"""SWE-bench experiments submissions → one release: the adapter's entry point.

Every submission folder of the trees is a model of the bench (its id the
folder name); every instance any of them reports is a task. Each attempt
folder is built, hashed and dropped, and built again when the import reads
it (``ingest.harbor.source``), so memory does not grow with the submissions.
Other models already in the bench are kept unless ``replace``. Every
refusal is collected and raised together as ``HarborError`` (the import
pipeline's refusal of adapter input), before anything could be written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import orjson

from formats.sources.swebench_experiments import ExperimentsError, System, read_systems
from formats.sources.swebench_experiments.systems import slug
from formats.v1.slugs import RESERVED_BENCH_SLUGS, is_slug
from ingest.harbor.attempts import AttemptFiles, dump
from ingest.harbor.build import HarborRelease
from ingest.harbor.errors import HarborError
from ingest.harbor.existing import NotHarborBench, kept_files, kept_models
from ingest.harbor.naming import title_of
from ingest.harbor.release import ModelEntry, TaskEntry, release_files, task_checks
from ingest.harbor.scrubbing import SCRUB_HINT, TrialScrub
from ingest.harbor.source import HarborSource, LazyFolder, digests_of
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.swebench.attempts import _Cache, instance_attempt
from leaderboard.models import Bench

PUBLISHED = "x-published"


@dataclass
class ExperimentsRelease(HarborRelease):
    systems: list[str] = field(default_factory=list)


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
    entry = ModelEntry(
        system.id,
        meta.name or system.folder,
        meta.name or system.folder,
        ", ".join(meta.models)[:100],
        {k: v for k, v in facts.items() if v is not None},
    )
    published = system.published
    if published and isinstance(published.get("resolved"), int):
        # Compared with the site's own figures like a Harbor job's result.json.
        figure: dict[str, Any] = {"jobs": [published["source"]], "passed": published["resolved"]}
        if isinstance(published.get("total"), int) and published["total"]:
            figure["trials"] = published["total"]
            figure["mean"] = published["resolved"] / published["total"]
        entry.published = figure
    return entry


def experiments_release(
    trees: list[tuple[Any, str]],
    *,
    bench: str,
    title: str | None = None,
    replace: bool = False,
    scrub: bool = True,
    progress: ProgressCallback | None = None,
) -> ExperimentsRelease:
    """The release of the submissions in ``trees`` (each an opened tree and its label)."""
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    try:
        systems, notes = read_systems(trees)
    except ExperimentsError as exc:
        raise HarborError(exc.problems) from None
    scrubbing = TrialScrub(rewrite=scrub)
    models = {s.id: model_entry(s) for s in systems}
    tasks: dict[str, TaskEntry] = {}
    problems: list[str] = []
    named: dict[str, str] = {}
    for system in systems:
        for instance in system.instances:
            ident = task_id(instance)
            if named.setdefault(ident, instance) != instance:
                problems.append(
                    f"{system.label}: instances {named[ident]!r} and {instance!r} "
                    f"give the same task id {ident!r}"
                )
            tasks.setdefault(
                ident, TaskEntry(ident, instance, "swe-bench", extra={"instance_id": instance})
            )
    attempts: list[AttemptFiles] = []
    folders: dict[str, LazyFolder] = {}
    total = sum(len(s.instances) for s in systems)
    cache = _Cache()

    def build(system: System, instance: str, rewrite: bool) -> dict[str, bytes]:
        # Scrubbed again the same way (what it finds was reported the first
        # time), or only looked at where the first time found nothing.
        return instance_attempt(
            system,
            system.instances[instance],
            bench=bench,
            task=task_id(instance),
            scrub=TrialScrub(rewrite=rewrite),
            cache=cache,
        ).files

    done = 0
    for system in systems:
        for instance in sorted(system.instances):
            before = scrubbing.total
            attempt = instance_attempt(
                system,
                system.instances[instance],
                bench=bench,
                task=task_id(instance),
                scrub=scrubbing,
                cache=cache,
            )
            rewrites = scrub and scrubbing.total != before
            task = tasks[attempt.task]
            if not task.ticket and attempt.ticket:
                task.ticket = attempt.ticket
            folders[attempt.folder] = LazyFolder(
                partial(build, system, instance, rewrites),
                digests_of(attempt.files),
                f"{system.label}: {instance}",
            )
            attempts.append(attempt.light())
            done += 1
            if progress:
                progress(Progress(Phase.CHECKING, done, total))
    if not scrub and scrubbing.found():
        problems += [f"{finding} (not scrubbed)" for finding in scrubbing.found()]
    if problems:
        raise HarborError(problems, hint=SCRUB_HINT if not scrub and scrubbing.found() else "")
    kept: list[str] = []
    existing = Bench.objects.filter(slug=bench).first()
    if existing is not None and not replace:
        try:
            kept_entries, kept_tasks, kept_attempts = kept_models(existing, set(models), "harbor")
        except NotHarborBench as exc:
            raise HarborError([str(exc)]) from None
        for entry in kept_entries:
            models[entry.id] = entry
            kept.append(entry.id)
        for task in kept_tasks:
            task.extra = {"instance_id": task.title}
            tasks.setdefault(task.id, task)
        for attempt in kept_attempts:
            rebuild = partial(
                kept_files, existing, attempt.model, attempt.task, attempt.trial, "harbor"
            )
            origin = f"bench {bench}: {attempt.folder} (kept)"
            folders[attempt.folder] = LazyFolder(rebuild, digests_of(attempt.files), origin)
            attempts.append(attempt.light())
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
    files["leaderboard.json"] = _with_published(files["leaderboard.json"], systems)
    name = "+".join(label.rsplit("/", 1)[-1] for _, label in trees)
    source = HarborSource(
        name=name,
        files=files,
        folders=folders,
        scrubbed=scrubbing.found() if scrub else [],
        scrubs=scrub,
    )
    return ExperimentsRelease(source, done, notes, kept, systems=[s.id for s in systems])


def _with_published(data: bytes, systems: list[System]) -> bytes:
    """Each row's ``published_score`` (a fraction) and what it came from, where the
    submission publishes one (extension fields beyond v1)."""
    doc = orjson.loads(data)
    by_id = {s.id: s.published for s in systems if s.published}
    for row in doc["rows"]:
        published = by_id.get(row["model"])
        if not published:
            continue
        percent = published.get("percent")
        if percent is None and published.get("total"):
            percent = 100 * published["resolved"] / published["total"]
        if percent is None and row.get("tasks"):
            # results.json lists the resolved ids, not the split's size: the
            # bench's instances stand for it (swebench.com divides by the split).
            percent = 100 * published["resolved"] / row["tasks"]
        row["published_score"] = None if percent is None else round(percent / 100, 6)
        row[PUBLISHED] = published
    return dump(doc)


def describe(release: ExperimentsRelease) -> list[str]:
    lines = [
        f"swe-bench experiments: {len(release.systems)} system(s), {release.trials} attempt(s) read"
    ]
    if release.kept_models:
        lines.append(f"keeping {len(release.kept_models)} model(s) already in the bench")
    return lines + [f"note: {n}" for n in release.notes]
