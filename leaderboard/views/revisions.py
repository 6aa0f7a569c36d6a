"""/<bench>/revisions/…: the bench's revisions, each board and matrix as it was,
and what changed between two (docs/revisions.md). Two queries a page at most
(the bench, its revisions), however large the board."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from leaderboard import queries
from leaderboard.models import Bench, BenchRevision, Model
from leaderboard.render.revision import (
    bibtex,
    board_rows,
    history_chart,
    matrix_rows,
    surfaces_of,
)
from leaderboard.revisions import board_changes, model_history, revision_docs


def _revision_or_404(bench: Bench, rev: str) -> BenchRevision:
    found = bench.revisions.filter(slug=rev).first()
    if found is None:
        raise Http404(f"No revision {rev!r} of {bench.slug!r}.")
    return found


def revisions(request, bench: str):
    bench = queries.bench_or_404(bench)
    found = list(bench.revisions.newest_first().defer("leaderboard_json", "matrix_json", "figures"))
    # Each with the one before it, for its "compare" link.
    pairs = [(r, found[i + 1] if i + 1 < len(found) else None) for i, r in enumerate(found)]
    return render(
        request,
        "leaderboard/revisions/list.html",
        {"bench": bench, "pairs": pairs, "percent": bench.is_pass_fail},
    )


def revision(request, bench: str, rev: str):
    bench = queries.bench_or_404(bench)
    found = _revision_or_404(bench, rev)
    board, _ = revision_docs(found)
    return render(
        request,
        "leaderboard/revisions/board.html",
        {
            "bench": bench,
            "revision": found,
            "surfaces": surfaces_of(board),
            "rows": board_rows(board, found.figures, percent=bench.is_pass_fail),
            "percent": bench.is_pass_fail,
        },
    )


def revision_matrix(request, bench: str, rev: str):
    bench = queries.bench_or_404(bench)
    found = _revision_or_404(bench, rev)
    _, matrix = revision_docs(found)
    return render(
        request,
        "leaderboard/revisions/matrix.html",
        {
            "bench": bench,
            "revision": found,
            "tasks": matrix["tasks"],
            "rows": matrix_rows(matrix, percent=bench.is_pass_fail),
        },
    )


def revision_diff(request, bench: str, a: str, b: str):
    bench = queries.bench_or_404(bench)
    found = {r.slug: r for r in bench.revisions.filter(slug__in=[a, b])}
    if a not in found or b not in found:
        raise Http404("No such revision.")
    older, newer = found[a], found[b]
    return render(
        request,
        "leaderboard/revisions/diff.html",
        {
            "bench": bench,
            "a": older,
            "b": newer,
            "changes": board_changes(revision_docs(older), revision_docs(newer)),
            "percent": bench.is_pass_fail,
        },
    )


def citation(request, bench: Bench) -> dict:
    """The live board's revision and its "cite this" (one query): context for
    ``_cite.html``, empty when no revision is recorded yet."""
    latest = bench.revisions.newest_first().only("bench", "slug", "number", "recorded_at").first()
    if latest is None:
        return {}
    url = request.build_absolute_uri(reverse("revision", args=[bench.slug, latest.slug]))
    return {
        "cite_revision": latest,
        "cite_url": url,
        "cite_bibtex": bibtex(
            bench_slug=bench.slug,
            title=bench.title,
            revision=latest.slug,
            url=url,
            recorded=latest.recorded_at.date().isoformat(),
        ),
    }


def revision_history(bench: Bench, model: Model) -> dict:
    """The model's score across the bench's revisions, for its page (one query)."""
    found = list(bench.revisions.only("bench", "slug", "number", "recorded_at", "leaderboard_json"))
    points = model_history(found, model)
    return {
        "history": points,
        "history_chart": history_chart(points, percent=bench.is_pass_fail),
    }
