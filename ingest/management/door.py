"""What ``import_results`` does: one recorded import of paths in one format.

The format is detected by content through the registry
(``formats.sources.registry``) or forced by name; options the format does not
take are refused by name; then the one recorded import runs
(``ingest.running.imports.run_import`` over ``ingest.running.opening``), as for
``import_release`` and ``import_harbor``, which are this door with the format
fixed.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Sequence
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.reader import MANIFEST, ReleaseReadError, open_release
from formats.sources import ImportOptions, SeveralBenches, SourceError
from formats.sources.registry import ADAPTERS, detect, refuse_options
from formats.v1.jsondoc import parse_json
from ingest.management.outcome import report_import
from ingest.management.several import several_import
from ingest.models import ImportRecord
from ingest.running.cli_progress import TerminalProgress
from ingest.running.imports import Action, run_import
from ingest.running.locks import ImportBusy
from ingest.running.opening import open_for_import, progress_option

RELEASE = "release"


def choose(paths: Sequence[Path], options: ImportOptions, format: str | None):
    """The adapter for ``paths`` (``format`` forces one), refusing the options it
    does not take; CommandError says why."""
    try:
        adapter = ADAPTERS[format] if format else detect(paths)
        # A release names its own bench: --bench is checked against it, not refused.
        taken = dataclasses.replace(options, bench=None) if adapter.name == RELEASE else options
        refuse_options(adapter, taken)
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    if adapter.name == RELEASE and len(paths) != 1:
        raise CommandError("release: one path at a time (a release is one folder or archive)")
    return adapter


def _same_bench(path: Path, bench: str | None) -> None:
    """A release imports into the bench its manifest names: --bench must be it."""
    if not bench:
        return
    try:
        with open_release(path) as release:
            named = parse_json(release.read(MANIFEST)).get("bench")
    except (ReleaseReadError, ValueError, AttributeError):
        return  # the import itself says what is wrong with it
    if named != bench:
        raise CommandError(f"--bench {bench!r}: this release is of bench {named!r}")


def _name(command: BaseCommand) -> str:
    """The command's name as typed (import_results, import_inspect)."""
    return type(command).__module__.rsplit(".", 1)[-1]


def door_import(
    command: BaseCommand,
    *,
    adapter,
    paths: Sequence[Path],
    options: ImportOptions,
    dry_run: bool,
    staged: bool,
    noop: str,
    chunked: bool = False,
) -> None:
    """Import (or check) ``paths`` in ``adapter``'s format through the one recorded
    import, and report it as the import commands do (``chunked``: see
    ingest.writing.chunked)."""
    started = time.monotonic()
    shown = " ".join(str(p).rstrip("/") for p in paths)
    progress = TerminalProgress(command.stderr._out)
    options = dataclasses.replace(options, progress=progress_option(progress))
    if adapter.name == RELEASE:
        _same_bench(paths[0], options.bench)
        options = dataclasses.replace(options, bench=None)
    if isinstance(adapter, SeveralBenches):
        if chunked:
            progress.close()
            raise CommandError(
                f"{adapter.name}: --chunked takes one bench (several are written all or none)"
            )
        # One input, several benches: all written or none (docs/formats.md).
        try:
            several_import(
                command, adapter=adapter, paths=paths, options=options, dry_run=dry_run,
                staged=staged, progress=progress, started=started,
            )  # fmt: skip
        finally:
            progress.close()
        return

    def opener():
        # Called under the import lock, so the models it keeps from the
        # database cannot change before the write.
        return open_for_import(list(paths), options=options, adapter=adapter.name)

    try:
        done = run_import(
            path=shown,
            name=shown,
            via=ImportRecord.Via.COMMAND,
            action=Action.DRY_RUN if dry_run else Action.IMPORT,
            holder=f"{_name(command)} {os.path.basename(shown)[:200]} (pid {os.getpid()})",
            staged=staged,
            progress=progress,
            bench=options.bench,
            opener=opener,
            chunked=chunked,
        )
    except ImportBusy as exc:
        raise CommandError(str(exc)) from None
    finally:
        progress.close()
    report_import(command, done, started=started, noop=noop)
