"""Reads behind the leaderboard, matrix, model and task pages.

Each function answers in a fixed number of queries, whatever the number of
models or tasks (the page tests count them). Rows come back as plain values
where a page shows thousands of them: building model instances for every
matrix cell would cost more than the query itself.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import (
    Count,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
    TextField,
)
from django.db.models.functions import Cast, Coalesce
from django.http import Http404

from formats.v1.scoring import EXCEPTION_FLAG_PREFIX, LEFT_OUT, Cell, passes, trials_figure
from leaderboard.models import (
    Attempt,
    Batch,
    Bench,
    Check,
    CheckResult,
    Disagreement,
    Model,
    Task,
)
from leaderboard.visibility import can_see_staged

# How an empty flag list reads as JSON text (SQLite, PostgreSQL).
NO_FLAGS = frozenset({"[]", "[ ]", None})


def bench_or_404(slug: str) -> Bench:
    try:
        return Bench.objects.get(slug=slug)
    except Bench.DoesNotExist:
        raise Http404(f"No bench {slug!r}.") from None


def _count_of(queryset, column: str = "bench"):
    """A correlated ``COUNT(*)`` subquery per bench (no join fan-out)."""
    return Coalesce(
        Subquery(
            queryset.filter(**{column: OuterRef("pk")})
            .values(column)
            .annotate(n=Count("pk"))
            .values("n")
        ),
        0,
    )


def benches_for_home():
    """Benches with their top models, latest live batch and counts: three queries."""
    top = settings.BENCHVIEW_LIMITS["home_top_models"]
    return Bench.objects.annotate(
        model_count=_count_of(Model.objects.all()),
        task_count=_count_of(Task.objects.all()),
        released_count=_count_of(Task.objects.released()),
    ).prefetch_related(
        # Sliced prefetches become one windowed query for every bench.
        Prefetch(
            "models",
            queryset=Model.objects.ranked()[:top],
            to_attr="top_models",
        ),
        Prefetch(
            "batches",
            queryset=Batch.objects.live().order_by("-number")[:1],
            to_attr="latest_batches",
        ),
    )


# --------------------------------------------------------------------------- leaderboard


@dataclass
class FlagReasons:
    missing_verdict: int = 0
    missing_attempt: int = 0


def flag_reasons(models: list[Model]) -> dict[int, FlagReasons]:
    """Why each model's flagged tasks were flagged: one grouped query.

    A public task with no attempt row is a missing attempt; the rest of the
    stored ``flagged`` count are cells the release flagged itself, which on
    a present attempt means a missing verdict. Counting attempt rows reads
    only the (model, task) index, where matching the flags' JSON would read
    every attempt of the bench.
    """
    present = dict(
        Attempt.objects.filter(model__in=[m.pk for m in models])
        .values("model_id")
        .annotate(n=Count("task_id"))
        .values_list("model_id", "n")
    )
    reasons = {}
    for model in models:
        missing = max(model.tasks - present.get(model.pk, 0), 0)
        reasons[model.pk] = FlagReasons(
            missing_verdict=max(model.flagged - missing, 0), missing_attempt=missing
        )
    return reasons


@dataclass
class ModelDisagreements:
    """Published figures that differ from the recomputed ones, for one model."""

    figures: list[Disagreement] = field(default_factory=list)  # leaderboard.json rows
    attempts: int = 0  # attempts whose summary.json or matrix.json score differs


def disagreements_by_model(bench: Bench) -> dict[int, ModelDisagreements]:
    """Two queries: the model-level figures, and a count of attempt-level ones."""
    found: dict[int, ModelDisagreements] = defaultdict(ModelDisagreements)
    for row in Disagreement.objects.filter(bench=bench, task__isnull=True).order_by(
        "model_id", "field", "pk"
    ):
        found[row.model_id].figures.append(row)
    per_attempt = (
        Disagreement.objects.filter(bench=bench, task__isnull=False)
        .values("model_id")
        .annotate(n=Count("task_id", distinct=True))
    )
    for row in per_attempt:
        found[row["model_id"]].attempts = row["n"]
    return dict(found)


def job_disagreements(bench: Bench, model: Model | None = None) -> list[Disagreement]:
    """Figures of Harbor jobs' own result.json that differ from the site's, by model
    rank then figure: one query."""
    rows = Disagreement.objects.filter(bench=bench, source="result.json", task__isnull=True)
    if model is not None:
        rows = rows.filter(model=model)
    return list(rows.select_related("model").order_by("model__rank", "model__slug", "field"))


def board_facets(bench: Bench) -> tuple[list[str], list[str]]:
    """Every harness and provider of the bench, for the filter controls: one query."""
    # Ordered by the distinct columns: the default ordering's columns would
    # join the SELECT DISTINCT and make every model a pair of its own.
    pairs = list(
        Model.objects.filter(bench=bench)
        .order_by("harness", "provider")
        .values_list("harness", "provider")
        .distinct()
    )
    return sorted({h for h, _ in pairs}), sorted({p for _, p in pairs})


def last_finished(bench: Bench) -> dict[int, str]:
    """Each model's latest attempt ``finished_at`` (RFC 3339 strings in UTC
    sort as times): one grouped query."""
    rows = (
        Attempt.objects.filter(bench=bench)
        .exclude(finished_at="")
        .order_by()
        .values("model_id")
        .annotate(last=Max("finished_at"))
        .values_list("model_id", "last")
    )
    return dict(rows)


def board_models(bench: Bench, *, harness: str = "", provider: str = "") -> list[Model]:
    models = Model.objects.filter(bench=bench).ranked()
    if harness:
        models = models.filter(harness=harness)
    if provider:
        models = models.filter(provider=provider)
    return list(models)


# --------------------------------------------------------------------------- matrix


@dataclass(frozen=True)
class MatrixTask:
    pk: int
    slug: str
    title: str
    surface: str
    mean_score: float
    released: bool
    visible: bool  # the visitor may open its task and attempt pages


def matrix_tasks(bench: Bench, user) -> list[MatrixTask]:
    """Every task of the bench, in no particular order: one query."""
    staff = can_see_staged(user)
    rows = Task.objects.filter(bench=bench).values_list(
        "pk", "slug", "title", "surface", "mean_score", "batch_id", "batch__live"
    )
    return [
        MatrixTask(
            pk=pk,
            slug=slug,
            title=title,
            surface=surface,
            mean_score=mean,
            released=batch is not None,
            visible=batch is not None and (bool(live) or staff),
        )
        for pk, slug, title, surface, mean, batch, live in rows
    ]


# A matrix cell as matrix_cells returns it: (model pk, task pk, score, flags as
# JSON text, has_detail as 0/1). The database row itself, with no copy.
CELL_SCORE, CELL_FLAGS, CELL_DETAIL = 2, 3, 4


def matrix_trials(
    cells: dict[int, dict[int, tuple]], *, task_ids: list[int], model_ids: list[int] | None
) -> dict[int, dict[int, tuple[int, int, int]]]:
    """model pk -> task pk -> (passed, total, raised) trials, for the cells whose
    model ran the task several times (one query; ask only where a model has
    further trials). ``raised``: the trials whose run raised an exception."""
    rows = Attempt.all_trials.filter(task_id__in=task_ids, trial__gt=0)
    if model_ids is not None:
        rows = rows.filter(model_id__in=model_ids)
    further: dict[tuple[int, int], list[float | None]] = defaultdict(list)
    raised: dict[tuple[int, int], int] = defaultdict(int)
    for model_id, task_id, score, flags in rows.values_list(
        "model_id", "task_id", "score", "flags"
    ):
        further[(model_id, task_id)].append(None if LEFT_OUT in flags else score)
        raised[(model_id, task_id)] += any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags)
    found: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for (model_id, task_id), scores in further.items():
        cell = cells.get(model_id, {}).get(task_id)
        if cell is not None:
            flags = cell_flags(cell)
            figure = trials_figure(None if LEFT_OUT in flags else cell[CELL_SCORE], scores)
            first = any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags)
            found[model_id][task_id] = (
                figure["passed"],
                figure["total"],
                raised[(model_id, task_id)] + first,
            )
    return found


def matrix_cells(
    bench: Bench, *, task_ids: list[int], model_ids: list[int] | None
) -> dict[int, dict[int, tuple]]:
    """model pk -> task pk -> cell row (see ``CELL_*``) for the shown tasks: one query.

    A page holds up to 20,000 cells, so each is kept as the row the database
    returned, in one dict per model: no key tuples, no parsed JSON for the
    many cells without flags (``cell_flags`` parses them when drawn).
    """
    if not task_ids:
        return {}
    # The task ids already belong to the bench; filtering on bench too would
    # lead SQLite to scan every attempt of the bench through its bench index.
    attempts = Attempt.objects.filter(task_id__in=task_ids)
    if model_ids is not None:
        attempts = attempts.filter(model_id__in=model_ids)
    # Flags as JSON text and the detail bit as an integer skip Django's
    # per-row converters. Ordered as the (task, model) index reads them.
    rows = (
        attempts.order_by("task_id", "model_id")
        .annotate(flags_text=Cast("flags", TextField()), detail=Cast("has_detail", IntegerField()))
        .values_list("model_id", "task_id", "score", "flags_text", "detail")
    )
    cells: dict[int, dict[int, tuple]] = defaultdict(dict)
    for row in rows:
        cells[row[0]][row[1]] = row
    return cells


def cell_flags(cell: tuple) -> list[str]:
    text = cell[CELL_FLAGS]
    return [] if text in NO_FLAGS else json.loads(text)


# --------------------------------------------------------------------------- model page


def model_or_404(bench: Bench, slug: str) -> Model:
    try:
        return Model.objects.get(bench=bench, slug=slug)
    except Model.DoesNotExist:
        raise Http404(f"No model {slug!r} in {bench.slug}.") from None


def model_attempts(model: Model, user) -> list[Attempt]:
    """The model's released attempts the visitor may see, with their tasks: one query."""
    return list(
        Attempt.objects.visible_to(user)
        .filter(model=model)
        .select_related("task")
        .defer("summary", "verdict", "task__ticket", "task__extras")
        .order_by("task__slug", "pk")
    )


