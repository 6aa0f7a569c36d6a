"""The bench's models that an import of Harbor jobs keeps, read back as release files.

ibench publishes one job per model, so importing a job into an existing bench
adds or replaces the models the job holds and keeps the others: their
attempt folders are rebuilt from the database with the mirror's own builders
(``trajectories.documents``), which give back what was imported.
"""

from __future__ import annotations

import orjson

from ingest.harbor.attempts import RULE, AttemptFiles
from ingest.harbor.release import ModelEntry, TaskEntry
from leaderboard import jsonsafe
from leaderboard.extras import item_key
from leaderboard.harbor_result import HARBOR_RESULT
from leaderboard.models import Attempt, Bench
from trajectories.documents import ATTEMPT_FILES


class NotHarborBench(ValueError):
    pass


def kept_models(
    bench: Bench, replaced: set[str]
) -> tuple[list[ModelEntry], list[TaskEntry], list[AttemptFiles]]:
    """Models of ``bench`` not in ``replaced``, their tasks and attempt folders."""
    if bench.scoring_rule != RULE:
        raise NotHarborBench(
            f"bench {bench.slug!r} was not imported from Harbor jobs (its scoring rule is "
            f"{bench.scoring_rule!r}): use --replace to make these jobs the whole bench"
        )
    rows = (bench.extras.get("leaderboard.json") or {}).get("rows", {}).get("__items__", {})
    models = [
        ModelEntry(
            m.slug,
            m.display_name,
            m.harness,
            m.provider,
            # What its jobs' result.json said when it was imported, compared again.
            harbor_result=jsonsafe.unpack(rows.get(item_key(m.slug), {}).get("__extra__", {})).get(
                HARBOR_RESULT
            ),
        )
        for m in bench.models.order_by("slug")
        if m.slug not in replaced
    ]
    keep = {m.id for m in models}
    attempts: list[AttemptFiles] = []
    task_slugs: set[str] = set()
    rows = (
        Attempt.all_trials.filter(bench=bench, has_detail=True, model__slug__in=keep)
        .select_related("model", "task", "evidence")
        .order_by("model__slug", "task__slug", "trial")
    )
    for attempt in rows.iterator(chunk_size=200):
        files = {}
        for filename, spec in ATTEMPT_FILES.items():
            chunks = spec.build(attempt)
            if chunks is not None:
                files[filename] = b"".join(chunks)
        verdict = orjson.loads(files["verdict.json"]) if "verdict.json" in files else None
        attempts.append(
            AttemptFiles(
                model=attempt.model.slug,
                task=attempt.task.slug,
                files=files,
                summary=orjson.loads(files["summary.json"]),
                verdict=verdict,
                score=attempt.score,
                ticket=files.get("problem.md", b"").decode("utf-8", errors="replace"),
                trial=attempt.trial,
            )
        )
        task_slugs.add(attempt.task.slug)
    tasks = [
        TaskEntry(t.slug, t.title, t.surface, t.ticket, extra={"harbor_task_name": t.title})
        for t in bench.tasks.filter(slug__in=task_slugs).order_by("slug")
    ]
    return models, tasks, attempts
