"""A ``ResultsSource`` (formats.sources) → the release files the one import reads.

The source's attempts are read once, one at a time: each is kept light (what
the derived documents need) with its ``LazyFolder``, which builds the
attempt's files again when the import reads them, so memory does not grow
with the source. The derived documents (manifest, leaderboard, matrix,
models/, tasks/) are figured with the site's own scoring code
(``ingest.harbor.release``), the bench's other models kept unless
``replace`` (as for Harbor jobs). Each model's published figures go into
its leaderboard row: under ``x-harbor-result`` (``passed``, ``mean``), which
the site compares with its own and shows where they differ, and under the
source's key whole (``published_key``), with ``published_score`` and the
site's ``pass_at_k`` beside them.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import orjson

from formats.sources.protocol import ResultsSource
from ingest.harbor.attempts import AttemptFiles, dump
from ingest.harbor.errors import HarborError
from ingest.harbor.existing import NotHarborBench, kept_files, kept_models
from ingest.harbor.release import ModelEntry, TaskEntry, release_files, task_checks
from ingest.harbor.source import HarborSource, LazyFolder, digests_of
from leaderboard import jsonsafe
from leaderboard.extras import item_key
from leaderboard.models import Bench
from leaderboard.scoring import (
    DEFAULT_EXCEPTIONS_RULE,
    Cell,
    competition_ranks,
    pass_k_figures,
    task_outcomes,
)


def _light(entry) -> AttemptFiles:
    passed = sum(1 for c in entry.checks if c.passed)
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
    verdict = {
        "checks": [{"name": c.name, "level": c.level, "passed": c.passed} for c in entry.checks]
    }
    return AttemptFiles(
        entry.model, entry.task, {}, summary, verdict if entry.checks else None, entry.score,
        entry.ticket, entry.trial,
    )  # fmt: skip


# A row's published figure, beside the source's own key (docs/statistics.md).
PUBLISHED_FIELDS = ("published_score", "published_only", "published_precision")
# What the site compares of a published figure (leaderboard.harbor_result).
COMPARED = ("jobs", "trials", "passed", "mean", "errors")


def _compared(published: dict[str, Any] | None) -> dict[str, Any] | None:
    if published is None or all(published.get(k) is None for k in COMPARED):
        return None
    return {k: published.get(k) for k in COMPARED}


def _kept_extras(bench: Bench, key: str) -> dict[str, dict[str, Any]]:
    """What each kept model's row carried beyond the compared figures."""
    rows = (bench.extras.get("leaderboard.json") or {}).get("rows", {}).get("__items__", {})
    found = {}
    for model in bench.models.values_list("slug", flat=True):
        extra = jsonsafe.unpack(rows.get(item_key(model), {}).get("__extra__", {}))
        if isinstance(extra, dict):
            found[model] = {k: extra[k] for k in (key, *PUBLISHED_FIELDS) if k in extra}
    return found


def _rows_with_published(
    files: dict[str, bytes], attempts: list[AttemptFiles], extras: dict[str, dict[str, Any]]
) -> None:
    """leaderboard.json's rows with each model's published figures and the site's pass@k."""
    doc = orjson.loads(files["leaderboard.json"])
    matrix = orjson.loads(files["matrix.json"])
    tasks = [t["id"] for t in matrix["tasks"]]
    by_cell: dict[tuple[str, str], list[float]] = {}
    for a in sorted(attempts, key=lambda a: a.trial):
        counted = "left-out" not in a.flags
        by_cell.setdefault((a.model, a.task), []).append(a.score if counted else None)
    for row in doc["rows"]:
        model = row["model"]
        row.update(extras.get(model, {}))
        if row.get("published_only"):
            continue  # no per-task results: no pass@k
        cells = {}
        for task in tasks:
            scores = by_cell.get((model, task))
            if scores:
                first, *more = scores
                flags = () if first is not None else ("left-out",)
                cells[task] = Cell(first or 0.0, flags, True, trials=tuple(more))
        outcomes = task_outcomes(cells, tasks)
        most = max((n for n, _ in outcomes), default=0)
        if most > 1:
            row["pass_at_k"] = pass_k_figures(outcomes, most).at
    _rank_published_only(doc["rows"])
    files["leaderboard.json"] = dump(doc)


