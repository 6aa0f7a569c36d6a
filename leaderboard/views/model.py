"""/<bench>/models/<model>/: one model's aggregate, surfaces and released attempts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import render

from leaderboard import queries
from leaderboard.models import Attempt
from leaderboard.render import download
from leaderboard.render.svg import surface_bars


def _none_last(value: float | None) -> tuple[bool, float]:
    return (value is None, value or 0.0)


# Natural direction of each sortable column; the task id ends every key so
# the order is total.
SORTS: dict[str, Callable[[Attempt], Any]] = {
    "task": lambda a: (a.task.slug,),
    "surface": lambda a: (a.task.surface, a.task.slug),
    "score": lambda a: (a.score, a.task.slug),
    "checks": lambda a: (_none_last(a.checks_passed), _none_last(a.checks_total), a.task.slug),
    "mandatory": lambda a: (_none_last(a.mandatory_failed), a.task.slug),
    "cost": lambda a: (_none_last(a.cost_usd), a.task.slug),
    "duration": lambda a: (_none_last(a.duration_s), a.task.slug),
    "flags": lambda a: (len(a.flags), a.flags, a.task.slug),
}
DEFAULT_SORT = "task"


def sort_attempts(attempts: list[Attempt], sort: str) -> tuple[list[Attempt], str]:
    name = sort.removeprefix("-")
    if name not in SORTS:
        return sorted(attempts, key=SORTS[DEFAULT_SORT]), DEFAULT_SORT
    return sorted(attempts, key=SORTS[name], reverse=sort.startswith("-")), sort


def model(request, bench: str, model: str):
    bench = queries.bench_or_404(bench)
    entry = queries.model_or_404(bench, model)
    attempts, sort = sort_attempts(
        queries.model_attempts(entry, request.user), request.GET.get("sort", "")
    )
    percent = bench.is_pass_fail
    fmt = download.wanted(request)
    if fmt:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-{entry.slug}",
            columns=["task", "surface", "score", "checks_passed", "checks_total",
                     "mandatory_failed", "cost_usd", "duration_s", "flags"],
            rows=(
                [a.task.slug, a.task.surface, a.score, a.checks_passed, a.checks_total,
                 a.mandatory_failed, a.cost_usd, a.duration_s, " ".join(a.flags)]
                for a in attempts
            ),
        )  # fmt: skip
    bars = surface_bars(
        [
            (
                surface,
                figures["score"],
                f"{figures['tasks']} task{'s' if figures['tasks'] != 1 else ''}",
            )
            for surface, figures in sorted(entry.by_surface.items())
        ],
        percent=percent,
    )
    # Tasks passed in some trials but not all (stored at import), linked to
    # their trials where the visitor may see the task's attempts.
    visible = {a.task.slug for a in attempts}
    inconsistent = [
        {"task": task, "passed": passed, "total": total, "visible": task in visible,
         "trials": range(total)}
        for task, passed, total in entry.some_tasks
    ]  # fmt: skip
    pass_k = [
        {"k": k, "at": entry.pass_at_k[k], "hat": entry.pass_hat_k.get(k),
         "tasks": entry.pass_k_tasks.get(k)}
        for k in sorted(entry.pass_at_k, key=int)
    ]  # fmt: skip
    return render(
        request,
        "leaderboard/model.html",
        {
            "bench": bench,
            "model": entry,
            "attempts": attempts,
            "sort": sort,
            "bars": bars,
            "disagreements": queries.model_disagreements(entry, request.user),
            "unlisted": queries.model_unlisted(entry, request.user),
            "listed_cost": sum(a.cost_usd or 0.0 for a in attempts),
            "percent": percent,
            "inconsistent": inconsistent,
            # pass@k only says more than the score where some task ran twice or more.
            "pass_k": pass_k if len(pass_k) > 1 else [],
            "several": entry.trials > entry.tasks,
        },
    )
