"""Writes to the scoreboard that span several rows: figures computed once, at import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F

from leaderboard.harbor_result import HARBOR_RESULT, harbor_result_differences
from leaderboard.models import Attempt, Bench, Disagreement, Generation, Model, Task
from leaderboard.scoring import (
    EXCEPTION_FLAG_PREFIX,
    LEFT_OUT,
    Cell,
    bootstrap_interval,
    competition_ranks,
    differs,
    model_figures,
)

# Leaderboard row figures compared with what the release published.
COMPARED_ROW_FIGURES = ("score", "flagged", "cost_usd", "duration_s", "rank")


def generation_raise() -> None:
    """Raise the site's generation (in the caller's transaction): pages rendered
    before this write stop being served when it commits."""
    if not Generation.objects.filter(pk=1).update(value=F("value") + 1):
        Generation.objects.create(pk=1, value=1)


@transaction.atomic
def bench_recompute(*, bench: Bench, published_rows: Mapping[str, Mapping[str, Any]]) -> None:
    """Recompute every model's leaderboard figures, each task's mean score and the
    stored disagreements of ``bench`` from its attempts.

    Rows are only written where a value changed, so recomputing an unchanged
    bench leaves the database exactly as it was.
    """
    tasks = list(bench.tasks.order_by("position").values_list("pk", "slug", "surface"))
    task_slug = {pk: slug for pk, slug, _ in tasks}
    surfaces = {slug: surface for _, slug, surface in tasks}
    order = [slug for _, slug, _ in tasks]
    models = list(bench.models.all())
    cells: dict[int, dict[str, Cell]] = {m.pk: {} for m in models}
    # A fixed order keeps float sums identical from one import to the next.
    attempts = (
        Attempt.objects.filter(bench=bench)
        .order_by("model_id", "task_id")
        .values_list(
            "pk",
            "model_id",
            "task_id",
            "score",
            "flags",
            "has_detail",
            "cost_usd",
            "duration_s",
            "published_score",
            "matrix_score",
        )
    )
    extra, further_errors = _further_trials(bench)
    wanted: dict[tuple[int, int | None, str, str], tuple[float, float]] = {}
    task_totals: dict[str, float] = dict.fromkeys(order, 0.0)
    for _, model_id, task_id, score, flags, detail, cost, duration, published, matrix in attempts:
        slug = task_slug[task_id]
        cells[model_id][slug] = Cell(
            score=score,
            flags=tuple(flags),
            released=detail,
            cost_usd=cost,
            duration_s=duration,
            trials=extra.get((model_id, task_id), ()),
            errors=raised(flags) + further_errors.get((model_id, task_id), 0),
        )
        task_totals[slug] += score
        if detail:
            for source, value in (("summary.json", published), ("matrix.json", matrix)):
                if value is not None and differs(value, score):
                    wanted[(model_id, task_id, source, "score")] = (value, score)

    figures = {m.pk: model_figures(cells[m.pk], surfaces, order) for m in models}
    ranks = dict(competition_ranks([(m.slug, figures[m.pk].score) for m in models]))
    task_scores = {
        m.pk: [cells[m.pk].get(t).score if t in cells[m.pk] else 0.0 for t in order] for m in models
    }
    ties = _tie_links(bench, models, ranks, task_scores)
    changed_models = []
    for model in models:
        fig = figures[model.pk]
        scores = task_scores[model.pk]
        link = ties.get(model.pk)
        gap = link.to_next if link else None
        interval = bootstrap_interval(scores, seed=f"{bench.slug}/{model.slug}")
        row = published_rows.get(model.slug) or {}
        values = {
            "rank": ranks[model.slug],
            "score": fig.score,
            "tasks": fig.tasks,
            "flagged": fig.flagged,
            "passed": fig.passed,
            "trials": fig.trials,
            "errors": fig.errors,
            "cost_usd": fig.cost_usd,
            "cost_unknown_trials": fig.cost_unknown_trials,
            "duration_s": fig.duration_s,
            "by_surface": fig.by_surface,
            "ci_low": interval[0] if interval else None,
            "ci_high": interval[1] if interval else None,
            "tie_group": link.group if link else None,
            "next_gap_low": gap.low if gap else None,
            "next_gap_high": gap.high if gap else None,
            "published_score": row.get("score"),
        }
        if any(getattr(model, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(model, k, v)
            changed_models.append(model)
        for name in COMPARED_ROW_FIGURES:
            published, recomputed = row.get(name), values[name]
            # An unknown cost (null) has no figure to compare; a known one does.
            if published is None or recomputed is None:
                continue
            if differs(float(published), float(recomputed)):
                wanted[(model.pk, None, "leaderboard.json", name)] = (published, recomputed)
        for name, (published, recomputed) in harbor_result_differences(
            row.get(HARBOR_RESULT), fig
        ).items():
            wanted[(model.pk, None, "result.json", name)] = (published, recomputed)
    if changed_models:
        Model.objects.bulk_update(changed_models, list(values))

    count = max(len(models), 1)
    changed_tasks = []
    for task in bench.tasks.all():
        mean = task_totals[task.slug] / count
        if task.mean_score != mean:
            task.mean_score = mean
            changed_tasks.append(task)
    if changed_tasks:
        Task.objects.bulk_update(changed_tasks, ["mean_score"])

    _sync_disagreements(bench, wanted)


def raised(flags: list[str]) -> int:
    """1 when an attempt's flags say its run raised an exception (Harbor), else 0."""
    return 1 if any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags) else 0


