"""The derived documents of a release, rebuilt from the database.

``manifest.json``, ``leaderboard.json``, ``matrix.json``, ``models/<model>.json``
and ``tasks/<task>.json`` (docs/release-format.md), built from the recomputed
figures stored at import, with the unknown fields the release carried merged
back (``leaderboard.extras``). The mirror at /data/v1 and ``export_release``
both use these builders, so what a client fetches and what a static host
serves cannot drift apart.

Staged batches count like live ones here (the format's "released" means "in a
batch"), so the documents are the same for everyone and can be cached
publicly, except a model file's attempt rows, which list a staged task's
attempts to staff only (``staged_rows``). ``live_only=True`` is the export's
view: staged batches are dropped as if they had never been released (no batch
entry, ``released: false``, no attempt rows, no cost or time from their
attempts).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from core import jsonsafe
from formats.v1 import documents as v1
from formats.v1.scoring import LEFT_OUT, surface_documents, trials_figure
from leaderboard.extras import merge_extras
from leaderboard.models import Attempt, Batch, Bench, Check, CheckResult, Model, Task


def _batches(bench: Bench, *, live_only: bool) -> list[Batch]:
    batches = bench.batches.order_by("number")
    return list(batches.live() if live_only else batches)


def _has_staged(bench: Bench) -> bool:
    return bench.batches.filter(live=False).exists()


def manifest_document(bench: Bench, *, live_only: bool = False) -> dict[str, Any]:
    batches = _batches(bench, live_only=live_only)
    tasks = list(bench.tasks.order_by("position").values_list("slug", "batch_id", "batch_position"))
    in_batch: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for slug, batch_id, position in tasks:
        if batch_id is not None:
            in_batch[batch_id].append((position if position is not None else 0, slug))
    models = list(bench.models.order_by("position", "slug").values_list("slug", flat=True))
    released = [b.pk for b in batches]
    attempts = Attempt.objects.filter(
        bench=bench, has_detail=True, task__batch__in=released
    ).count()
    doc = v1.manifest_document(
        bench=bench.slug,
        title=bench.title,
        revision=bench.revision,
        generated_at=bench.generated_at,
        scoring_rule=bench.scoring_rule,
        models=models,
        tasks=[slug for slug, _, _ in tasks],
        batches=[
            v1.manifest_batch(b.number, b.released_at, [slug for _, slug in sorted(in_batch[b.pk])])
            for b in batches
        ],
        attempts=attempts,
        # Beyond v1: how a trial that raised is scored (docs/harbor.md).
        exceptions_rule=bench.exceptions_rule,
    )
    return merge_extras(doc, bench.extras.get("manifest.json"))


Sums = tuple[float | None, float, int]  # cost (None: all unknown), duration, unknown costs


def _live_sums(bench: Bench) -> dict[int, Sums]:
    """Cost and duration per model over attempts (every trial) of live tasks only.

    Summed in the order ``bench_recompute`` uses (by task pk, then trial) so a
    fully live bench gives the stored figures bit for bit; unknown costs as it
    counts them.
    """
    sums: dict[int, list] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    rows = (
        Attempt.all_trials.public()
        .filter(bench=bench)
        .order_by("model_id", "task_id", "trial")
        .values_list("model_id", "cost_usd", "duration_s")
    )
    for model_id, cost, duration in rows:
        entry = sums[model_id]
        if cost is None:
            entry[2] += 1
        else:
            entry[0] += cost
            entry[3] += 1
        entry[1] += duration or 0.0
    return {k: (None if v[2] and not v[3] else v[0], v[1], v[2]) for k, v in sums.items()}


def _aggregate(model: Model, sums: dict[int, Sums] | None) -> dict[str, Any]:
    cost, duration, unknown = (
        (model.cost_usd, model.duration_s, model.cost_unknown_trials)
        if sums is None
        else sums.get(model.pk, (0.0, 0.0, 0))
    )
    doc = {
        "score": model.score,
        "tasks": model.tasks,
        "flagged": model.flagged,
        "cost_usd": cost,
        "duration_s": duration,
        "by_surface": surface_documents(model.by_surface),
    }
    if unknown:
        # Beyond v1: how many attempts' costs the sum lacks (null: all of them).
        doc["cost_unknown_trials"] = unknown
    return doc


def _rank_fields(model: Model, bench: Bench) -> dict[str, Any]:
    """Beyond v1 (readers may ignore them): the rank range; the published
    figure and whether it is all the row has (docs/statistics.md); on
    pass-fail benches the passing trials, the trials, pass@k and pass^k keyed
    by k as a string (null and empty on a published-only row: no trials)."""
    found: dict[str, Any] = {
        "rank_low": model.rank_low,
        "rank_high": model.rank_high,
        "published_score": model.published_score,
        "published_only": model.published_only,
    }
    if bench.is_pass_fail:
        found["passed"] = None if model.published_only else model.passed
        found["trials"] = None if model.published_only else model.trials
        found["pass_at_k"] = dict(model.pass_at_k)
        found["pass_hat_k"] = dict(model.pass_hat_k)
    return found


def leaderboard_document(bench: Bench, *, live_only: bool = False) -> dict[str, Any]:
    sums = _live_sums(bench) if live_only and _has_staged(bench) else None
    rows = [
        v1.leaderboard_row(
            rank=m.rank,
            model=m.slug,
            display_name=m.display_name,
            harness=m.harness,
            provider=m.provider,
            aggregate=_aggregate(m, sums),
            beyond={
                **_rank_fields(m, bench),
                # Beyond v1, where the bench's runs can raise (Harbor's n_errored_trials).
                **({"errors": m.errors} if bench.exceptions_rule else {}),
            },
        )
        for m in bench.models.ranked()
    ]
    doc = v1.leaderboard_document(
        bench=bench.slug, revision=bench.revision, scoring_rule=bench.scoring_rule, rows=rows
    )
    return merge_extras(doc, bench.extras.get("leaderboard.json"))


def matrix_document(bench: Bench, *, live_only: bool = False) -> dict[str, Any]:
    tasks = list(bench.tasks.order_by("position").select_related("batch"))
    models = list(bench.models.ranked().values_list("pk", "slug", "published_only"))
    # v1 lists every model; a published-only one has no row of cells (not even empty).
    only = {pk for pk, _, published_only in models if published_only}
    models = [(pk, slug) for pk, slug, _ in models]
    cells: dict[int, dict[str, Any]] = {pk: {} for pk, _ in models}
    slugs = {t.pk: t.slug for t in tasks}
    # Every trial in the one query: further trials (trial > 0) add the cell's
    # ``x-trials`` extension (docs/harbor.md); a v1 cell is otherwise unchanged.
    rows = (
        Attempt.all_trials.filter(bench=bench)
        .order_by("model_id", "task__position", "trial")
        .values_list("model_id", "task_id", "trial", "score", "flags")
    )
    further: dict[tuple[int, int], list[float | None]] = {}
    for model_id, task_id, trial, score, flags in rows:
        if trial:
            further.setdefault((model_id, task_id), []).append(None if LEFT_OUT in flags else score)
        else:
            cells[model_id][slugs[task_id]] = v1.matrix_cell(score, flags)
    for (model_id, task_id), scores in further.items():
        cell = cells[model_id][slugs[task_id]]
        first = None if LEFT_OUT in cell["flags"] else cell["score"]
        cell["x-trials"] = trials_figure(first, scores)
    entries = []
    for task in tasks:
        released = task.batch is not None and (task.batch.live or not live_only)
        entry = v1.matrix_task(task.slug, task.title, task.surface, released)
        entries.append(merge_extras(entry, task.extras.get("matrix.json")))
    doc = v1.matrix_document(
        bench=bench.slug,
        revision=bench.revision,
        tasks=entries,
        models=[slug for _, slug in models],
        cells={slug: cells[pk] for pk, slug in models if pk not in only},
    )
    return merge_extras(doc, bench.extras.get("matrix.json"))


def _model_attempt_row(a: Attempt) -> dict[str, Any]:
    return v1.model_attempt_row(
        task=a.task.slug,
        score=a.score,
        checks_passed=a.checks_passed or 0,
        checks_total=a.checks_total or 0,
        mandatory_failed=a.mandatory_failed or 0,
        cost_usd=a.cost_usd,
        duration_s=a.duration_s if a.duration_s is not None else 0.0,
        flags=a.flags,
    )


def model_documents(
    bench: Bench,
    *,
    live_only: bool = False,
    staged_rows: bool = False,
    models: list[Model] | None = None,
) -> dict[str, dict[str, Any]]:
    """``models/<model>.json`` of ``models`` (default: all), by model id; three queries.

    Attempt rows of staged tasks are detail: listed only with ``staged_rows``
    (for staff). Their scores, cost and time count in the aggregate all the same.
    """
    if models is None:
        models = list(bench.models.order_by("slug"))
    released = (
        Attempt.objects.released() if staged_rows and not live_only else Attempt.objects.public()
    )
    attempts = (
        released.filter(bench=bench, model__in=[m.pk for m in models])
        .select_related("task")
        .order_by("model_id", "task__slug")
    )
    rows: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for a in attempts:
        rows[a.model_id].append(_model_attempt_row(a))
    sums = _live_sums(bench) if live_only and _has_staged(bench) else None
    documents = {}
    for m in models:
        doc = v1.model_document(
            bench=bench.slug,
            model=v1.model_facts(m.slug, m.display_name, m.harness, m.provider),
            aggregate=_aggregate(m, sums),
            attempts=rows[m.pk],
        )
        documents[m.slug] = merge_extras(doc, m.extras)
    return documents


def model_document(
    model: Model, *, live_only: bool = False, staged_rows: bool = False
) -> dict[str, Any]:
    return model_documents(
        model.bench, live_only=live_only, staged_rows=staged_rows, models=[model]
    )[model.slug]


def task_documents(bench: Bench, tasks: list[Task]) -> dict[str, dict[str, Any]]:
    """``tasks/<task>.json`` of released ``tasks`` (their batch loaded), by task id.

    Four queries however many tasks and attempts: checks, attempts, their
    check results.
    """
    task_pks = [t.pk for t in tasks]
    checks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for task_id, name, level, mandatory in (
        Check.objects.filter(task__in=task_pks)
        .order_by("task_id", "position")
        .values_list("task_id", "name", "level", "mandatory")
    ):
        checks[task_id].append({"name": name, "level": level, "mandatory": mandatory})
    attempts = list(
        Attempt.objects.filter(task__in=task_pks, has_detail=True)
        .select_related("model")
        .only("pk", "task_id", "score", "flags", "model__slug")
        .order_by("task_id", "model__slug")
    )
    outcomes: dict[int, dict[str, bool]] = defaultdict(dict)
    for attempt_id, name, passed in (
        CheckResult.objects.filter(attempt__in=[a.pk for a in attempts])
        .order_by("attempt_id", "position")
        .values_list("attempt_id", "name", "passed")
    ):
        outcomes[attempt_id][name] = passed
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for a in attempts:
        results[a.task_id].append(v1.task_result(a.model.slug, a.score, outcomes[a.pk], a.flags))
    documents = {}
    for task in tasks:
        doc = v1.task_document(
            bench=bench.slug,
            task=task.slug,
            title=task.file_title,
            surface=task.file_surface,
            vendors=task.vendors,
            batch=task.batch.number,
            ticket=jsonsafe.unpack(task.extras["ticket"])
            if "ticket" in task.extras
            else task.ticket,
            checks=checks[task.pk],
            results=results[task.pk],
        )
        documents[task.slug] = merge_extras(doc, task.extras.get("tasks/"))
    return documents


def task_document(task: Task) -> dict[str, Any]:
    return task_documents(task.bench, [task])[task.slug]
