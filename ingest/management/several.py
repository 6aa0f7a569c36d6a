"""``import_results`` for one input of several benches (swebench.com's
leaderboards.json, OpenHands' index results): every bench checked and written
in one transaction, all or none (``ingest.running.several``), each reported
as the import commands report one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.sources.protocol import ImportOptions, SourceError
from ingest.management.outcome import report_import
from ingest.models import ImportRecord
from ingest.progress import ProgressCallback
from ingest.running.imports import Action
from ingest.running.locks import ImportBusy
from ingest.running.several import recorded_imports, several_parts


def several_import(
    command: BaseCommand,
    *,
    adapter,
    paths: Sequence[Path],
    options: ImportOptions,
    dry_run: bool,
    staged: bool,
    progress: ProgressCallback | None,
    started: float,
) -> None:
    """import_results for an input of several benches (``SeveralBenches``):
    each bench's release built from its source under the lock, all written
    or none, each reported as the import commands do."""
    shown = " ".join(str(p).rstrip("/") for p in paths)
    try:
        with several_parts(adapter, paths, options, name=shown) as (parts, notes):
            for note in notes:
                command.stdout.write(f"note: {note}")
            done = recorded_imports(
                parts=parts,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_results {os.path.basename(shown)[:200]} (pid {os.getpid()})",
                staged=staged,
                progress=progress,
            )
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    except ImportBusy as exc:
        raise CommandError(str(exc)) from None
    failed = []
    for part in done:
        command.stdout.write(f"bench {part.record.bench}:")
        try:
            report_import(command, part, started=started, noop="nothing changed")
        except CommandError as exc:
            failed.append(f"{part.record.bench}: {exc}")
    if failed:
        raise CommandError("; ".join(failed))
