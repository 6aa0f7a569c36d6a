"""/<bench>/matrix/: the model × task heat map.

Query parameters (all optional, so a filtered view is a link):
``surface`` and ``harness`` (repeatable), ``model`` and ``task`` (repeatable
slugs), ``released=1`` (released tasks only), ``sort`` (a key of ``SORTS``)
and ``page`` (task columns are paged, ``matrix_tasks_per_page`` at a time).
``leaderboard.forms.MatrixQuery`` reads them; a value it cannot read is its default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.shortcuts import render

from formats.v1.scoring import TERMINAL_BENCH_EXCEPTIONS
from leaderboard import queries
from leaderboard.forms import MatrixQuery
from leaderboard.models import Model
from leaderboard.queries import MatrixTask
from leaderboard.render import download
from leaderboard.render.matrix import MatrixRow, matrix_body


@dataclass(frozen=True)
class Sort:
    label: str
    rows: Callable[[MatrixRow], Any]
    # Columns are always grouped by surface; this orders them inside a group.
    columns: Callable[[MatrixTask], Any]


def _hardest_last(t: MatrixTask) -> Any:
    return (-t.mean_score, t.slug)


SORTS: dict[str, Sort] = {
    "score": Sort("models by score, tasks hardest last", lambda r: (r.rank, r.slug), _hardest_last),
    "model": Sort("models by id, tasks hardest last", lambda r: (r.slug,), _hardest_last),
    "harness": Sort(
        "models by harness, tasks hardest last",
        lambda r: (r.harness, r.rank, r.slug),
        _hardest_last,
    ),
    "task": Sort("models by score, tasks by id", lambda r: (r.rank, r.slug), lambda t: (t.slug,)),
}
DEFAULT_SORT = "score"


@dataclass(frozen=True)
class SurfaceGroup:
    surface: str
    columns: list[MatrixTask]


def surface_figures(by_surface: dict, surfaces: list[str]) -> dict:
    """A model's score over the given surfaces: the mean over their tasks of
    each task's mean over its trials (surfaces weighted by their task counts),
    with the tasks, trials and trials passed counted."""
    entries = [by_surface[s] for s in surfaces if s in by_surface]
    tasks = sum(e.get("tasks", 0) for e in entries)
    total = sum(e.get("score", 0.0) * e.get("tasks", 0) for e in entries)
    return {
        "score": total / tasks if tasks else 0.0,
        "tasks": tasks,
        "passed": sum(
            e.get("passed", round(e.get("score", 0.0) * e.get("tasks", 0))) for e in entries
        ),
        "trials": sum(e.get("trials", e.get("tasks", 0)) for e in entries),
    }


def matrix(request, bench: str):
    bench = queries.bench_or_404(bench)
    wanted = MatrixQuery(request.GET, sorts=list(SORTS), default_sort=DEFAULT_SORT).values()
    surfaces, harnesses = wanted["surface"], wanted["harness"]
    model_slugs, task_slugs = wanted["model"], wanted["task"]
    released_only, sort_name = wanted["released"], wanted["sort"]
    sort = SORTS[sort_name]

    all_tasks = queries.matrix_tasks(bench, request.user)
    tasks = [
        t
        for t in all_tasks
        if (not surfaces or t.surface in surfaces)
        and (not task_slugs or t.slug in task_slugs)
        and (not released_only or t.released)
    ]
    tasks.sort(key=lambda t: (t.surface, *sort.columns(t)))

    all_models = list(
        # A published-only model has no per-task results: no row here.
        Model.objects.filter(bench=bench, published_only=False).values_list(
            "pk",
            "slug",
            "display_name",
            "harness",
            "score",
            "rank",
            "passed",
            "tasks",
            "trials",
            "by_surface",
        )
    )
    shown_surfaces = [s for s in surfaces if s in {t.surface for t in all_tasks}]
    rows = [
        MatrixRow(*values[:9])
        for values in all_models
        if (not harnesses or values[3] in harnesses)
        and (not model_slugs or values[1] in model_slugs)
    ]
    if shown_surfaces:
        # Filtered to surfaces, the score column and the ranking are the
        # models' scores on those surfaces (task-weighted), not overall.
        by_surface = {values[0]: values[9] or {} for values in all_models}
        rows = [
            dataclasses.replace(r, **surface_figures(by_surface[r.pk], shown_surfaces))
            for r in rows
        ]
        if sort_name == DEFAULT_SORT:
            rows.sort(key=lambda r: (-r.score, r.rank, r.slug))
        else:
            rows.sort(key=sort.rows)
    else:
        rows.sort(key=sort.rows)

    paginator = Paginator(tasks, settings.BENCHVIEW_LIMITS["matrix_tasks_per_page"])
    # Past the last page is the last page (get_page); the form made it at least 1.
    page = paginator.get_page(wanted["page"])
    columns = list(page.object_list)
    model_filter = [r.pk for r in rows] if (harnesses or model_slugs) else None
    cells = queries.matrix_cells(bench, task_ids=[t.pk for t in columns], model_ids=model_filter)
    # Only a bench whose models ran some task several times asks for trials
    # (where the exceptions rule leaves trials out, the counts cannot tell).
    trials = (
        queries.matrix_trials(cells, task_ids=[t.pk for t in columns], model_ids=model_filter)
        if any(values[8] > values[7] for values in all_models)
        or bench.exceptions_rule == TERMINAL_BENCH_EXCEPTIONS
        else None
    )
    fmt = download.wanted(request)
    if fmt:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-matrix",
            columns=["model", "task", "surface", "released", "score", "flags"],
            rows=(
                [r.slug, t.slug, t.surface, t.released,
                 cell[queries.CELL_SCORE] if cell else None,
                 " ".join(queries.cell_flags(cell)) if cell else "missing-attempt"]
                for r in rows
                for t in columns
                for cell in [cells.get(r.pk, {}).get(t.pk)]
            ),
        )  # fmt: skip
    groups = [
        SurfaceGroup(surface, list(cols))
        for surface, cols in groupby(columns, key=lambda t: t.surface)
    ]
    return render(
        request,
        "leaderboard/matrix.html",
        {
            "bench": bench,
            "groups": groups,
            "columns": columns,
            "rows": rows,
            "body": matrix_body(
                bench.slug, rows, columns, cells, percent=bench.is_pass_fail, trials=trials
            ),
            "percent": bench.is_pass_fail,
            "all_surfaces": sorted({t.surface for t in all_tasks}),
            "all_harnesses": sorted({values[3] for values in all_models}),
            "all_models": sorted((v[:6] for v in all_models), key=lambda v: (v[5], v[1])),
            "shown_surfaces": shown_surfaces,
            "surfaces": surfaces,
            "harnesses": harnesses,
            "model_slugs": model_slugs,
            "task_slugs": task_slugs,
            "released_only": released_only,
            "sort_name": sort_name,
            "sorts": SORTS,
            "page": page.number,
            "pages": paginator.num_pages,
            "page_numbers": paginator.page_range,
            "first_task": page.start_index(),
            "last_task": page.end_index(),
            "task_count": paginator.count,
        },
    )
