"""What an import would change, as the admin shows it before anything is written.

``score_changes`` predicts each model's leaderboard score and rank after the
apply the same way the apply computes them (``formats.v1.scoring`` on the
recomputed scores of released attempts and the matrix cells of the others),
so the preview cannot promise figures the import does not produce.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from formats.v1.scoring import Cell, competition_ranks, differs, model_figures
from ingest.reading.plan import ImportPlan
from ingest.reading.report import plan_summary
from leaderboard.models import Model
from leaderboard.services import published_figure, published_only_score


@dataclass(frozen=True)
class ScoreChange:
    """One model's leaderboard figures now and after the import."""

    model: str
    status: str  # "new", "changed", "unchanged" or "removed"
    old_score: float | None
    old_rank: int | None
    new_score: float | None
    new_rank: int | None
    published_score: float | None  # leaderboard.json's figure for the new score

    @property
    def disagrees(self) -> bool:
        """The release's own leaderboard figure differs from the recomputed one."""
        return (
            self.published_score is not None
            and self.new_score is not None
            and differs(self.published_score, self.new_score)
        )


def plan_model_figures(plan: ImportPlan) -> dict[str, tuple[float, int]]:
    """Model id -> (score, rank) the apply would store, from the plan alone."""
    manifest, matrix = plan.manifest, plan.matrix
    if manifest is None or matrix is None:
        return {}
    surfaces = {t.id: t.surface for t in matrix.tasks}  # as the apply stores them
    recomputed = {(a.model, a.task): a.recomputed_score for a in plan.attempts if not a.trial}
    # Further trials count in the score as they will once applied.
    further: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for a in plan.attempts:
        if a.trial:
            further.setdefault((a.model, a.task), []).append((a.trial, a.recomputed_score))
    rows = {r.model: r.model_dump() for r in plan.leaderboard.rows} if plan.leaderboard else {}
    scores = {}
    for model in manifest.models:
        only = published_only_score(rows.get(model))
        if only is not None:
            # No per-task results: placed by its published score, as the apply does.
            scores[model] = only
            continue
        cells = {}

        def trials(task: str, model: str = model) -> tuple[float, ...]:
            return tuple(score for _, score in sorted(further.get((model, task), [])))

        for task, cell in matrix.cells.get(model, {}).items():
            score = recomputed.get((model, task), cell.score)
            cells[task] = Cell(score=score, flags=tuple(cell.flags), trials=trials(task))
        for (m, task), score in recomputed.items():
            if m == model and task not in cells:
                cells[task] = Cell(score=score, trials=trials(task))
        order = [t for t in manifest.tasks if t in surfaces]
        scores[model] = model_figures(cells, surfaces, order).score
    ranks = dict(competition_ranks(list(scores.items())))
    return {model: (score, ranks[model]) for model, score in scores.items()}


def score_changes(plan: ImportPlan) -> list[ScoreChange]:
    """Every model's old and new score and rank: new rank order, removed models last."""
    new = plan_model_figures(plan)
    old = {
        slug: (score, rank)
        for slug, score, rank in Model.objects.filter(bench__slug=plan.bench).values_list(
            "slug", "score", "rank"
        )
    }
    published = (
        {r.model: published_figure(r.model_dump()) for r in plan.leaderboard.rows}
        if plan.leaderboard
        else {}
    )
    changes = []
    for slug in sorted(new.keys() | old.keys()):
        before, after = old.get(slug), new.get(slug)
        if before is None:
            status = "new"
        elif after is None:
            status = "removed"
        elif differs(before[0], after[0]) or before[1] != after[1]:
            status = "changed"
        else:
            status = "unchanged"
        changes.append(
            ScoreChange(
                model=slug,
                status=status,
                old_score=before[0] if before else None,
                old_rank=before[1] if before else None,
                new_score=after[0] if after else None,
                new_rank=after[1] if after else None,
                published_score=published.get(slug),
            )
        )
    changes.sort(key=lambda c: (c.new_rank is None, c.new_rank or 0, c.model))
    return changes


def plan_preview(plan: ImportPlan) -> dict:
    """Everything the preview page shows, as plain JSON (kept between preview and apply)."""
    return {
        "source_name": plan.source_name,
        "source_sha256": plan.source_sha256,
        "title": plan.title,
        "summary": plan_summary(plan),
        "problems": [{"file": p.file, "path": p.path, "message": p.message} for p in plan.problems],
        # What was rewritten instead of refused ("file: what, at where"), each once.
        "scrubbed": list(plan.scrubbed),
        "score_changes": [{**asdict(c), "disagrees": c.disagrees} for c in score_changes(plan)],
    }
