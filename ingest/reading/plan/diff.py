"""The plan against the database: what is new, changed, unchanged or removed.

The only part of the plan that reads the ORM; it never writes.
"""

from __future__ import annotations

from formats.v1 import schema
from ingest.reading.plan.types import Folder, ImportPlan, sha256_hex
from leaderboard.models import Attempt, Bench, Model, Task


def existing_attempt_hashes(bench: str) -> dict[Folder, str]:
    """Content hash of every attempt with detail already in ``bench``, by (model, task, trial)."""
    rows = Attempt.all_trials.filter(bench__slug=bench, has_detail=True).values_list(
        "model__slug", "task__slug", "trial", "content_hash"
    )
    return {(m, t, n): h for m, t, n, h in rows}


# What the plan says of an attempt, and where the database keeps it.
_KNOWN_FIELDS = {
    # The files they were found in: an attempt is known only with the same files.
    "content_hash": "content_hash",
    "published_score": "published_score",
    "recomputed_score": "score",
    "events": "evidence__events_total",
    "requests": "evidence__requests_total",
    "transcript_status": "transcript_check__status",
    "transcript_format": "transcript_check__format",
    "transcript_note": "transcript_check__note",
    "first_difference": "transcript_check__first_difference",
    "differences": "transcript_check__differences",
    "differences_total": "transcript_check__differences_total",
    "unmapped_total": "transcript_check__unmapped_total",
}


def rules_change(bench: str, scoring_rule: str, exceptions_rule: str) -> bool:
    """The bench exists and scores by other rules than these: every attempt is rescored."""
    return (
        Bench.objects.filter(slug=bench)
        .exclude(scoring_rule=scoring_rule, exceptions_rule=exceptions_rule)
        .exists()
    )


def known_attempts(bench: str, scoring_rule: str, exceptions_rule: str = "") -> dict[Folder, dict]:
    """The plan's figures of every attempt already in ``bench``, by (model, task, trial),
    as they were found when it was imported: one query.

    Empty when the bench's scoring or exceptions rule changes (the recomputed
    scores would differ); an attempt without its evidence or transcript check
    is left out. ``bench`` may be a pending bench's id (``pending_slug``).
    """
    if not Bench.everything.filter(
        slug=bench, scoring_rule=scoring_rule, exceptions_rule=exceptions_rule
    ).exists():
        return {}
    rows = Attempt.all_trials.filter(
        bench__slug=bench,
        has_detail=True,
        evidence__isnull=False,
        transcript_check__isnull=False,
    ).values_list("model__slug", "task__slug", "trial", *_KNOWN_FIELDS.values())
    return {(m, t, n): dict(zip(_KNOWN_FIELDS, values, strict=True)) for m, t, n, *values in rows}


def pending_slug(bench: str) -> str | None:
    """The id of the pending bench a chunked import of ``bench`` left (ingest.writing.chunked)."""
    found = Bench.everything.pending().filter(target_slug=bench)
    return found.values_list("slug", flat=True).first()


def compare_with_database(
    plan: ImportPlan, existing: dict[Folder, str], folders: list[Folder]
) -> None:
    """Fill the plan's bench status and its model, task, batch and attempt changes."""
    manifest = plan.manifest
    bench = Bench.objects.filter(slug=manifest.bench).first()
    if bench is None:
        plan.bench_status = "new"
    elif (
        bench.title,
        bench.revision,
        bench.generated_at,
        bench.scoring_rule,
        bench.exceptions_rule,
    ) == (
        manifest.title,
        manifest.revision,
        manifest.generated_at,
        manifest.scoring_rule,
        manifest.exceptions_rule or "",
    ):
        plan.bench_status = "unchanged"
    else:
        plan.bench_status = "changed"
    old_models = dict(
        Model.objects.filter(bench=bench).values_list("slug", "content_hash") if bench else []
    )
    for model_id in manifest.models:
        status = _status(old_models, model_id, model_signature(plan, model_id))
        plan.models.add(status, model_id)
    plan.models.removed = sorted(set(old_models) - set(manifest.models))
    old_tasks = dict(
        Task.objects.filter(bench=bench).values_list("slug", "content_hash") if bench else []
    )
    matrix_entries = {t.id: t for t in plan.matrix.tasks} if plan.matrix else {}
    for task_id in manifest.tasks:
        entry = matrix_entries.get(task_id)
        signature = task_signature(entry, plan.task_hashes.get(task_id))
        plan.tasks.add(_status(old_tasks, task_id, signature), task_id)
    plan.tasks.removed = sorted(set(old_tasks) - set(manifest.tasks))
    old_batches = dict(
        bench.batches.values_list("number", "released_at") if bench is not None else []
    )
    for batch in manifest.batches:
        status = _status(old_batches, batch.id, batch.released_at)
        plan.batches.add(status, str(batch.id))
    plan.attempt_changes.removed = sorted(
        f"{m}/{t}/trials/{n}" if n else f"{m}/{t}" for m, t, n in set(existing) - set(folders)
    )


def model_signature(plan: ImportPlan, model_id: str) -> str:
    """What a model row is made of: its leaderboard row and its model file, hashed."""
    rows = {r.model: r for r in plan.leaderboard.rows} if plan.leaderboard else {}
    row = rows.get(model_id)
    parts = [row.model_dump_json(by_alias=True) if row else "", plan.model_hashes.get(model_id, "")]
    return "sha256:" + sha256_hex("\n".join(parts).encode())


def task_signature(entry: schema.MatrixTaskDoc | None, task_file_hash: str | None) -> str:
    """What a task row is made of: its matrix entry and its task file, hashed."""
    parts = [
        entry.model_dump_json(by_alias=True) if entry is not None else "",
        task_file_hash or "",
    ]
    return "sha256:" + sha256_hex("\n".join(parts).encode())


def _status(old: dict, key, new_value) -> str:
    if key not in old:
        return "new"
    return "unchanged" if old[key] == new_value else "changed"
