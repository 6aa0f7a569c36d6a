"""SWE-bench experiments submissions → one release, for the one import pipeline.

The adapter (``formats.sources.swebench_experiments``) gives the models, the
tasks and each attempt with a folder built when read; this module writes the
release's own documents with the Harbor adapter's builders and keeps the
bench's other models unless ``replace``, so the release import checks,
scrubs, previews and writes it. Every refusal is raised together as
``HarborError`` (the pipeline's refusal of adapter input), before anything
could be written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import orjson

from formats.sources import AttemptEntry, SourceError
from formats.sources.swebench_experiments.source import open_trees
from formats.v1.slugs import RESERVED_BENCH_SLUGS, is_slug
from ingest.harbor.attempts import AttemptFiles, dump
from ingest.harbor.build import HarborRelease
from ingest.harbor.errors import HarborError
from ingest.harbor.existing import NotHarborBench, kept_files, kept_models
from ingest.harbor.naming import title_of
from ingest.harbor.release import release_files, task_checks
from ingest.harbor.source import HarborSource, LazyFolder, digests_of
from ingest.progress import Phase, Progress, ProgressCallback
from leaderboard.models import Bench

# Beside it, each row's published_score: the resolved rate the submission states.
PUBLISHED = "x-published"


@dataclass
class ExperimentsRelease(HarborRelease):
    systems: list[str] = field(default_factory=list)


def light(entry: AttemptEntry) -> AttemptFiles:
    """What ``release_files`` needs of an attempt (``AttemptFiles.light``'s shape)."""
    passed = entry.checks_passed
    summary = {
        "flags": list(entry.flags),
        "checks": {
            "total": len(entry.checks),
            "passed": passed,
            "failed": len(entry.checks) - passed,
            "mandatory_failed": entry.mandatory_failed,
        },
        "cost": {"usd": entry.cost_usd},
        "timing": {"finished_at": entry.finished_at, "duration_s": entry.duration_s},
    }
    verdict = None
    if entry.checks:
        verdict = {
            "checks": [{"name": c.name, "level": c.level, "passed": c.passed} for c in entry.checks]
        }
    return AttemptFiles(
        entry.model, entry.task, {}, summary, verdict, entry.score, entry.ticket, entry.trial
    )


def experiments_release(
    trees: list[tuple[Any, str]],
    *,
    bench: str,
    title: str | None = None,
    replace: bool = False,
    scrub: bool = True,
    progress: ProgressCallback | None = None,
) -> ExperimentsRelease:
    """The release of the submissions in ``trees`` (each an opened tree and its label).

    ``scrub``: the import rewrites home paths and internal host names in the
    release's files and reports each (raw submissions have never been through
    an exporter); without it, each one found refuses the import."""
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    try:
        source = open_trees(trees, bench=bench, title=title or title_of(bench))
    except SourceError as exc:
        raise HarborError(exc.problems) from None
    if source.problems:
        raise HarborError(source.problems)
    models, tasks = source.models, source.tasks
    attempts: list[AttemptFiles] = []
    folders: dict[str, Any] = {}
    total = source.total
    for done, entry in enumerate(source.attempts(), 1):
        task = tasks[entry.task]
        if not task.ticket and entry.ticket:
            task.ticket = entry.ticket
        folders[entry.path] = entry.folder
        attempts.append(light(entry))
        if progress:
            progress(Progress(Phase.CHECKING, done, total))
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
        title=title or source.bench.title,
        models=list(models.values()),
        tasks=list(tasks.values()),
        attempts=attempts,
    )
    published = {s.id: s.published for s in source.systems if s.published}
    files["leaderboard.json"] = _with_published(files["leaderboard.json"], published)
    release = HarborSource(name=source.name, files=files, folders=folders, scrubs=scrub)
    return ExperimentsRelease(
        release, total, source.notes, kept, systems=[s.id for s in source.systems]
    )


def _with_published(data: bytes, published: dict[str, dict[str, Any]]) -> bytes:
    """Each row's ``published_score`` (a fraction) and what it came from, where the
    submission publishes one (extension fields beyond v1)."""
    doc = orjson.loads(data)
    for row in doc["rows"]:
        figure = published.get(row["model"])
        if not figure:
            continue
        percent = figure.get("percent")
        if percent is None and figure.get("total"):
            percent = 100 * figure["resolved"] / figure["total"]
        if percent is None and row.get("tasks"):
            # results.json lists the resolved ids, not the split's size: the
            # bench's instances stand for it (swebench.com divides by the split).
            percent = 100 * figure["resolved"] / row["tasks"]
        row["published_score"] = None if percent is None else round(percent / 100, 6)
        row[PUBLISHED] = figure
    return dump(doc)


def describe(release: ExperimentsRelease) -> list[str]:
    lines = [
        f"swe-bench experiments: {len(release.systems)} system(s), {release.trials} attempt(s) read"
    ]
    if release.kept_models:
        lines.append(f"keeping {len(release.kept_models)} model(s) already in the bench")
    return lines + [f"note: {n}" for n in release.notes]
