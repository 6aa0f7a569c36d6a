"""Attempt folders → the release-v1 documents beside them (manifest, leaderboard,
matrix, models/, tasks/), figured with the same scoring code as the site.
The attempt folders' own files are not held here (``source.LazyFolder``).

Every task with an attempt is released, in batch 1. ``generated_at`` and the
batch's ``released_at`` are the latest trial's end, and the revision is its
date, so the same jobs always give the same release (importing them again
changes nothing).
"""

from __future__ import annotations

from typing import Any

from formats.sources import AttemptEntry, ModelEntry, TaskEntry
from formats.sources.harbor.attempts import RULE, dump
from formats.sources.published import latest_results_date, published_fields, rank_published_only
from formats.v1 import documents as v1
from formats.v1.documents import model_rate
from formats.v1.files import model_path, task_path
from formats.v1.harbor_result import HARBOR_RESULT
from formats.v1.scoring import (
    DEFAULT_EXCEPTIONS_RULE,
    EXCEPTION_FLAG_PREFIX,
    LEFT_OUT,
    Cell,
    competition_ranks,
    model_figures,
    trials_figure,
)

__all__ = ["ModelEntry", "TaskEntry", "cell_document", "release_files", "task_checks"]


def release_files(
    *,
    bench: str,
    title: str,
    models: list[ModelEntry],
    tasks: list[TaskEntry],
    attempts: list[AttemptEntry],
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    scoring_rule: str = RULE,
    published_key: str | None = HARBOR_RESULT,
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
    trial_runs: dict[tuple[str, str], list[AttemptEntry]] = {}
    for a in further:
        trial_runs.setdefault((a.model, a.task), []).append(a)
    finished = [a.finished_at for a in attempts] or ["1970-01-01T00:00:00Z"]
    generated_at = max(finished)
    revision = generated_at[:10]
    if not attempts and (dated := latest_results_date(models)):
        generated_at, revision = f"{dated}T00:00:00Z", dated
    files: dict[str, bytes] = {}

    cells: dict[str, dict[str, Cell]] = {m: {} for m in model_ids}
    for a in attempts:
        more = trial_runs.get((a.model, a.task), [])
        cells[a.model][a.task] = Cell(
            a.score,
            tuple(a.flags),
            True,
            a.cost_usd,
            a.duration_s,
            # None: a further trial the exceptions rule leaves out.
            trials=tuple(t.score if counted[id(t)] else None for t in more),
            trial_costs=tuple(t.cost_usd for t in more),
            trial_durations=tuple(t.duration_s for t in more),
            errors=raised.get((a.model, a.task), 0),
        )
    figures = {m: model_figures(cells[m], surfaces, task_ids) for m in model_ids}
    ranked = competition_ranks([(m, figures[m].score) for m in model_ids])

    rows = []
    for m, rank in ranked:
        spec, f = by_model[m], figures[m]
        rows.append(
            v1.leaderboard_row(
                rank=rank,
                model=m,
                display_name=spec.display_name,
                harness=spec.harness,
                provider=spec.provider,
                aggregate=f.aggregate(),
                # Beyond v1 (readers may ignore them): the pass rate with its
                # counts, the trials that raised, and what the jobs' own
                # result.json say (formats.v1.harbor_result).
                beyond={
                    "passed": f.passed,
                    "pass_rate": model_rate(f.score, f.passed, f.trials, f.tasks),
                    "trials": f.trials,
                    "errors": f.errors,
                    **({published_key: spec.published} if spec.published and published_key else {}),
                    **published_fields(spec),
                },
            )
        )
    rows = rank_published_only(rows)
    files["leaderboard.json"] = dump(
        v1.leaderboard_document(
            bench=bench, revision=revision, scoring_rule=scoring_rule, rows=rows
        )
    )
    files["matrix.json"] = dump(
        v1.matrix_document(
            bench=bench,
            revision=revision,
            tasks=[v1.matrix_task(t, by_task[t].title, surfaces[t], True) for t in task_ids],
            models=[m for m, _ in ranked],
            cells={m: {t: cell_document(c) for t, c in cells[m].items()} for m, _ in ranked},
        )
    )
    for m in model_ids:
        spec = by_model[m]
        rows_for_model = []
        for t in sorted(t for (mm, t) in by_key if mm == m):
            a = by_key[(m, t)]
            rows_for_model.append(
                v1.model_attempt_row(
                    task=t,
                    score=a.score,
                    checks_passed=a.checks_passed,
                    checks_total=len(a.checks),
                    mandatory_failed=a.mandatory_failed,
                    cost_usd=a.cost_usd,
                    duration_s=a.duration_s,
                    flags=a.flags,
                )
            )
        files[model_path(m)] = dump(
            v1.model_document(
                bench=bench,
                model=v1.model_facts(
                    m, spec.display_name, spec.harness, spec.provider, extra=spec.extra
                ),
                aggregate=figures[m].aggregate(),
                attempts=rows_for_model,
            )
        )
    for t in task_ids:
        task = by_task[t]
        results = [
            v1.task_result(
                m,
                by_key[(m, t)].score,
                {c.name: c.passed for c in by_key[(m, t)].checks},
                by_key[(m, t)].flags,
            )
            for m in model_ids
            if (m, t) in by_key
        ]
        files[task_path(t)] = dump(
            v1.task_document(
                bench=bench,
                task=t,
                title=task.title,
                surface=task.surface,
                vendors=[],
                batch=1,
                ticket=task.ticket,
                checks=task.checks,
                results=results,
                extra=task.extra,
            )
        )
    files["manifest.json"] = dump(
        v1.manifest_document(
            bench=bench,
            title=title,
            revision=revision,
            generated_at=generated_at,
            scoring_rule=scoring_rule,
            models=model_ids,
            tasks=task_ids,
            batches=[v1.manifest_batch(1, generated_at, task_ids)] if task_ids else [],
            attempts=len(attempts),
            exceptions_rule=exceptions_rule,
        )
    )
    return files


def cell_document(cell: Cell) -> dict[str, Any]:
    """A matrix cell: ``{"score", "flags"}``, and ``x-trials`` where the model
    ran the task several times (an extension v1 readers ignore)."""
    trials = (
        trials_figure(cell.score if cell.counted else None, cell.trials) if cell.trials else None
    )
    return v1.matrix_cell(cell.score, cell.flags, trials)


def task_checks(attempts: list[AttemptEntry]) -> dict[str, list[dict[str, Any]]]:
    """Each task's check definitions: every check its attempts' verdicts name,
    in the order first seen (models in id order)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for a in sorted(attempts, key=lambda a: (a.task, a.model)):
        seen = found.setdefault(a.task, {})
        for c in a.checks:
            seen.setdefault(c.name, {"name": c.name, "level": c.level, "mandatory": c.mandatory})
    return {task: list(checks.values()) for task, checks in found.items()}
