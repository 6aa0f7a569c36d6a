"""What the import commands share: one recorded import of paths in one format.

``import_results`` detects the format (or takes ``--format``);
``import_release`` and ``import_harbor`` are the same door with the format
fixed. Each refuses, by name, the options its format does not take.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.sources.protocol import ImportOptions, SeveralBenches, SourceError
from formats.sources.registry import ADAPTERS, detect, refuse_options
from ingest.cli_progress import TerminalProgress
from ingest.door.adapters import RELEASE, opened
from ingest.door.several import several_import
from ingest.imports import Action, recorded_import
from ingest.locks import ImportBusy
from ingest.management.outcome import report_import
from ingest.models import ImportRecord


def choose(paths: Sequence[Path], options: ImportOptions, format: str | None):
    """The adapter for ``paths`` (``format`` forces one), refusing options it
    does not take; CommandError says why."""
    try:
        adapter = ADAPTERS[format] if format else detect(paths)
        # A release names its own bench: --bench is checked against it, not refused.
        checked = options if adapter.name != RELEASE.name else _without_bench(options)
        refuse_options(adapter, checked)
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    if adapter.name == RELEASE.name and len(paths) != 1:
        raise CommandError("release: one path at a time (a release is one folder or archive)")
    return adapter


def _without_bench(options: ImportOptions) -> ImportOptions:
    from dataclasses import replace

    return replace(options, bench=None)


def door_import(
    command: BaseCommand,
    *,
    adapter,
    paths: Sequence[Path],
    options: ImportOptions,
    dry_run: bool,
    staged: bool,
    noop: str,
    release_scrub: bool = False,
    say_format: str = "",
) -> None:
    """Import (or check) ``paths`` in ``adapter``'s format through the one recorded
    import, and report it as the import commands do. ``release_scrub`` rewrites
    what a release should have scrubbed (import_release --scrub)."""
    started = time.monotonic()
    shown = " ".join(str(p).rstrip("/") for p in paths)
    if say_format:
        command.stdout.write(say_format)
    progress = TerminalProgress(command.stderr._out)
    if isinstance(adapter, SeveralBenches):
        # One input, several benches: all written or none (docs/formats.md).
        try:
            several_import(
                command, adapter=adapter, paths=paths, options=options, dry_run=dry_run,
                staged=staged, progress=progress, started=started,
            )  # fmt: skip
        finally:
            progress.close()
        return

    @contextmanager
    def opener():
        # Called under the import lock, so the models it keeps from the
        # database cannot change before the write.
        with opened(adapter, paths, options, say=command.stdout.write, progress=progress) as src:
            yield src

    name = command.__module__.rsplit(".", 1)[-1]
    try:
        done = recorded_import(
            path=shown,
            name=shown if adapter.name != RELEASE.name else "",
            via=ImportRecord.Via.COMMAND,
            action=Action.DRY_RUN if dry_run else Action.IMPORT,
            holder=f"{name} {os.path.basename(shown)[:200]} (pid {os.getpid()})",
            staged=staged,
            scrub=release_scrub,
            progress=progress,
            bench=options.bench if adapter.name != RELEASE.name else None,
            opener=opener,
        )
    except ImportBusy as exc:
        raise CommandError(str(exc)) from None
    finally:
        progress.close()
    report_import(command, done, started=started, noop=noop)
