"""Helpers for the chunked-import tests: the import, a kill at a known step, exports."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from ingest.models import ImportRecord
from ingest.running.imports import RecordedImport, run_import
from ingest.writing.chunked import Step
from ingest.writing.export import release_export
from leaderboard.models import Bench


class Killed(BaseException):
    """What kill -9 does to an import at a step: nothing of it runs after (no
    ``except Exception`` catches it, so no record is written either)."""


def kill_at(name: str, chunks: int = 0, then=None):
    """A ``steps`` callback that runs ``then()`` and stops the import at step
    ``name`` (for "chunk": once ``chunks`` chunks are committed)."""

    def steps(step: Step) -> None:
        if step.name == name and (name != "chunk" or step.chunks == chunks):
            if then is not None:
                then(step)
            raise Killed(step)

    return steps


def chunked_import(path: Path, *, steps=None, on_written=None) -> RecordedImport:
    return run_import(
        path=path,
        via=ImportRecord.Via.COMMAND,
        holder=f"tests chunked {Path(path).name}",
        adapter="release",
        chunked=True,
        steps=steps,
        on_written=on_written,
    )


def small_chunks(settings_fixture, size: int = 1) -> None:
    """Commit after every ``size`` bytes of attempt files: about one attempt a chunk."""
    limits = settings_fixture.BENCHVIEW_LIMITS
    settings_fixture.BENCHVIEW_LIMITS = {**limits, "import_chunk_bytes": size}


def hidden() -> list[tuple[str, str]]:
    """(state, target id) of every bench the site does not show."""
    rows = Bench.everything.exclude(state=Bench.State.SHOWN).order_by("pk")
    return list(rows.values_list("state", "target_slug"))


def exported(slug: str, root: Path) -> dict[str, bytes]:
    """Every file of the shown bench's export, by path."""
    release_export(bench=Bench.objects.get(slug=slug), root=root, replace=True)
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def blob_files() -> set[str]:
    root = Path(settings.MEDIA_ROOT) / "blobs"
    return {p.relative_to(settings.MEDIA_ROOT).as_posix() for p in root.rglob("*") if p.is_file()}
