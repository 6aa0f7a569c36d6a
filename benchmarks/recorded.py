"""The benchmarks' way in: the recorded import (lock, ImportRecord), as the
command line and the admin go, never the inner write."""

from __future__ import annotations

from pathlib import Path


def import_recorded(path: str | Path, *, adapter: str = "release", bench: str | None = None):
    """Import ``path`` (a release, or Harbor jobs into ``bench``) through
    ``run_import``; the ImportResult, or SystemExit saying why it was refused."""
    from ingest.models import ImportRecord
    from ingest.running.imports import run_import

    done = run_import(
        path=path,
        via=ImportRecord.Via.COMMAND,
        holder=f"benchmark {Path(path).name}",
        adapter=adapter,
        bench=bench,
    )
    if done.result is None:
        problems = [str(p) for p in done.plan.problems][:5] if done.plan else done.record.problems
        raise SystemExit(f"{path}: {done.record.message} {problems}")
    return done.result
