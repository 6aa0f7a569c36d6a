"""Writes to the scoreboard that span several rows: figures computed once, at import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F

from formats.v1.harbor_result import HARBOR_RESULT, harbor_result_differences
from formats.v1.scoring import (
    EXCEPTION_FLAG_PREFIX,
    LEFT_OUT,
    Cell,
    competition_ranks,
    differs,
    model_figures,
    pass_k_figures,
    task_outcomes,
    task_values,
)
from leaderboard.models import (
    Attempt,
    Bench,
    BenchRevision,
    Disagreement,
    Generation,
    Model,
    Task,
)
from leaderboard.revisions import revision_record

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
    stored disagreements of ``bench`` from its attempts (every trial).

    Rows are only written where a value changed, so recomputing an unchanged
    bench leaves the database exactly as it was.
    """
    tasks = list(bench.tasks.order_by("position").values_list("pk", "slug", "surface"))
    task_slug = {pk: slug for pk, slug, _ in tasks}
    surfaces = {slug: surface for _, slug, surface in tasks}
    order = [slug for _, slug, _ in tasks]
    models = list(bench.models.all())
    cells, wanted = _cells(bench, models, task_slug)
    # Rows the source gave only an aggregate for (docs/statistics.md): placed by it.
    only = {m.pk: published_only_score(published_rows.get(m.slug)) for m in models}
    only = {pk: value for pk, value in only.items() if value is not None}
    full = [m for m in models if m.pk not in only]

    figures = {m.pk: model_figures(cells[m.pk], surfaces, order) for m in full}
    scores = {m.pk: only[m.pk] if m.pk in only else figures[m.pk].score for m in models}
    ranks = dict(competition_ranks([(m.slug, scores[m.pk]) for m in models]))
    per_task = {m.pk: task_values(cells[m.pk], order) for m in full}
    intervals = _rank_intervals(bench, models, per_task, only)
    most = max((n for m in full for n, _ in task_outcomes(cells[m.pk], order)), default=1)
    changed_models = []
    for model in models:
        row = published_rows.get(model.slug) or {}
        if model.pk in only:
            values = _published_only_values(row, ranks[model.slug], only[model.pk])
            if any(getattr(model, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(model, k, v)
                changed_models.append(model)
            continue
        fig = figures[model.pk]
        interval = intervals.get(model.pk)
        passk = (
            pass_k_figures(task_outcomes(cells[model.pk], order), most)
            if bench.is_pass_fail
            else None
        )
        values = {
            "published_only": False,
            "rank": ranks[model.slug],
            "rank_low": interval.rank_low if interval else None,
            "rank_high": interval.rank_high if interval else None,
            "score": fig.score,
            "tasks": fig.tasks,
            "flagged": fig.flagged,
            "passed": fig.passed,
            "trials": fig.trials,
            "errors": fig.errors,
            "cost_usd": fig.cost_usd,
            "cost_unknown_trials": fig.cost_unknown_trials,
            "run_cost_usd": fig.run_cost_usd,
            "duration_s": fig.duration_s,
            "by_surface": fig.by_surface,
            "ci_low": interval.low if interval else None,
            "ci_high": interval.high if interval else None,
            "pass_at_k": passk.at if passk else {},
            "pass_hat_k": passk.hat if passk else {},
            "pass_k_tasks": passk.tasks if passk else {},
            "consistency": fig.consistency if bench.is_pass_fail else {},
            "some_tasks": [list(t) for t in fig.some_tasks] if bench.is_pass_fail else [],
            "published_score": published_figure(row),
        }
        if any(getattr(model, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(model, k, v)
            changed_models.append(model)
        for name in COMPARED_ROW_FIGURES:
            published = values["published_score"] if name == "score" else row.get(name)
            recomputed = values[name]
            # An unknown cost (null) has no figure to compare; a known one does.
            if published is None or recomputed is None:
                continue
            if differs(float(published), float(recomputed)) and not (
                name == "score" and within_precision(row, published, recomputed)
            ):
                wanted[(model.pk, None, "leaderboard.json", name)] = (published, recomputed)
        for name, (published, recomputed) in harbor_result_differences(
            row.get(HARBOR_RESULT), fig
        ).items():
            wanted[(model.pk, None, "result.json", name)] = (published, recomputed)
    if changed_models:
        # Every figure either kind of row sets (the same keys for both).
        Model.objects.bulk_update(changed_models, list(_published_only_values({}, 0, 0.0)))

    # Over the models with per-task results (a published-only row has no cells).
    count = max(len(full), 1)
    # Summed in model pk order: the models' rank order changes as the figures
    # do, and a different order of float sums would change the mean's last bits.
    by_pk = sorted(full, key=lambda m: m.pk)
    changed_tasks = []
    for task in bench.tasks.all():
        # Over every model, each counting its mean over trials (0 without an attempt).
        total = 0.0
        for m in by_pk:
            if task.slug in cells[m.pk]:
                total += cells[m.pk][task.slug].value
        mean = total / count
        if task.mean_score != mean:
            task.mean_score = mean
            changed_tasks.append(task)
    if changed_tasks:
        Task.objects.bulk_update(changed_tasks, ["mean_score"])

    _sync_disagreements(bench, wanted)


def raised(flags: list[str]) -> int:
    """1 when an attempt's flags say its run raised an exception (Harbor), else 0."""
    return 1 if any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags) else 0


def _cells(bench: Bench, models: list[Model], task_slug: dict[int, str]):
    """model pk -> task id -> Cell (every trial), and the attempts' score
    disagreements with what summary.json and matrix.json published."""
    # A fixed order keeps float sums identical from one import to the next.
    rows = (
        Attempt.all_trials.filter(bench=bench)
        .order_by("model_id", "task_id", "trial")
        .values_list(
            "model_id",
            "task_id",
            "trial",
            "score",
            "flags",
            "has_detail",
            "cost_usd",
            "duration_s",
            "published_score",
            "matrix_score",
        )
    )
    first: dict[tuple[int, int], tuple] = {}
    further: dict[tuple[int, int], list[tuple]] = {}
    wanted: dict[tuple[int, int | None, str, str], tuple[float, float]] = {}
    errors: dict[tuple[int, int], int] = {}
    for model_id, task_id, trial, score, flags, detail, cost, duration, published, matrix in rows:
        if trial:
            # None: a trial the exceptions rule leaves out of the figures.
            shown = None if LEFT_OUT in flags else score
            further.setdefault((model_id, task_id), []).append((shown, cost, duration))
            errors[(model_id, task_id)] = errors.get((model_id, task_id), 0) + raised(flags)
            continue
        first[(model_id, task_id)] = (score, flags, detail, cost, duration)
        if detail:
            for source, value in (("summary.json", published), ("matrix.json", matrix)):
                if value is not None and differs(value, score):
                    wanted[(model_id, task_id, source, "score")] = (value, score)
    cells: dict[int, dict[str, Cell]] = {m.pk: {} for m in models}
    for (model_id, task_id), (score, flags, detail, cost, duration) in first.items():
        more = further.get((model_id, task_id), [])
        cells[model_id][task_slug[task_id]] = Cell(
            score=score,
            flags=tuple(flags),
            released=detail,
            cost_usd=cost,
            duration_s=duration,
            trials=tuple(s for s, _, _ in more),
            trial_costs=tuple(c for _, c, _ in more),
            trial_durations=tuple(d for _, _, d in more),
            errors=raised(flags) + errors.get((model_id, task_id), 0),
        )
    return cells, wanted


def published_figure(row: Mapping[str, Any]) -> float | None:
    """The score a leaderboard row publishes: its ``published_score`` extension
    field where it has one (null: the source published none; the site's own
    documents carry it so an exported release re-imports with the same
    figure), else the v1 ``score``."""
    value = row["published_score"] if "published_score" in row else row.get("score")
    return None if value is None else float(value)


def within_precision(row: Mapping[str, Any], published: float, recomputed: float) -> bool:
    """Whether a published score rounded to ``published_precision`` (an
    extension field: half a unit of its last decimal) is the recomputed one."""
    precision = row.get("published_precision")
    if not isinstance(precision, int | float) or isinstance(precision, bool) or precision < 0:
        return False
    return abs(float(published) - float(recomputed)) <= precision + 1e-12


def published_only_score(row: Mapping[str, Any] | None) -> float | None:
    """The published score of a leaderboard row marked ``published_only``
    (an extension field: the source gave no per-task results), else None."""
    if not row or row.get("published_only") is not True:
        return None
    value = published_figure(row)
    return None if value is None else min(1.0, max(0.0, value))


def _published_only_values(row: Mapping[str, Any], rank: int, score: float) -> dict[str, Any]:
    """A published-only row's figures: its published score and nothing that
    needs tasks (no interval, rank range, pass@k, surfaces, trials or costs)."""
    return {
        "published_only": True,
        "rank": rank,
        "rank_low": None,
        "rank_high": None,
        "score": score,
        "tasks": 0,
        "flagged": 0,
        "passed": 0,
        "trials": 0,
        "errors": 0,
        "cost_usd": None,
        "cost_unknown_trials": 0,
        "run_cost_usd": 0.0,
        "duration_s": 0.0,
        "by_surface": {},
        "ci_low": None,
        "ci_high": None,
        "pass_at_k": {},
        "pass_hat_k": {},
        "pass_k_tasks": {},
        "consistency": {},
        "some_tasks": [],
        "published_score": score,
    }


def _rank_intervals(
    bench: Bench, models: list[Model], values: dict, fixed: Mapping[int, float]
) -> dict:
    """model pk -> its RankInterval (score interval and rank range), for the
    models with per-task values. A published-only model (``fixed``: pk ->
    score) takes part in every draw with its one score, so the others' rank
    ranges count it, but gets no interval itself."""
    if not values or not any(values.values()):
        return {}
    # Imported here, not with the module: paired loads numpy, a third of a
    # second of every process's start, and only an import's recompute needs it.
    from leaderboard.paired import rank_intervals

    ordered = sorted(models, key=lambda m: m.slug)
    tasks = len(next(iter(values.values())))
    columns = [values[m.pk] if m.pk in values else [fixed[m.pk]] * tasks for m in ordered]
    found = rank_intervals(columns, seed=f"{bench.public_slug}/ranks")
    return {m.pk: interval for m, interval in zip(ordered, found, strict=True) if m.pk not in fixed}


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
def batch_publish(*, batch, live: bool = True, by: str = "") -> None:
    """Make a batch's tasks public (or staff-only again). Scores do not change;
    should the anonymous board change all the same, a revision is recorded."""
    if batch.live != live:
        generation_raise()
        batch.live = live
        batch.save(update_fields=["live"])
        cause = BenchRevision.Cause.PUBLISH if live else BenchRevision.Cause.UNPUBLISH
        revision_record(bench=batch.bench, cause=cause, by=by)
