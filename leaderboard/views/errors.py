"""The site's 404 and 500 pages, in its layout with a way home.

A task's pages answer 404 until its batch is live; when the task exists (the
matrix lists it), the 404 page says so instead of "not found", and shows
nothing of its detail.
"""

from __future__ import annotations

from django.http import HttpResponseNotFound, HttpResponseServerError
from django.template import loader
from django.urls import Resolver404, resolve

from leaderboard.models import Bench, Task

# URL names whose ``bench`` and ``task`` arguments name a task's detail.
TASK_PAGES = {"task", "attempt", "attempt-event", "compare", "task-compare-pick"}


def _unreleased(request) -> tuple[Bench, Task] | None:
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.url_name not in TASK_PAGES:
        return None
    task = (
        Task.objects.select_related("bench", "batch")
        .only("slug", "title", "surface", "bench__slug", "bench__title", "batch__live")
        .filter(bench__slug=match.kwargs.get("bench"), slug=match.kwargs.get("task"))
        .first()
    )
    if task is None or (task.batch is not None and task.batch.live):
        return None
    return task.bench, task


def not_found(request, exception=None):
    found = _unreleased(request)
    context = {"bench": found[0], "task": found[1]} if found else {}
    body = loader.render_to_string("404.html", context, request)
    return HttpResponseNotFound(body)


def server_error(request):
    # No context and no database: whatever failed may fail again.
    return HttpResponseServerError(loader.get_template("500.html").render())
