"""Checks across the release's documents: manifest, derived documents, models/, tasks/,
and which attempt folders there are. Nothing here reads an attempt's files or the database."""

from __future__ import annotations

from collections import Counter

from formats.v1 import schema
from ingest.reading.plan.checker import Checker
from ingest.reading.plan.types import Folder, ImportPlan, sha256_hex
from trajectories.documents import ATTEMPT_FILES

TOP_FILES = ("manifest.json", "leaderboard.json", "matrix.json")
TOP_MODELS = {
    "manifest.json": schema.ManifestDoc,
    "leaderboard.json": schema.LeaderboardDoc,
    "matrix.json": schema.MatrixDoc,
}


def read_top_documents(check: Checker) -> None:
    """Validate manifest.json, leaderboard.json and matrix.json onto the plan."""
    plan = check.plan
    docs = {}
    for name in TOP_FILES:
        found = check.load_valid(name, TOP_MODELS[name])
        docs[name] = found[0] if found else None
    plan.manifest = docs["manifest.json"]
    plan.leaderboard, plan.matrix = docs["leaderboard.json"], docs["matrix.json"]
    manifest = plan.manifest
    if manifest is not None:
        plan.bench, plan.title, plan.revision = manifest.bench, manifest.title, manifest.revision
        plan.scoring_rule = manifest.scoring_rule
        plan.exceptions_rule = manifest.exceptions_rule or ""


def check_manifest(check: Checker, manifest: schema.ManifestDoc) -> None:
    name = "manifest.json"
    for field_name in ("models", "tasks"):
        values = getattr(manifest, field_name)
        for value, count in Counter(values).items():
            if count > 1:
                check.problem(name, field_name, f"{value!r} is listed {count} times")
    tasks = set(manifest.tasks)
    seen: dict[str, int] = {}
    numbers = Counter(b.id for b in manifest.batches)
    for i, batch in enumerate(manifest.batches):
        if numbers[batch.id] > 1:
            check.problem(name, f"batches[{i}].id", f"batch {batch.id} is listed twice")
        for j, task in enumerate(batch.tasks):
            if task not in tasks:
                check.problem(name, f"batches[{i}].tasks[{j}]", f"task {task!r} is not in tasks")
            elif task in seen:
                check.problem(
                    name,
                    f"batches[{i}].tasks[{j}]",
                    f"task {task!r} is already in batch {seen[task]}",
                )
            seen[task] = batch.id
    counts = manifest.counts
    for label, expected in (
        ("models", len(manifest.models)),
        ("tasks", len(manifest.tasks)),
        ("released_tasks", len(seen)),
    ):
        if getattr(counts, label) != expected:
            check.problem(
                name, f"counts.{label}", f"says {getattr(counts, label)}, expected {expected}"
            )


def check_derived(check: Checker, plan: ImportPlan) -> None:
    """leaderboard.json and matrix.json say what the manifest says."""
    manifest, matrix, board = plan.manifest, plan.matrix, plan.leaderboard
    for name, doc in (("leaderboard.json", board), ("matrix.json", matrix)):
        if doc is not None and doc.bench != manifest.bench:
            check.problem(name, "bench", f"expected {manifest.bench!r}, got {doc.bench!r}")
    models, tasks = set(manifest.models), set(manifest.tasks)
    if matrix is not None:
        matrix_tasks = [t.id for t in matrix.tasks]
        if set(matrix_tasks) != tasks or len(matrix_tasks) != len(tasks):
            check.problem("matrix.json", "tasks", "does not list exactly the manifest's tasks")
        if set(matrix.models) != models:
            check.problem("matrix.json", "models", "does not list exactly the manifest's models")
        released = set(plan.released_tasks)
        for i, entry in enumerate(matrix.tasks):
            if entry.released != (entry.id in released):
                check.problem(
                    "matrix.json",
                    f"tasks[{i}].released",
                    f"is {str(entry.released).lower()}, but the manifest's batches say otherwise",
                )
        for model_id, row in matrix.cells.items():
            if model_id not in models:
                check.problem("matrix.json", f"cells.{model_id}", "model is not in the manifest")
                continue
            for task_id in row:
                if task_id not in tasks:
                    check.problem(
                        "matrix.json", f"cells.{model_id}.{task_id}", "task is not in the manifest"
                    )
    if board is not None:
        listed = [r.model for r in board.rows]
        if set(listed) != models or len(listed) != len(models):
            check.problem("leaderboard.json", "rows", "does not have one row per manifest model")


