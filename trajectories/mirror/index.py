"""/data/v1/ and /data/v1/<bench>/: what the mirror holds, for people and scripts.

One address, two answers: a browser (Accept: text/html first) gets a page
in the site's layout; any other client gets JSON listing the same files.
``?format=json`` or ``?format=html`` picks one explicitly.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from leaderboard.models import Attempt, Bench, Task
from trajectories.documents import ATTEMPT_FILES, file_present
from trajectories.mirror.http import PRIVATE, mirror_view

BENCH_FILES = ("manifest.json", "leaderboard.json", "matrix.json")


def wants_html(request) -> bool:
    chosen = request.GET.get("format")
    if chosen in ("json", "html"):
        return chosen == "html"
    return request.get_preferred_type(["application/json", "text/html"]) == "text/html"


def _answer(request, template: str, context: dict, document: dict):
    if wants_html(request):
        response = render(request, template, context)
    else:
        response = JsonResponse(document, json_dumps_params={"indent": 2})
    # Staff see staged files listed: never share a staff answer through a cache.
    response["Cache-Control"] = PRIVATE if request.user.is_staff else "no-cache"
    patch_vary_headers(response, ("Accept",))
    return response


@mirror_view
def root(request):
    benches = list(Bench.objects.order_by("slug", "pk"))
    document = {
        "format_version": 1,
        "benches": [
            {
                "id": b.slug,
                "title": b.title,
                "index": request.build_absolute_uri(reverse("data-bench", args=[b.slug])),
                "manifest": request.build_absolute_uri(reverse("mirror-manifest", args=[b.slug])),
            }
            for b in benches
        ],
    }
    return _answer(
        request, "trajectories/data_root.html", {"benches": benches, "section": "data"}, document
    )


@mirror_view
def bench(request, bench):
    found = Bench.objects.filter(slug=bench).first()
    if found is None:
        raise Http404("no such bench")
    prefix = reverse("data-bench", args=[found.slug])
    models = list(found.models.order_by("rank", "slug", "pk").values_list("slug", flat=True))
    tasks = list(
        Task.objects.visible_to(request.user)
        .filter(bench=found)
        .order_by("slug", "pk")
        .values_list("slug", flat=True)
    )
    attempts = []
    for a in (
        Attempt.objects.visible_to(request.user)
        .filter(bench=found)
        .select_related("model", "task", "evidence")
        .order_by("model__rank", "model__slug", "task__slug", "pk")
    ):
        folder = f"attempts/{a.model.slug}/{a.task.slug}/"
        files = [name for name in ATTEMPT_FILES if file_present(a, name)]
        attempts.append(
            {"model": a.model.slug, "task": a.task.slug, "folder": folder, "files": files}
        )
    files = [
        *BENCH_FILES,
        *(f"models/{m}.json" for m in models),
        *(f"tasks/{t}.json" for t in tasks),
        *(f"{a['folder']}{name}" for a in attempts for name in a["files"]),
    ]
    document = {"bench": found.slug, "base": request.build_absolute_uri(prefix), "files": files}
    context = {
        "bench": found,
        "section": "data",
        "prefix": prefix,
        "bench_files": BENCH_FILES,
        "models": models,
        "tasks": tasks,
        "attempts": attempts,
        "file_count": len(files),
    }
    return _answer(request, "trajectories/data_bench.html", context, document)
