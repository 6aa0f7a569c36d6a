"""/<bench>/tasks/<task>/: the ticket, its checks, and every model's result."""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString

from core.html import html, html_join
from formats.v1.scoring import TOLERANCE
from formats.v1.slugs import is_slug
from leaderboard import queries
from leaderboard.models import Attempt
from leaderboard.render import download
from leaderboard.render.markdown import render_markdown

# One cell per check outcome: passed, failed, or absent (a missing verdict, or
# a verdict that does not name the check). Shapes as well as colours tell them apart.
OUTCOME_CELLS = {
    True: html(
        '<td class="outcome pass" title="passed"><span aria-hidden="true">✓</span>'
        '<span class="visually-hidden">passed</span></td>'
    ),
    False: html(
        '<td class="outcome fail" title="failed"><span aria-hidden="true">✗</span>'
        '<span class="visually-hidden">failed</span></td>'
    ),
    None: html('<td class="outcome none" title="no result">–</td>'),
}


@dataclass
class ResultRow:
    attempt: Attempt
    outcome_cells: SafeString
    model_href: str
    attempt_href: str
    trials: queries.TaskTrials
    # (trial number, its page) for each further trial of the model on the task.
    trial_links: list[tuple[int, str]]


def task(request, bench: str, task: str):
    bench = queries.bench_or_404(bench)
    entry = queries.task_or_404(bench, task, request.user)
    checks = queries.task_checks(entry)
    attempts = queries.task_attempts(entry)
    results = queries.task_check_results(attempts)
    trials = queries.task_trials(attempts)
    names = [c.name for c in checks]
    rows = []
    for a in attempts:
        outcomes = results.get(a.pk, {})
        rows.append(
            ResultRow(
                attempt=a,
                outcome_cells=html_join(OUTCOME_CELLS[outcomes.get(n)] for n in names),
                model_href=reverse("model", args=[bench.slug, a.model.slug]),
                attempt_href=reverse("attempt", args=[bench.slug, a.model.slug, entry.slug]),
                trials=trials[a.model_id],
                trial_links=[
                    (n, reverse("attempt-trial", args=[bench.slug, a.model.slug, entry.slug, n]))
                    for n in trials[a.model_id].further
                ],
            )
        )
    fmt = download.wanted(request)
    if fmt:
        return download.table_response(
            fmt,
            name=f"{bench.slug}-{entry.slug}",
            # The score is the model's on the task over every trial, as the
            # leaderboard counts it; the checks are its first trial's.
            columns=["model", "score", "passed", "trials", *names],
            rows=(
                [
                    a.model.slug,
                    trials[a.model_id].value,
                    trials[a.model_id].passed,
                    trials[a.model_id].total,
                    *(results.get(a.pk, {}).get(n) for n in names),
                ]
                for a in attempts
            ),
        )
    comparable = [a.model for a in attempts if a.has_detail]
    pair = default_pair([a for a in attempts if a.has_detail])
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
            "pair_a": pair[0],
            "pair_b": pair[1],
            "percent": bench.is_pass_fail,
            "several_trials": any(t.total > 1 for t in trials.values()),
        },
    )


def default_pair(attempts: list[Attempt]) -> tuple[str | None, str | None]:
    """The compare form's preselected models: the best attempt that passed and
    the best that did not, where both exist; else the two best. Attempts
    come best model first."""
    passed = [a for a in attempts if a.score >= 1.0 - TOLERANCE]
    failed = [a for a in attempts if a.score < 1.0 - TOLERANCE]
    if passed and failed:
        return passed[0].model.slug, failed[0].model.slug
    slugs = [a.model.slug for a in attempts[:2]]
    return (slugs + [None, None])[0], (slugs + [None, None])[1]


def compare_pick(request, bench: str, task: str):
    """Send the task page's "compare two models" form to the compare address.

    Only checks the slugs' shape: the compare page answers 404 for models
    without an attempt, as it would for a pasted address.
    """
    a, b = request.GET.get("a", ""), request.GET.get("b", "")
    # A model compared with itself shows nothing: back to the form.
    if not (is_slug(a) and is_slug(b)) or a == b:
        return redirect(reverse("task", args=[bench, task]) + "#compare")
    return redirect("compare", bench=bench, task=task, model_a=a, model_b=b)