def check_published_only(check: Checker, plan: ImportPlan, attempted: set[str]) -> None:
    """A row marked ``published_only`` (an extension field, docs/release-format.md)
    has a published score and no per-task results: no matrix cell, no attempt
    folder (``attempted``: the models that have one)."""
    if plan.leaderboard is None:
        return
    cells = plan.matrix.cells if plan.matrix is not None else {}
    for i, row in enumerate(plan.leaderboard.rows):
        extra = row.model_extra or {}
        marked = extra.get("published_only", False)
        where = f"rows[{i}].published_only"
        if not isinstance(marked, bool):
            check.problem("leaderboard.json", where, "expected true or false")
            continue
        if "published_score" in extra:
            value = extra["published_score"]
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1
            ):
                check.problem(
                    "leaderboard.json",
                    f"rows[{i}].published_score",
                    "expected a number from 0 to 1, or null",
                )
                continue
        if not marked:
            continue
        if extra.get("published_score", row.score) is None:
            check.problem("leaderboard.json", where, "a published-only row needs a published score")
        if cells.get(row.model):
            check.problem("leaderboard.json", where, "the model has matrix cells")
        if row.model in attempted:
            check.problem("leaderboard.json", where, "the model has attempt folders")


def read_model_files(check: Checker, manifest: schema.ManifestDoc) -> None:
    """Validate models/<id>.json for every manifest model onto the plan."""
    plan = check.plan
    for model_id in manifest.models:
        name = f"models/{model_id}.json"
        found = check.load_valid(name, schema.ModelFileDoc)
        if found is None:
            continue
        doc, _, data = found
        if doc.model.id != model_id:
            check.problem(name, "model.id", f"expected {model_id!r}, got {doc.model.id!r}")
        plan.model_docs[model_id] = doc
        plan.model_hashes[model_id] = sha256_hex(data)


def read_task_files(check: Checker, manifest: schema.ManifestDoc, released: set[str]) -> None:
    """Validate tasks/<id>.json for every released task onto the plan; others have none."""
    plan = check.plan
    for task_id in manifest.tasks:
        name = f"tasks/{task_id}.json"
        if task_id not in released:
            if check.source.exists(name):
                check.problem(name, "", f"task {task_id!r} is in no batch, so it has no task file")
            continue
        found = check.load_valid(name, schema.TaskFileDoc)
        if found is None:
            continue
        doc, raw, data = found
        if doc.task.id != task_id:
            check.problem(name, "task.id", f"expected {task_id!r}, got {doc.task.id!r}")
        seen_checks: set[str] = set()
        for i, check_def in enumerate(doc.checks):
            if check_def.name in seen_checks:
                check.problem(name, f"checks[{i}].name", f"{check_def.name!r} is repeated")
            seen_checks.add(check_def.name)
        if check.scrubber.might_match(data):
            check.scrub_findings(name, check.scrubber.json_findings(raw))
        plan.task_docs[task_id] = doc
        plan.task_hashes[task_id] = sha256_hex(data)


def _trial_number(text: str) -> int | None:
    """``trials/<n>/``'s n: a positive decimal without leading zeros, else None."""
    if text.isascii() and text.isdigit() and text[0] != "0" and len(text) <= 6:
        return int(text)
    return None


def attempt_folders(
    check: Checker, manifest: schema.ManifestDoc, released: set[str]
) -> list[Folder]:
    """(model, task, trial) of every attempt folder, sorted; trial 0 is the folder
    itself, n > 0 its ``trials/<n>/`` extension folder (a further trial, docs/harbor.md).
    Also checks that the manifest counts the attempt folders there are."""
    models, tasks = set(manifest.models), set(manifest.tasks)
    folders: dict[Folder, None] = {}
    for name in check.source.names():
        parts = name.split("/")
        if parts[0] != "attempts":
            continue
        trial = 0
        if len(parts) == 6 and parts[3] == "trials":
            trial = _trial_number(parts[4])
            if trial is None:
                check.problem(name, "", "unexpected folder: trials are numbered 1, 2, ...")
                continue
            parts = parts[:3] + parts[5:]
        elif len(parts) != 4:
            check.problem(
                name, "", "unexpected file: attempts hold <model>/<task>/[trials/<n>/]<file>"
            )
            continue
        _, model_id, task_id, filename = parts
        if filename not in ATTEMPT_FILES:
            check.problem(name, "", f"unexpected file {filename!r} in an attempt folder")
            continue
        folder = f"attempts/{model_id}/{task_id}/"
        if model_id not in models:
            check.problem(folder, "", f"model {model_id!r} is not in the manifest")
        elif task_id not in tasks:
            check.problem(folder, "", f"task {task_id!r} is not in the manifest")
        elif task_id not in released:
            check.problem(folder, "", f"task {task_id!r} is in no batch, so it has no attempts")
        else:
            folders[(model_id, task_id, trial)] = None
    for model_id, task_id, trial in folders:
        if trial and (model_id, task_id, 0) not in folders:
            check.problem(
                f"attempts/{model_id}/{task_id}/trials/{trial}/",
                "",
                "a further trial needs the attempt folder's own files (its first trial)",
            )
    mains = sum(1 for f in folders if f[2] == 0)
    if manifest.counts.attempts != mains:
        check.problem(
            "manifest.json",
            "counts.attempts",
            f"says {manifest.counts.attempts}, the release has {mains} attempt folders",
        )
    return sorted(folders)
