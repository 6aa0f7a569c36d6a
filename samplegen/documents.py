"""Release documents derived from the attempts: leaderboard, matrix, models, tasks, manifest."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from formats.v1 import documents as v1
from formats.v1.files import LEADERBOARD, MANIFEST, MATRIX, model_path, task_path
from formats.v1.scoring import (
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

REVISION = "01"


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

    rows = [
        v1.leaderboard_row(
            rank=rank,
            model=m,
            display_name=by_model[m].display_name,
            harness=by_model[m].harness,
            provider=by_model[m].provider,
            aggregate=figures[m].aggregate(),
        )
        for m, rank in ranked
    ]
    write_file(
        root / LEADERBOARD,
        dump_json(
            v1.leaderboard_document(
                bench=bench, revision=REVISION, scoring_rule=scoring_rule, rows=rows
            )
        ),
    )
    matrix = v1.matrix_document(
        bench=bench,
        revision=REVISION,
        tasks=[v1.matrix_task(t.id, t.title, t.surface, t.batch is not None) for t in task_specs],
        models=[m for m, _ in ranked],
        cells={
            m: {t: v1.matrix_cell(c.score, c.flags) for t, c in cells[m].items()} for m, _ in ranked
        },
    )
    write_file(root / MATRIX, dump_json(matrix))

    for m in model_ids:
        spec = by_model[m]
        rows_for_model = []
        for t in sorted(t for (mm, t) in attempts if mm == m):
            a = attempts[(m, t)]
            counts = count_checks(a.outcomes or [])
            rows_for_model.append(
                v1.model_attempt_row(
                    task=t,
                    score=a.score,
                    checks_passed=counts.passed,
                    checks_total=counts.total,
                    mandatory_failed=counts.mandatory_failed,
                    cost_usd=a.cost_usd,
                    duration_s=a.duration_s,
                    flags=a.flags,
                )
            )
        document = v1.model_document(
            bench=bench,
            model=v1.model_facts(m, spec.display_name, spec.harness, spec.provider),
            aggregate=figures[m].aggregate(),
            attempts=rows_for_model,
        )
        write_file(root / model_path(m), dump_json(document))

    batches: dict[int, list[str]] = {}
    for task in task_specs:
        if task.batch is None:
            continue
        batches.setdefault(task.batch, []).append(task.id)
        results = [
            v1.task_result(
                m,
                attempts[(m, task.id)].score,
                {c.name: c.passed for c in attempts[(m, task.id)].outcomes or []},
                attempts[(m, task.id)].flags,
            )
            for m in model_ids
            if (m, task.id) in attempts
        ]
        document = v1.task_document(
            bench=bench,
            task=task.id,
            title=task.title,
            surface=task.surface,
            vendors=task.vendors,
            batch=task.batch,
            ticket=task.ticket,
            checks=[dict(c) for c in task.checks],
            results=results,
        )
        write_file(root / task_path(task.id), dump_json(document))

    def released_at(batch: int) -> str:
        return iso(epoch_ms(FIRST_RELEASE + timedelta(days=7 * (batch - 1))), millis=False)

    manifest = v1.manifest_document(
        bench=bench,
        title=_title_of(bench),
        revision=REVISION,
        generated_at=released_at(max(batches, default=1)),
        scoring_rule=scoring_rule,
        models=model_ids,
        tasks=task_ids,
        batches=[v1.manifest_batch(b, released_at(b), batches[b]) for b in sorted(batches)],
        attempts=len(attempts),
    )
    write_file(root / MANIFEST, dump_json(manifest))
