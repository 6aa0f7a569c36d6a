"""Two models across every public task: the figures of the versus page.

A task's value is the leaderboard's: the model's mean over its trials of the
task, 0 without an attempt (``scoring.model_figures``), so the mean difference
here is exactly the gap between the two leaderboard scores. Reads: two queries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings

from leaderboard.models import Attempt, Bench, Model, Task
from leaderboard.paired import (
    TIE,
    McNemar,
    PairedInterval,
    Record,
    mcnemar_exact,
    paired_interval,
    record,
)


@dataclass(frozen=True)
class TaskDiff:
    slug: str
    title: str
    surface: str
    a: float
    b: float
    visible: bool  # the visitor may open the task (and, with both details, compare)
    comparable: bool  # both attempts released: the one-task compare page exists

    @property
    def difference(self) -> float:
        return self.a - self.b


@dataclass(frozen=True)
class SurfaceLine:
    surface: str
    tasks: int
    mean: float  # mean of a - b over the surface's tasks
    record: Record


@dataclass
class Versus:
    a: Model
    b: Model
    tasks: int
    interval: PairedInterval | None
    record: Record
    surfaces: list[SurfaceLine]
    differ_most: list[TaskDiff]
    mcnemar: McNemar | None  # pass-fail benches only


def versus(bench: Bench, a: Model, b: Model, user) -> Versus:
    visible = set(Task.objects.visible_to(user).filter(bench=bench).values_list("pk", flat=True))
    tasks = list(
        Task.objects.filter(bench=bench)
        .order_by("position", "pk")
        .values_list("pk", "slug", "title", "surface")
    )
    trials: dict[tuple[int, int], list[float]] = defaultdict(list)
    detail: dict[tuple[int, int], bool] = {}
    for model_id, task_id, trial, score, has_detail in (
        Attempt.all_trials.filter(model__in=[a.pk, b.pk])
        .order_by("model_id", "task_id", "trial")
        .values_list("model_id", "task_id", "trial", "score", "has_detail")
    ):
        trials[(model_id, task_id)].append(score)
        if not trial:
            detail[(model_id, task_id)] = has_detail
    cells = {
        key: (sum(found) / len(found), detail.get(key, False)) for key, found in trials.items()
    }
    rows = []
    for pk, slug, title, surface in tasks:
        score_a, detail_a = cells.get((a.pk, pk), (0.0, False))
        score_b, detail_b = cells.get((b.pk, pk), (0.0, False))
        rows.append(
            TaskDiff(slug, title, surface, score_a, score_b, pk in visible, detail_a and detail_b)
        )
    scores_a, scores_b = [r.a for r in rows], [r.b for r in rows]
    by_surface: dict[str, list[TaskDiff]] = defaultdict(list)
    for row in rows:
        by_surface[row.surface].append(row)
    limit = settings.BENCHVIEW_LIMITS["versus_top_tasks"]
    differing = [r for r in rows if abs(r.difference) > TIE]
    differing.sort(key=lambda r: (-abs(r.difference), r.slug))
    return Versus(
        a=a,
        b=b,
        tasks=len(rows),
        interval=paired_interval(scores_a, scores_b, seed=f"{bench.slug}/{a.slug}/vs/{b.slug}"),
        record=record(scores_a, scores_b),
        surfaces=[
            SurfaceLine(
                surface,
                len(found),
                sum(r.difference for r in found) / len(found),
                record([r.a for r in found], [r.b for r in found]),
            )
            for surface, found in sorted(by_surface.items())
        ],
        differ_most=differing[:limit],
        # On the tasks where the two differ, a sign test: with one trial per
        # task (values 0 or 1) it is exactly McNemar's test on the discordant
        # tasks; with several, "A did better" counts tasks whose pass rate is higher.
        mcnemar=mcnemar_exact(
            [x - y > TIE for x, y in zip(scores_a, scores_b, strict=True)],
            [y - x > TIE for x, y in zip(scores_a, scores_b, strict=True)],
        )
        if bench.is_pass_fail
        else None,
    )


def versus_document(found: Versus, bench: Bench) -> dict:
    """The page's JSON twin."""
    interval = found.interval
    return {
        "bench": bench.slug,
        "a": found.a.slug,
        "b": found.b.slug,
        "tasks": found.tasks,
        "mean_difference": interval.mean if interval else None,
        "interval": {"low": interval.low, "high": interval.high, "level": interval.level}
        if interval
        else None,
        "significant": interval.significant if interval else False,
        "wins": found.record.wins,
        "ties": found.record.ties,
        "losses": found.record.losses,
        "surfaces": [
            {
                "surface": s.surface,
                "tasks": s.tasks,
                "mean_difference": s.mean,
                "wins": s.record.wins,
                "ties": s.record.ties,
                "losses": s.record.losses,
            }
            for s in found.surfaces
        ],
        "differ_most": [
            {"task": t.slug, "surface": t.surface, "a": t.a, "b": t.b, "difference": t.difference}
            for t in found.differ_most
        ],
        "mcnemar": {
            "only_a": found.mcnemar.only_a,
            "only_b": found.mcnemar.only_b,
            "p_value": found.mcnemar.p_value,
        }
        if found.mcnemar
        else None,
    }
