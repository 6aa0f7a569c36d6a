"""/<bench>/tasks/<task>/: the ticket, its checks, and every model's result."""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import redirect, render
from django.urls import reverse

from leaderboard import queries
from leaderboard.models import Attempt
from leaderboard.render.markdown import render_markdown
from leaderboard.slugs import is_slug


@dataclass
class ResultRow:
    attempt: Attempt
    # One entry per task check, in check order: True, False, or None when the
    # verdict is missing or does not name the check.
    outcomes: list[bool | None]


def task(request, bench: str, task: str):
    bench = queries.bench_or_404(bench)
    entry = queries.task_or_404(bench, task, request.user)
    checks = queries.task_checks(entry)
    attempts = queries.task_attempts(entry)
    results = queries.task_check_results(attempts)
    rows = [ResultRow(a, [results.get(a.pk, {}).get(c.name) for c in checks]) for a in attempts]
    comparable = [a.model for a in attempts if a.has_detail]
    return render(
        request,
        "leaderboard/task.html",
        {
            "bench": bench,
            "task": entry,
            "ticket": render_markdown(entry.ticket, heading_shift=2),
            "checks": checks,
            "rows": rows,
            "without_attempt": queries.models_without_attempt(entry),
            "comparable": comparable,
            "percent": bench.is_pass_fail,
        },
    )


def compare_pick(request, bench: str, task: str):
    """Send the task page's "compare two models" form to the compare address.

    Only checks the slugs' shape: the compare page answers 404 for models
    without an attempt, as it would for a pasted address.
    """
    a, b = request.GET.get("a", ""), request.GET.get("b", "")
    if not (is_slug(a) and is_slug(b)):
        return redirect(reverse("task", args=[bench, task]) + "#compare")
    return redirect("compare", bench=bench, task=task, model_a=a, model_b=b)
