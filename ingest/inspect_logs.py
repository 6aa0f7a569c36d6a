"""Inspect logs through the release import, until the generic pipeline of
issue #32 takes every ``ResultsSource``: the adapter's attempts become the
attempt folders of a release, its documents figured by the Harbor adapter's
code (``ingest.harbor.release``), so the import checks, scrubs, previews and
writes them as it does Harbor jobs.

The leaderboard row of each model carries the log header's metric as its
``score`` (the published figure, which the import compares with its own
recomputation and stores where they differ, as for a v1 release) and the
header's metrics whole under ``x-inspect-results``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import orjson

from formats.sources.inspect_logs import InspectLogsAdapter
from formats.sources.protocol import AttemptEntry, ImportOptions, SourceError
from ingest.harbor.attempts import AttemptFiles, dump
from ingest.harbor.errors import HarborError
from ingest.harbor.release import ModelEntry, TaskEntry, release_files, task_checks
from ingest.harbor.scrubbing import SCRUB_HINT, TrialScrub
from ingest.harbor.source import HarborSource, LazyFolder, digests_of
from leaderboard.slugs import RESERVED_BENCH_SLUGS, is_slug

SCRUBBED_FILES = ("transcript.jsonl", "problem.md", "verdict.json", "summary.json")


def _light(entry: AttemptEntry) -> AttemptFiles:
    """What ``release_files`` needs of an attempt, as the Harbor adapter keeps it."""
    summary = {
        "flags": list(entry.flags),
        "checks": {
            "total": len(entry.checks),
            "passed": entry.checks_passed,
            "failed": len(entry.checks) - entry.checks_passed,
            "mandatory_failed": entry.mandatory_failed,
        },
        "cost": {"usd": entry.cost_usd},
        "timing": {"finished_at": entry.finished_at, "duration_s": entry.duration_s},
    }
    verdict = {
        "checks": [{"name": c.name, "level": c.level, "passed": c.passed} for c in entry.checks]
    }
    return AttemptFiles(entry.model, entry.task, {}, summary, verdict, entry.score, "", entry.trial)


def _scrubbed(
    build: Callable[[], dict[str, bytes]], origin: str, scrubbing: TrialScrub
) -> Callable[[], dict[str, bytes]]:
    def run() -> dict[str, bytes]:
        files = build()
        return {
            name: scrubbing.data(origin, name, data) if name in SCRUBBED_FILES else data
            for name, data in files.items()
        }

    return run


def inspect_release(
    paths: list[Path],
    *,
    bench: str,
    title: str | None = None,
    threshold: float = 1.0,
    scrub: bool = True,
) -> tuple[HarborSource, list[str]]:
    """The release of the Inspect logs under ``paths`` and the notes to show;
    ``HarborError`` with every problem found, before anything is written."""
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    options = ImportOptions(bench=bench, title=title, threshold=threshold, scrub=scrub)
    try:
        source = InspectLogsAdapter().open(paths, options=options)
    except SourceError as exc:
        raise HarborError(exc.problems) from None
    scrubbing = TrialScrub(rewrite=scrub)
    attempts: list[AttemptFiles] = []
    folders: dict[str, LazyFolder] = {}
    try:
        for entry in source.attempts():
            build = _scrubbed(entry.folder.build, entry.folder.origin, scrubbing)
            folders[entry.path] = LazyFolder(build, digests_of(build()), entry.folder.origin)
            attempts.append(_light(entry))
            task = source.tasks[entry.task]
            if not task.ticket and entry.ticket:
                task.ticket = entry.ticket
    except SourceError as exc:
        source.problems += exc.problems
    problems = list(source.problems)
    if not scrub and scrubbing.found():
        problems += [f"{finding} (not scrubbed)" for finding in scrubbing.found()]
    if problems:
        hint = SCRUB_HINT if not scrub and scrubbing.found() else ""
        raise HarborError(sorted(set(problems), key=problems.index), hint=hint)
    checks = task_checks(attempts)
    models = [
        ModelEntry(m.id, m.display_name, m.harness, m.provider, dict(m.extra))
        for m in source.models.values()
    ]
    tasks = [
        TaskEntry(t.id, t.title, t.surface, t.ticket, checks.get(t.id, []), dict(t.extra))
        for t in source.tasks.values()
    ]
    files = release_files(
        bench=source.bench.id,
        title=source.bench.title,
        models=models,
        tasks=tasks,
        attempts=attempts,
    )
    board = orjson.loads(files["leaderboard.json"])
    for row in board["rows"]:
        published = source.models[row["model"]].published
        if published is None:
            continue
        row[source.bench.published_key] = published
        if published.get("score") is not None:
            row["score"] = published["score"]
    files["leaderboard.json"] = dump(board)
    release = HarborSource(
        name=source.name,
        files=files,
        folders=folders,
        scrubbed=scrubbing.found() if scrub else [],
        scrubs=scrub,
    )
    notes = [f"inspect: {len(attempts)} trial(s) of {len(source.models)} model(s) read"]
    notes += [f"note: {n}" for n in source.notes]
    source.close()
    return release, notes
