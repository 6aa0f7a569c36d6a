"""/<bench>/tasks/: every public task, sortable and filterable in the query string.

Unreleased tasks are listed (they count for scores) but not linked: they have
no page yet. Staged ones link for staff only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.shortcuts import render
from django.urls import reverse

from leaderboard import queries
from leaderboard.models import Task
from leaderboard.render.download import table_response, wanted

RELEASED, STAGED, UNRELEASED = "released", "staged", "unreleased"
STATES = (RELEASED, STAGED, UNRELEASED)


@dataclass
class TaskRow:
    task: Task
    state: str
    checks: int
    mandatory: int
    href: str | None


SORTS: dict[str, Callable[[TaskRow], Any]] = {
    "title": lambda r: (r.task.title.casefold(), r.task.slug),
    "surface": lambda r: (r.task.surface, r.task.slug),
    "state": lambda r: (STATES.index(r.state), r.task.slug),
    "batch": lambda r: (r.task.batch.number if r.task.batch else 10**9, r.task.slug),
    "score": lambda r: (r.task.mean_score, r.task.slug),
    "checks": lambda r: (r.checks, r.task.slug),
}


def _state(task: Task) -> str:
    if task.batch is None:
        return UNRELEASED
    return RELEASED if task.batch.live else STAGED


def task_rows(bench, user) -> list[TaskRow]:
    """Every task of the bench with its check counts: one query."""
    staff = bool(user is not None and user.is_active and user.is_staff)
    tasks = (
        Task.objects.filter(bench=bench)
        .select_related("batch")
        .defer("ticket", "extras", "vendors")
        .annotate(
            n_checks=Count("checks"), n_mandatory=Count("checks", filter=Q(checks__mandatory=True))
        )
        .order_by("slug", "pk")
    )
    prefix = reverse("task", args=[bench.slug, "probe"]).removesuffix("probe/")
    rows = []
    for t in tasks:
        state = _state(t)
        linked = state == RELEASED or (state == STAGED and staff)
        rows.append(
            TaskRow(t, state, t.n_checks, t.n_mandatory, f"{prefix}{t.slug}/" if linked else None)
        )
    return rows


def tasks(request, bench: str):
    bench = queries.bench_or_404(bench)
    rows = task_rows(bench, request.user)
    surfaces = sorted({r.task.surface for r in rows})
    surface = request.GET.get("surface", "")
    state = request.GET.get("state", "")
    q = request.GET.get("q", "").strip()
    shown = [
        r
        for r in rows
        if (not surface or r.task.surface == surface)
        and (not state or r.state == state)
        and (not q or q.casefold() in f"{r.task.title} {r.task.slug}".casefold())
    ]
    sort = request.GET.get("sort", "")
    name = sort.removeprefix("-")
    if name not in SORTS:
        name, sort = "surface", ""
    shown.sort(key=SORTS[name], reverse=sort.startswith("-"))
    fmt = wanted(request)
    if fmt:
        return table_response(
            fmt,
            name=f"{bench.slug}-tasks",
            columns=[
                "task",
                "title",
                "surface",
                "state",
                "batch",
                "mean_score",
                "checks",
                "mandatory_checks",
            ],
            rows=(
                [
                    r.task.slug,
                    r.task.title,
                    r.task.surface,
                    r.state,
                    r.task.batch.number if r.task.batch else None,
                    round(r.task.mean_score, 6),
                    r.checks,
                    r.mandatory,
                ]
                for r in shown
            ),
        )
    return render(
        request,
        "leaderboard/tasks.html",
        {
            "bench": bench,
            "rows": shown,
            "total": len(rows),
            "surfaces": surfaces,
            "states": STATES,
            "surface": surface,
            "state": state,
            "q": q,
            "sort": sort,
            "percent": bench.is_pass_fail,
        },
    )
