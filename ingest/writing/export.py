"""Write a bench's release from the database, for a static mirror.

The folder becomes a release root that ``import_release`` takes back: derived
documents from ``leaderboard.documents`` in their live-only view, and each
live attempt's files from ``trajectories.documents``, exactly what the
/data/v1 mirror serves to anonymous clients.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from leaderboard import documents
from leaderboard.models import Attempt, Bench, Task
from trajectories.documents import ATTEMPT_FILES, dumps


class ExportRefused(Exception):
    """Nothing was written."""


@dataclass
class ExportResult:
    root: Path
    models: int
    tasks: int
    attempts: int
    files: int


def _write(path: Path, chunks: Iterable[bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        for chunk in chunks:
            handle.write(chunk)


def release_export(*, bench: Bench, root: Path, replace: bool = False) -> ExportResult:
    """Write ``bench``'s live release under ``root``.

    ``root`` must be missing or empty unless ``replace``, which removes it
    first. Staged batches are left out (as if never released).
    """
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        if not replace:
            raise ExportRefused(f"{root} is not empty (use --replace to overwrite it)")
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    files = 0

    def write_json(name: str, value) -> None:
        nonlocal files
        _write(root / name, [dumps(value)])
        files += 1

    write_json("manifest.json", documents.manifest_document(bench, live_only=True))
    write_json("leaderboard.json", documents.leaderboard_document(bench, live_only=True))
    write_json("matrix.json", documents.matrix_document(bench, live_only=True))
    model_docs = documents.model_documents(bench, live_only=True)
    for slug, doc in model_docs.items():
        write_json(f"models/{slug}.json", doc)
    tasks = list(Task.objects.public().filter(bench=bench).select_related("batch").order_by("slug"))
    for slug, doc in documents.task_documents(bench, tasks).items():
        write_json(f"tasks/{slug}.json", doc)

    # Every trial: trial 0 is the attempt folder, further trials its
    # trials/<n>/ extension folders (docs/harbor.md), which v1 readers ignore.
    attempts = (
        Attempt.all_trials.public()
        .filter(bench=bench)
        .select_related("model", "task", "evidence")
        .order_by("model__slug", "task__slug", "trial")
    )
    count = 0
    for attempt in attempts.iterator(chunk_size=200):
        folder = root / "attempts" / attempt.model.slug / attempt.task.slug
        if attempt.trial:
            folder = folder / "trials" / str(attempt.trial)
        for filename, spec in ATTEMPT_FILES.items():
            chunks = spec.build(attempt)
            if chunks is not None:
                _write(folder / filename, chunks)
                files += 1
        count += not attempt.trial
    return ExportResult(
        root=root, models=len(model_docs), tasks=len(tasks), attempts=count, files=files
    )