def _further_trials(
    bench: Bench,
) -> tuple[dict[tuple[int, int], tuple[float | None, ...]], dict[tuple[int, int], int]]:
    """(model pk, task pk) -> the scores of its trials after the first, in order
    (None for one the exceptions rule leaves out), and how many of them raised."""
    rows = (
        Attempt.all_trials.filter(bench=bench, trial__gt=0)
        .order_by("model_id", "task_id", "trial")
        .values_list("model_id", "task_id", "score", "flags")
    )
    found: dict[tuple[int, int], list[float | None]] = {}
    errors: dict[tuple[int, int], int] = {}
    for model_id, task_id, score, flags in rows:
        found.setdefault((model_id, task_id), []).append(None if LEFT_OUT in flags else score)
        errors[(model_id, task_id)] = errors.get((model_id, task_id), 0) + raised(flags)
    return {key: tuple(scores) for key, scores in found.items()}, errors


def _tie_links(bench: Bench, models: list[Model], ranks: dict, task_scores: dict) -> dict:
    """model pk -> its TieLink, models in leaderboard order (rank, then id)."""
    if not models or not any(task_scores.values()):
        return {}
    # Imported here, not with the module: paired loads numpy, a third of a
    # second of every process's start, and only an import's recompute needs it.
    from leaderboard.paired import tie_groups

    ordered = sorted(models, key=lambda m: (ranks[m.slug], m.slug))
    links = tie_groups([task_scores[m.pk] for m in ordered], seed=f"{bench.slug}/tie-groups")
    return {m.pk: link for m, link in zip(ordered, links, strict=True)}


def _sync_disagreements(bench: Bench, wanted) -> None:
    existing = {
        (d.model_id, d.task_id, d.source, d.field): d
        for d in Disagreement.objects.filter(bench=bench)
    }
    stale = [d.pk for key, d in existing.items() if key not in wanted]
    if stale:
        Disagreement.objects.filter(pk__in=stale).delete()
    create, update = [], []
    for key, (published, recomputed) in wanted.items():
        row = existing.get(key)
        if row is None:
            model_id, task_id, source, field = key
            create.append(
                Disagreement(
                    bench=bench,
                    model_id=model_id,
                    task_id=task_id,
                    source=source,
                    field=field,
                    published=published,
                    recomputed=recomputed,
                )
            )
        elif (row.published, row.recomputed) != (published, recomputed):
            row.published, row.recomputed = published, recomputed
            update.append(row)
    Disagreement.objects.bulk_create(create)
    if update:
        Disagreement.objects.bulk_update(update, ["published", "recomputed"])


@transaction.atomic
def batch_publish(*, batch, live: bool = True) -> None:
    """Make a batch's tasks public (or staff-only again). Scores do not change."""
    if batch.live != live:
        generation_raise()
        batch.live = live
        batch.save(update_fields=["live"])
