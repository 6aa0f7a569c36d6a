"""Recording a bench's revisions, and what changed between two of them.

A revision freezes the board as anonymous readers saw it: the bytes of the
mirror's ``leaderboard.json`` and ``matrix.json``, built by the very functions
that serve the live files (``leaderboard.documents``) and serialised by the
mirror's own ``dumps``, so a revision recorded now equals the live files now,
byte for byte. Those documents hold only public figures (a staged batch's
scores count publicly; its detail is not in them: docs/visibility.md).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from leaderboard import documents
from leaderboard.jsonbytes import dumps
from leaderboard.models import Bench, BenchRevision, Model


def page_figures(bench: Bench) -> dict[str, dict[str, Any]]:
    """What the board page shows of each model beyond leaderboard.json, by model id."""
    rows = bench.models.ranked().values_list(
        "slug", "passed", "trials", "ci_low", "ci_high", "run_cost_usd"
    )
    return {
        slug: {
            "passed": passed,
            "trials": trials,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "run_cost_usd": run_cost,
        }
        for slug, passed, trials, ci_low, ci_high, run_cost in rows
    }


def revision_slug(taken: set[str], release_revision: str, when: dt.datetime) -> str:
    """The release's revision string slugged (the UTC date without one), with
    ``-2``, ``-3`` … when that address is taken: no address is ever reused."""
    base = slugify(release_revision)[:100] or when.astimezone(dt.UTC).date().isoformat()
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


@dataclass(frozen=True)
class Board:
    """What a revision freezes of a bench: the two files' bytes and the page's figures."""

    leaderboard_json: str
    matrix_json: str
    figures: dict[str, dict[str, Any]]


def _board(bench: Bench) -> Board:
    return Board(
        leaderboard_json=dumps(documents.leaderboard_document(bench)).decode("utf-8"),
        matrix_json=dumps(documents.matrix_document(bench)).decode("utf-8"),
        figures=page_figures(bench),
    )


def board_of(bench: Bench, *, slug: str) -> Board:
    """The board of ``bench`` (in any state) as it will read under the id ``slug``:
    a chunked import builds it before its swap, which then only stores it."""
    bench = Bench.everything.get(pk=bench.pk)
    bench.slug = slug  # in memory only: the documents name their bench
    return _board(bench)


def revision_record(
    *,
    bench: Bench,
    cause: str,
    by: str = "",
    when: dt.datetime | None = None,
    board: Board | None = None,
) -> BenchRevision | None:
    """Record a revision of ``bench`` if its anonymous board differs from the
    last one recorded (or none is); return it, or None when nothing changed.

    Call it inside the transaction of the change, so the revision commits or
    rolls back with it. The bench row is locked so two changes cannot take the
    same number or address. ``board``, built beforehand by ``board_of``, saves
    building it here (reading every attempt of the bench).
    """
    with transaction.atomic():
        # The row as the mirror will read it: the caller's copy may hold its
        # extras in the order they were written, which PostgreSQL's jsonb does
        # not keep, so a re-import would find different bytes and record again.
        bench = Bench.objects.select_for_update().get(pk=bench.pk)
        built = board or _board(bench)
        board, matrix, figures = built.leaderboard_json, built.matrix_json, built.figures
        last = bench.revisions.newest_first().first()
        if last is not None and (last.leaderboard_json, last.matrix_json) == (board, matrix):
            return None
        when = when or timezone.now()
        taken = set(bench.revisions.values_list("slug", flat=True))
        before = (json.loads(last.leaderboard_json), json.loads(last.matrix_json)) if last else None
        return BenchRevision.objects.create(
            bench=bench,
            slug=revision_slug(taken, bench.revision, when),
            number=(last.number + 1) if last else 1,
            release_revision=bench.revision,
            recorded_at=when,
            recorded_by=by[:200],
            cause=cause,
            leaderboard_json=board,
            matrix_json=matrix,
            figures=figures,
            changes=board_changes(before, (json.loads(board), json.loads(matrix))),
        )


Docs = tuple[dict[str, Any], dict[str, Any]]


def board_changes(before: Docs | None, after: Docs) -> dict[str, Any]:
    """What changed from ``before`` to ``after`` (each a leaderboard and a matrix
    document): models added and removed, rank and score moves, tasks released
    and withdrawn. ``before`` None is the first revision: everything is added."""
    old_rows = {r["model"]: r for r in before[0]["rows"]} if before else {}
    new_rows = {r["model"]: r for r in after[0]["rows"]}

    def brief(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "model": row["model"],
            "display_name": row["display_name"],
            "rank": row["rank"],
            "score": row["score"],
        }

    moved = []
    for slug, row in new_rows.items():
        old = old_rows.get(slug)
        if old is not None and (old["rank"], old["score"]) != (row["rank"], row["score"]):
            moved.append(
                {
                    "model": slug,
                    "display_name": row["display_name"],
                    "rank_from": old["rank"],
                    "rank_to": row["rank"],
                    "score_from": old["score"],
                    "score_to": row["score"],
                }
            )
    old_released = _released(before[1]) if before else set()
    new_released = _released(after[1])
    return {
        "revision_from": before[0]["revision"] if before else None,
        "revision_to": after[0]["revision"],
        "models_added": [brief(r) for s, r in new_rows.items() if s not in old_rows],
        "models_removed": [brief(r) for s, r in old_rows.items() if s not in new_rows],
        "moved": moved,
        "tasks_released": sorted(new_released - old_released),
        "tasks_withdrawn": sorted(old_released - new_released),
    }


def _released(matrix: dict[str, Any]) -> set[str]:
    return {t["id"] for t in matrix["tasks"] if t.get("released")}


def revision_docs(revision: BenchRevision) -> Docs:
    return json.loads(revision.leaderboard_json), json.loads(revision.matrix_json)


def model_history(revisions: list[BenchRevision], model: Model | str) -> list[dict[str, Any]]:
    """The model's score and rank in each of ``revisions`` (oldest first) where it is listed."""
    slug = model if isinstance(model, str) else model.slug
    points = []
    for revision in sorted(revisions, key=lambda r: r.number):
        for row in json.loads(revision.leaderboard_json)["rows"]:
            if row["model"] == slug:
                points.append(
                    {"revision": revision.slug, "recorded_at": revision.recorded_at,
                     "score": row["score"], "rank": row["rank"]}
                )  # fmt: skip
                break
    return points