@dataclass(frozen=True)
class Unlisted:
    """What a model's figures count of attempts the visitor is not shown."""

    attempts: int
    cost_usd: float
    duration_s: float


def model_unlisted(model: Model, user) -> Unlisted:
    """The model's attempts counted in its cost and time but not listed to ``user``: one query."""
    found = (
        Attempt.objects.counted_unseen_by(user)
        .filter(model=model)
        .aggregate(n=Count("pk"), cost=Sum("cost_usd"), duration=Sum("duration_s"))
    )
    return Unlisted(found["n"], found["cost"] or 0.0, found["duration"] or 0.0)


def model_disagreements(model: Model, user) -> list[Disagreement]:
    """The model's figures that disagree, and its attempts' that the visitor may see."""
    visible = Q(task__isnull=True) | Q(task__in=Task.objects.visible_to(user))
    return list(
        Disagreement.objects.filter(visible, model=model)
        .select_related("task")
        .order_by("task__slug", "source", "field", "pk")
    )


# --------------------------------------------------------------------------- task page


def task_or_404(bench: Bench, slug: str, user) -> Task:
    """A task the visitor may see: live, or staged for staff; otherwise 404."""
    try:
        return Task.objects.visible_to(user).select_related("batch").get(bench=bench, slug=slug)
    except Task.DoesNotExist:
        raise Http404(f"No task {slug!r} in {bench.slug}.") from None