def _rank_published_only(rows: list[dict[str, Any]]) -> None:
    """Rank the rows as the site will: a published-only row by its published
    score (docs/statistics.md), so no other row's rank seems to disagree."""
    if not any(r.get("published_only") for r in rows):
        return
    placed = {
        r["model"]: r["published_score"] if r.get("published_only") else r["score"] for r in rows
    }
    ranks = dict(competition_ranks(list(placed.items())))
    for row in rows:
        row["rank"] = ranks[row["model"]]
    rows.sort(key=lambda r: (r["rank"], r["model"]))


def _dated_by_models(files: dict[str, bytes], models) -> None:
    """A release with no attempt (only published scores) is dated by its
    models' latest results date, not the epoch."""
    dates = [m.extra.get("results_date") for m in models]
    dates = [d for d in dates if isinstance(d, str) and len(d) == 10]
    if not dates:
        return
    day = max(dates)
    for name in ("manifest.json", "leaderboard.json", "matrix.json"):
        doc = orjson.loads(files[name])
        doc["revision"] = day
        if name == "manifest.json":
            doc["generated_at"] = f"{day}T00:00:00Z"
        files[name] = dump(doc)


def source_release(
    source: ResultsSource, *, replace: bool = False, scrubbed: bool = True
) -> tuple[HarborSource, int]:
    """The release of ``source`` and how many attempts it read; HarborError
    with every problem when the source has any."""
    facts = source.bench
    rule = facts.exceptions_rule or DEFAULT_EXCEPTIONS_RULE
    models = {
        m.id: ModelEntry(
            m.id, m.display_name, m.harness, m.provider, dict(m.extra), _compared(m.published)
        )
        for m in source.models.values()
    }
    tasks = {
        t.id: TaskEntry(t.id, t.title, t.surface, t.ticket, [], dict(t.extra))
        for t in source.tasks.values()
    }
    extras: dict[str, dict[str, Any]] = {}
    for m in source.models.values():
        if m.published is not None and facts.published_key:
            extras[m.id] = {facts.published_key: m.published}
            if m.published.get("accuracy") is not None:
                extras[m.id]["published_score"] = m.published["accuracy"]
        if m.published_score is not None:
            extras.setdefault(m.id, {})["published_score"] = m.published_score
        if m.published_precision is not None:
            extras.setdefault(m.id, {})["published_precision"] = m.published_precision
        if m.published_only:
            if m.published_score is None:
                source.problems.append(f"model {m.id}: published only, but no published score")
            extras.setdefault(m.id, {})["published_only"] = True
    attempts: list[AttemptFiles] = []
    folders: dict[str, LazyFolder] = {}
    for entry in source.attempts():
        light = _light(entry)
        attempts.append(light)
        folders[light.folder] = LazyFolder(
            entry.folder.build, entry.folder.digests, entry.folder.origin
        )
    if source.problems:
        problems = source.problems
        raise HarborError(sorted(set(problems), key=problems.index))
    existing = Bench.objects.filter(slug=facts.id).first()
    title = facts.title
    if existing is not None and not replace:
        try:
            kept_entries, kept_tasks, kept_attempts = kept_models(existing, set(models), rule)
        except NotHarborBench as exc:
            raise HarborError([str(exc)]) from None
        kept_extra = _kept_extras(existing, facts.published_key or "")
        for entry in kept_entries:
            models[entry.id] = entry
            extras[entry.id] = kept_extra.get(entry.id, {})
        for task in kept_tasks:
            tasks.setdefault(task.id, task)
        for attempt in kept_attempts:
            rebuild = partial(
                kept_files, existing, attempt.model, attempt.task, attempt.trial, rule
            )
            origin = f"bench {facts.id}: {attempt.folder} (kept)"
            folders[attempt.folder] = LazyFolder(rebuild, digests_of(attempt.files), origin)
            attempts.append(attempt.light())
        title = existing.title if not source.bench.title else title
    checks = task_checks(attempts)
    for task in tasks.values():
        task.checks = checks.get(task.id, [])
    files = release_files(
        bench=facts.id,
        title=title,
        models=list(models.values()),
        tasks=list(tasks.values()),
        attempts=attempts,
        exceptions_rule=rule,
    )
    _rows_with_published(files, attempts, extras)
    if not attempts:
        _dated_by_models(files, models.values())
    built = HarborSource(name=source.name, files=files, folders=folders, scrubs=scrubbed)
    return built, len(attempts)
