"""/<bench>/models/<a>/vs/<b>/: two models across every task, paired statistics."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render

from formats.v1.slugs import is_slug
from leaderboard import queries
from leaderboard.models import Model
from leaderboard.versus import versus, versus_document


def versus_page(request, bench: str, a: str, b: str):
    bench = queries.bench_or_404(bench)
    if a == b:
        raise Http404("Compare a model with another one.")
    found = {m.slug: m for m in Model.objects.filter(bench=bench, slug__in=[a, b])}
    if a not in found or b not in found:
        raise Http404(f"No model {a!r} or {b!r} in {bench.slug}.")
    for model in (found[a], found[b]):
        if model.published_only:
            # Nothing to pair: the source published only this model's aggregate.
            raise Http404(f"{model.slug} has a published score only; no per-task results.")
    result = versus(bench, found[a], found[b], request.user)
    if request.GET.get("format") == "json":
        return JsonResponse(versus_document(result, bench))
    return render(
        request,
        "leaderboard/versus.html",
        {"bench": bench, "v": result, "percent": bench.is_pass_fail},
    )


def versus_pick(request, bench: str, a: str):
    """Pick the other model (``?b=``), or list them to pick from."""
    bench = queries.bench_or_404(bench)
    model = queries.model_or_404(bench, a)
    if model.published_only:
        raise Http404(f"{model.slug} has a published score only; no per-task results.")
    other = request.GET.get("b", "")
    if is_slug(other) and other != a:
        return redirect("versus", bench=bench.slug, a=a, b=other)
    others = list(
        Model.objects.filter(bench=bench, published_only=False).exclude(pk=model.pk).ranked()
    )
    return render(
        request, "leaderboard/versus_pick.html", {"bench": bench, "model": model, "others": others}
    )
