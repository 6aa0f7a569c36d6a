"""Attempt folders → the release-v1 documents beside them (manifest, leaderboard,
matrix, models/, tasks/), figured with the same scoring code as the site.
The attempt folders' own files are not held here (``source.LazyFolder``).

Every task with an attempt is released, in batch 1. ``generated_at`` and the
batch's ``released_at`` are the latest trial's end, and the revision is its
date, so the same jobs always give the same release (importing them again
changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ingest.harbor.attempts import RULE, AttemptFiles, dump
from leaderboard.formatting import model_rate
from leaderboard.harbor_result import HARBOR_RESULT
from leaderboard.scoring import (
    DEFAULT_EXCEPTIONS_RULE,
    EXCEPTION_FLAG_PREFIX,
    LEFT_OUT,
    Cell,
    competition_ranks,
    model_figures,
    trials_figure,
)


@dataclass
class ModelEntry:
    id: str
    display_name: str
    harness: str
    provider: str
    # Extension fields of the model (leaderboard.facts: organisation, labels).
    extra: dict[str, Any] = field(default_factory=dict)
    # What the model's jobs' own result.json say (leaderboard.harbor_result).
    harbor_result: dict[str, Any] | None = None


@dataclass
class TaskEntry:
    id: str
    title: str  # the Harbor task name, as Harbor spells it
    surface: str
    ticket: str = ""
    checks: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def release_files(
    *,
    bench: str,
    title: str,
    models: list[ModelEntry],
    tasks: list[TaskEntry],
    attempts: list[AttemptFiles],
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> dict[str, bytes]:
    model_ids = sorted(m.id for m in models)
    by_model = {m.id: m for m in models}
    task_ids = sorted(t.id for t in tasks)
    by_task = {t.id: t for t in tasks}
    surfaces = {t.id: t.surface for t in tasks}
    # Every attempt comes scored under this import's rule (attempts.trial_attempt;
    # kept models' by attempts.rescore), a trial the rule leaves out flagged so.
    counted = {id(a): LEFT_OUT not in a.flags for a in attempts}
    every = attempts
    further = sorted((a for a in attempts if a.trial), key=lambda a: a.trial)
    attempts = [a for a in attempts if not a.trial]
    by_key = {(a.model, a.task): a for a in attempts}
    raised: dict[tuple[str, str], int] = {}
    for a in every:
        failed = any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in a.flags)
        raised[(a.model, a.task)] = raised.get((a.model, a.task), 0) + failed
    trial_runs: dict[tuple[str, str], list[AttemptFiles]] = {}
    for a in further:
        trial_runs.setdefault((a.model, a.task), []).append(a)
    finished = [a.summary["timing"]["finished_at"] for a in attempts] or ["1970-01-01T00:00:00Z"]
    generated_at = max(finished)
    revision = generated_at[:10]
    files: dict[str, bytes] = {}

    cells: dict[str, dict[str, Cell]] = {m: {} for m in model_ids}
    for a in attempts:
        cost, timing = a.summary["cost"], a.summary["timing"]
        more = trial_runs.get((a.model, a.task), [])
        cells[a.model][a.task] = Cell(
            a.score,
            tuple(a.flags),
            True,
            cost.get("usd"),
            timing.get("duration_s"),
            # None: a further trial the exceptions rule leaves out.
            trials=tuple(t.score if counted[id(t)] else None for t in more),
            trial_costs=tuple(t.summary["cost"].get("usd") for t in more),
            trial_durations=tuple(t.summary["timing"].get("duration_s") for t in more),
            errors=raised.get((a.model, a.task), 0),
        )
    figures = {m: model_figures(cells[m], surfaces, task_ids) for m in model_ids}
    ranked = competition_ranks([(m, figures[m].score) for m in model_ids])

    head = {"schema": "v1", "bench": bench, "revision": revision}
    rows = []
    for m, rank in ranked:
        spec, f = by_model[m], figures[m]
        rows.append(
            {
                "rank": rank,
                "model": m,
                "display_name": spec.display_name,
                "harness": spec.harness,
                "provider": spec.provider,
                **figures[m].aggregate(),
                # Beyond v1 (readers may ignore them): the pass rate with its
                # counts, the trials that raised, and what the jobs' own
                # result.json say (leaderboard.harbor_result).
                "passed": f.passed,
                "pass_rate": model_rate(f.score, f.passed, f.trials, f.tasks),
                "trials": f.trials,
                "errors": f.errors,
                **({HARBOR_RESULT: spec.harbor_result} if spec.harbor_result else {}),
            }
        )
    files["leaderboard.json"] = dump({**head, "scoring_rule": RULE, "rows": rows})
    files["matrix.json"] = dump(
        {
            **head,
            "tasks": [
                {"id": t, "title": by_task[t].title, "surface": surfaces[t], "released": True}
                for t in task_ids
            ],
            "models": [m for m, _ in ranked],
            "cells": {m: {t: cell_document(c) for t, c in cells[m].items()} for m, _ in ranked},
        }
    )
    for m in model_ids:
        spec = by_model[m]
        rows_for_model = []
        for t in sorted(t for (mm, t) in by_key if mm == m):
            a = by_key[(m, t)]
            counts = a.summary["checks"]
            rows_for_model.append(
                {
                    "task": t,
                    "score": a.score,
                    "checks_passed": counts["passed"],
                    "checks_total": counts["total"],
                    "mandatory_failed": counts["mandatory_failed"],
                    "cost_usd": a.summary["cost"].get("usd"),
                    "duration_s": a.summary["timing"]["duration_s"],
                    "flags": a.flags,
                }
            )
        files[f"models/{m}.json"] = dump(
            {
                "schema": "v1",
                "bench": bench,
                "model": {
                    **spec.extra,
                    "id": m,
                    "display_name": spec.display_name,
                    "harness": spec.harness,
                    "provider": spec.provider,
                },
                "aggregate": figures[m].aggregate(),
                "attempts": rows_for_model,
            }
        )
    for t in task_ids:
        task = by_task[t]
        results = [
            {
                "model": m,
                "score": by_key[(m, t)].score,
                "checks": {c["name"]: c["passed"] for c in by_key[(m, t)].checks},
                "flags": by_key[(m, t)].flags,
            }
            for m in model_ids
            if (m, t) in by_key
        ]
        files[f"tasks/{t}.json"] = dump(
            {
                "schema": "v1",
                "bench": bench,
                "task": {
                    "id": t,
                    "title": task.title,
                    "surface": task.surface,
                    "vendors": [],
                    "batch": 1,
                },
                "ticket": task.ticket,
                "checks": task.checks,
                "results": results,
                **task.extra,
            }
        )
    files["manifest.json"] = dump(
        {
            "schema": "v1",
            "bench": bench,
            "title": title,
            "revision": revision,
            "generated_at": generated_at,
            "scoring_rule": RULE,
            "exceptions_rule": exceptions_rule,
            "models": model_ids,
            "tasks": task_ids,
            "batches": [{"id": 1, "released_at": generated_at, "tasks": task_ids}]
            if task_ids
            else [],
            "counts": {
                "models": len(model_ids),
                "tasks": len(task_ids),
                "released_tasks": len(task_ids),
                "attempts": len(attempts),
            },
        }
    )
    return files


def cell_document(cell: Cell) -> dict[str, Any]:
    """A matrix cell: ``{"score", "flags"}``, and ``x-trials`` where the model
    ran the task several times (an extension v1 readers ignore)."""
    doc: dict[str, Any] = {"score": cell.score, "flags": list(cell.flags)}
    if cell.trials:
        doc["x-trials"] = trials_figure(cell.score if cell.counted else None, cell.trials)
    return doc


def task_checks(attempts: list[AttemptFiles]) -> dict[str, list[dict[str, Any]]]:
    """Each task's check definitions: every check its attempts' verdicts name,
    in the order first seen (models in id order)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for a in sorted(attempts, key=lambda a: (a.task, a.model)):
        seen = found.setdefault(a.task, {})
        for c in a.checks:
            seen.setdefault(c["name"], {"name": c["name"], "level": c["level"], "mandatory": False})
    return {task: list(checks.values()) for task, checks in found.items()}
