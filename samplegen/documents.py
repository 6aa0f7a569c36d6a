"""Release documents derived from the attempts: leaderboard, matrix, models, tasks, manifest."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from leaderboard.scoring import (
    Cell,
    CheckOutcome,
    competition_ranks,
    count_checks,
    model_figures,
    score_verdict,
)
from samplegen.catalog import ModelSpec, TaskSpec
from samplegen.clock import FIRST_RELEASE, epoch_ms, iso
from samplegen.plan import Attempt
from samplegen.writer import dump_json, write_file


def _title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in re.split(r"[-_.]+", bench) if part)


def write_derived(
    root: Path,
    bench: str,
    scoring_rule: str,
    model_specs: list[ModelSpec],
    task_specs: list[TaskSpec],
    attempts: dict[tuple[str, str], Attempt],
    outcomes: dict[tuple[str, str], list[CheckOutcome]],
    no_cell: set[tuple[str, str]],
) -> None:
    model_ids = sorted(m.id for m in model_specs)
    by_model = {m.id: m for m in model_specs}
    task_ids = [t.id for t in task_specs]
    surfaces = {t.id: t.surface for t in task_specs}

    cells: dict[str, dict[str, Cell]] = {m: {} for m in model_ids}
    for m in model_ids:
        for task in task_specs:
            key = (m, task.id)
            if key in no_cell:
                continue
            if key in attempts:
                a = attempts[key]
                cells[m][task.id] = Cell(a.score, tuple(a.flags), True, a.cost_usd, a.duration_s)
            else:
                cells[m][task.id] = Cell(score_verdict(scoring_rule, outcomes[key]))
    figures = {m: model_figures(cells[m], surfaces, task_ids) for m in model_ids}
    ranked = competition_ranks([(m, figures[m].score) for m in model_ids])

    rows = []
    for m, rank in ranked:
        spec = by_model[m]
        rows.append(
            {
                "rank": rank,
                "model": m,
                "display_name": spec.display_name,
                "harness": spec.harness,
                "provider": spec.provider,
                **figures[m].aggregate(),
            }
        )
    head = {"schema": "v1", "bench": bench, "revision": "01"}
    write_file(
        root / "leaderboard.json", dump_json({**head, "scoring_rule": scoring_rule, "rows": rows})
    )

    matrix = {
        **head,
        "tasks": [
            {"id": t.id, "title": t.title, "surface": t.surface, "released": t.batch is not None}
            for t in task_specs
        ],
        "models": [m for m, _ in ranked],
        "cells": {
            m: {t: {"score": c.score, "flags": list(c.flags)} for t, c in cells[m].items()}
            for m, _ in ranked
        },
    }
    write_file(root / "matrix.json", dump_json(matrix))

    for m in model_ids:
        spec = by_model[m]
        rows_for_model = []
        for t in sorted(t for (mm, t) in attempts if mm == m):
            a = attempts[(m, t)]
            counts = count_checks(a.outcomes or [])
            rows_for_model.append(
                {
                    "task": t,
                    "score": a.score,
                    "checks_passed": counts.passed,
                    "checks_total": counts.total,
                    "mandatory_failed": counts.mandatory_failed,
                    "cost_usd": a.cost_usd,
                    "duration_s": a.duration_s,
                    "flags": list(a.flags),
                }
            )
        write_file(
            root / "models" / f"{m}.json",
            dump_json(
                {
                    "schema": "v1",
                    "bench": bench,
                    "model": {
                        "id": m,
                        "display_name": spec.display_name,
                        "harness": spec.harness,
                        "provider": spec.provider,
                    },
                    "aggregate": figures[m].aggregate(),
                    "attempts": rows_for_model,
                }
            ),
        )

    batches: dict[int, list[str]] = {}
    for task in task_specs:
        if task.batch is None:
            continue
        batches.setdefault(task.batch, []).append(task.id)
        results = []
        for m in model_ids:
            a = attempts.get((m, task.id))
            if a is None:
                continue
            results.append(
                {
                    "model": m,
                    "score": a.score,
                    "checks": {c.name: c.passed for c in a.outcomes or []},
                    "flags": list(a.flags),
                }
            )
        write_file(
            root / "tasks" / f"{task.id}.json",
            dump_json(
                {
                    "schema": "v1",
                    "bench": bench,
                    "task": {
                        "id": task.id,
                        "title": task.title,
                        "surface": task.surface,
                        "vendors": list(task.vendors),
                        "batch": task.batch,
                    },
                    "ticket": task.ticket,
                    "checks": [dict(c) for c in task.checks],
                    "results": results,
                }
            ),
        )

    def released_at(batch: int) -> str:
        return iso(epoch_ms(FIRST_RELEASE + timedelta(days=7 * (batch - 1))), millis=False)

    last_batch = max(batches, default=1)
    manifest = {
        "schema": "v1",
        "bench": bench,
        "title": _title_of(bench),
        "revision": "01",
        "generated_at": released_at(last_batch),
        "scoring_rule": scoring_rule,
        "models": model_ids,
        "tasks": task_ids,
        "batches": [
            {"id": b, "released_at": released_at(b), "tasks": batches[b]} for b in sorted(batches)
        ],
        "counts": {
            "models": len(model_ids),
            "tasks": len(task_ids),
            "released_tasks": sum(len(v) for v in batches.values()),
            "attempts": len(attempts),
        },
    }
    write_file(root / "manifest.json", dump_json(manifest))
