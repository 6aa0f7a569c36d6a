"""One address of every page kind, on a v1 release and a Harbor bench imported
side by side, for the tests that walk the whole site (fit, axe)."""

from __future__ import annotations

from django.urls import reverse

from leaderboard.models import Attempt, Bench

WIDTHS = (1366, 390)
# The longest task title of the sample jobs: one unbreakable word.
LONG_TASK = "speed-up-etl-checkpoint-resume-bug"


def bench_pages(bench: Bench, task: str | None = None) -> dict[str, str]:
    """One address of every page kind of a bench, on a released attempt."""
    attempts = Attempt.objects.visible_to(None).filter(bench=bench).select_related("model", "task")
    first = attempts.filter(task__slug=task).first() if task else attempts.first()
    other = attempts.filter(task=first.task).exclude(pk=first.pk).first()
    b, m, t, o = bench.slug, first.model.slug, first.task.slug, other.model.slug
    return {
        "leaderboard": reverse("bench", args=[b]),
        "matrix": reverse("matrix", args=[b]),
        "tasks": reverse("tasks", args=[b]),
        "task": reverse("task", args=[b, t]),
        "about": reverse("about", args=[b]),
        "model": reverse("model", args=[b, m]),
        "versus-pick": reverse("versus-pick", args=[b, m]),
        "versus": reverse("versus", args=[b, m, o]),
        "attempt": reverse("attempt", args=[b, m, t]),
        "attempt-search": reverse("attempt", args=[b, m, t]) + "?q=the#search",
        "events": reverse("attempt-events", args=[b, m, t]),
        "event": reverse("attempt-event", args=[b, m, t, 1]),
        "transcript": reverse("attempt-transcript", args=[b, m, t]),
        "compare": reverse("compare", args=[b, t, m, o]),
        "search": reverse("search", args=[b]) + "?q=timeout",
        "tool-failures": reverse("analysis-tool-failures", args=[b]),
        "protocol": reverse("analysis-protocol", args=[b]),
        "data": reverse("data-bench", args=[b]),
    }


def every_page(v1: Bench, harbor: Bench) -> dict[str, str]:
    pages = {"home": reverse("home"), "data-root": reverse("data-root")}
    pages.update({f"v1 {k}": v for k, v in bench_pages(v1).items()})
    pages.update({f"harbor {k}": v for k, v in bench_pages(harbor, LONG_TASK).items()})
    pages.update({"api": "/api/", "api-docs": "/api/docs/", "not-found": "/no-such-bench/"})
    return pages
