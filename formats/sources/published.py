"""What a source publishes of a model beside its attempts, in the release's
leaderboard rows (docs/statistics.md: published-only rows and row fields)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from formats.sources import ModelEntry
from formats.v1.scoring import competition_ranks


def published_fields(model: ModelEntry) -> dict[str, Any]:
    """The row's extension fields: ``published_score``, ``published_only``
    (no per-task results) and ``published_precision`` (its rounding), where
    the source gives them."""
    found: dict[str, Any] = {}
    if model.published_score is not None:
        found["published_score"] = model.published_score
    if model.published_precision is not None:
        found["published_precision"] = model.published_precision
    if model.published_only:
        found["published_only"] = True
    return found


def published_only_problems(models: Iterable[ModelEntry], attempted: set[str]) -> list[str]:
    """A published-only model needs its score and may have no attempt."""
    problems = []
    for m in models:
        if m.published_only and m.published_score is None:
            problems.append(f"model {m.id}: published only, but no published score")
        if m.published_only and m.id in attempted:
            problems.append(f"model {m.id}: published only, but it has attempts")
    return problems


def rank_published_only(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows ranked as the site will: a published-only row by its published
    score, so no other row's rank seems to disagree."""
    if not any(r.get("published_only") for r in rows):
        return rows
    placed = {
        r["model"]: r["published_score"] if r.get("published_only") else r["score"] for r in rows
    }
    ranks = dict(competition_ranks(list(placed.items())))
    for row in rows:
        row["rank"] = ranks[row["model"]]
    return sorted(rows, key=lambda r: (r["rank"], r["model"]))


def latest_results_date(models: Iterable[ModelEntry]) -> str | None:
    """The models' latest ``results_date``: the date of a release with no
    attempt (only published scores), in place of the epoch."""
    dates = [m.extra.get("results_date") for m in models]
    dates = [d for d in dates if isinstance(d, str) and len(d) == 10]
    return max(dates) if dates else None
