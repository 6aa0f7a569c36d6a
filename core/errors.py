"""The site's 404 and 500 pages, in its layout with a way home.

A task's pages answer 404 until its batch is live; when the task exists (the
matrix lists it), the 404 page says so instead of "not found", and shows
nothing of its detail. A task page is any page whose address names a bench
and a task (the resolver's match says so): the task, its compare pages, and
every attempt page of every trial (events, transcript, one event).
"""

from __future__ import annotations

from django.http import HttpResponseNotFound, HttpResponseServerError
from django.template import loader
from django.urls import Resolver404, resolve

from core.hooks import hook

# Addresses that are files and answers, not pages: their 404s name no task.
NOT_PAGES = ("data/", "api/")


def _unreleased(request):
    """(bench, task) when the address is a page of a task that exists but is
    not released; else None."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    bench, task = match.kwargs.get("bench"), match.kwargs.get("task")
    if not (bench and task) or match.route.startswith(NOT_PAGES):
        return None
    return hook("unreleased_task")(bench, task)


def not_found(request, exception=None):
    found = _unreleased(request)
    context = {"bench": found[0], "task": found[1]} if found else {}
    body = loader.render_to_string("404.html", context, request)
    return HttpResponseNotFound(body)


def server_error(request):
    # No context and no database: whatever failed may fail again.
    return HttpResponseServerError(loader.get_template("500.html").render())