def task_checks(task: Task) -> list[Check]:
    return list(task.checks.order_by("position", "pk"))


def task_attempts(task: Task) -> list[Attempt]:
    """Every attempt of the task, with its model, best model first: one query."""
    return list(
        Attempt.objects.filter(task=task)
        .select_related("model")
        .defer("summary", "model__extras", "model__by_surface")
        .order_by("model__rank", "model__slug", "pk")
    )


@dataclass(frozen=True)
class TaskTrials:
    """One model's trials of one task: the figure the leaderboard counts for the
    task (the mean over its counted trials), and how many trials passed."""

    value: float
    passed: int
    total: int
    further: tuple[int, ...]  # the further trials' numbers, for their links


def task_trials(attempts: list[Attempt]) -> dict[int, TaskTrials]:
    """model pk -> its trials of the task of ``attempts`` (their first trials):
    one query for the further trials, none when no model ran the task twice."""
    if not attempts:
        return {}
    further: dict[int, list[tuple[int, float | None]]] = defaultdict(list)
    rows = Attempt.all_trials.filter(task_id=attempts[0].task_id, trial__gt=0)
    for model_id, trial, score, flags in rows.order_by("trial").values_list(
        "model_id", "trial", "score", "flags"
    ):
        further[model_id].append((trial, None if LEFT_OUT in flags else score))
    found = {}
    for a in attempts:
        runs = further.get(a.model_id, [])
        # The same Cell the import scores with, so the row equals the matrix and the board.
        cell = Cell(score=a.score, flags=tuple(a.flags), trials=tuple(s for _, s in runs))
        found[a.model_id] = TaskTrials(
            value=cell.value,
            passed=sum(1 for s in cell.scores if passes(s)),
            total=1 + len(runs),
            further=tuple(n for n, _ in runs),
        )
    return found


def task_check_results(attempts: list[Attempt]) -> dict[int, dict[str, bool]]:
    """attempt pk -> {check name: passed}: one query for all attempts."""
    results: dict[int, dict[str, bool]] = defaultdict(dict)
    rows = CheckResult.objects.filter(attempt__in=[a.pk for a in attempts]).values_list(
        "attempt_id", "name", "passed"
    )
    for attempt_id, name, passed in rows:
        results[attempt_id][name] = passed
    return dict(results)


def models_without_attempt(task: Task) -> list[Model]:
    """Models with per-task results but none for ``task`` (a published-only
    model has none for any task: it is not "missing" one)."""
    return list(
        Model.objects.filter(bench_id=task.bench_id, published_only=False)
        .exclude(attempts__task=task)
        .ranked()
        .only("slug", "display_name", "bench_id")
    )
