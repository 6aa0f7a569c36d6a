"""Importing SWE-bench experiments submissions through the one import pipeline."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from ingest.harbor.source import HarborSource
from ingest.imports import Action, RecordedImport, recorded_import
from ingest.models import ImportRecord
from ingest.progress import ProgressCallback
from ingest.reader import open_tree
from ingest.swebench.build import describe, experiments_release


def import_experiments(
    paths: list[str | Path],
    *,
    bench: str,
    title: str | None = None,
    dry_run: bool = False,
    staged: bool = False,
    replace: bool = False,
    scrub: bool = True,
    via: str = ImportRecord.Via.COMMAND,
    say=None,
    progress: ProgressCallback | None = None,
) -> RecordedImport:
    """Check (``dry_run``) or import the submissions at ``paths`` into ``bench``;
    ``say`` hears the adapter's notes."""
    shown = " ".join(str(p).rstrip("/") for p in paths)

    @contextmanager
    def opener() -> Iterator[HarborSource]:
        # Under the import lock: the models kept are read from the database.
        with ExitStack() as stack:
            trees = [(stack.enter_context(open_tree(p)), str(p).rstrip("/")) for p in paths]
            release = experiments_release(
                trees, bench=bench, title=title, replace=replace, scrub=scrub, progress=progress
            )
            for line in describe(release):
                if say is not None:
                    say(line)
            with release.source as source:
                yield source

    return recorded_import(
        path=shown,
        name=shown,
        via=via,
        action=Action.DRY_RUN if dry_run else Action.IMPORT,
        holder=f"swe-bench experiments {shown[:200]} (pid {os.getpid()})",
        staged=staged,
        scrub=scrub,
        progress=progress,
        bench=bench,
        opener=opener,
    )
