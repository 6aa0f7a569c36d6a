"""One input, several benches (swebench.com's leaderboards.json, OpenHands'
index results): every bench checked and written in one transaction, under
one hold of the import lock, so they all land or none does.

Each bench gets its own ImportRecord, as if imported alone. When one is
refused (or fails), the others are rolled back with it and recorded as
refused, naming the bench that stopped them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from formats.reader import ReleaseReadError
from formats.sources.harbor.errors import HarborError
from formats.sources.protocol import ImportOptions, SourceError
from ingest.management.outcome import report_import
from ingest.models import ImportRecord
from ingest.progress import ProgressCallback
from ingest.reading.harbor.build import release_of
from ingest.reading.plan import build_plan
from ingest.running.imports import (
    CHECK_ONLY,
    Action,
    Outcome,
    RecordedImport,
    _Recorder,
    _scrub,
    _who,
)
from ingest.running.locks import ImportBusy, import_lock
from ingest.writing.services import ImportRefused, write_release

logger = logging.getLogger(__name__)

# (the bench it is, what to call it, how to open its release)
Part = tuple[str, str, Callable[[], AbstractContextManager]]


class _Stop(Exception):
    """One bench was refused or failed: roll back every bench of the import."""


def recorded_imports(
    *,
    parts: list[Part],
    via: str,
    holder: str,
    action: str = Action.IMPORT,
    user=None,
    staged: bool = False,
    progress: ProgressCallback | None = None,
) -> list[RecordedImport]:
    """Check or import every part; all or nothing. One record per part."""
    started = time.monotonic()
    recorders = [
        _Recorder(
            via=via, action=action, user=user, staged=staged, started=started, name=name,
            bench=bench,
        )
        for bench, name, _ in parts
    ]  # fmt: skip
    if action in CHECK_ONLY:
        return [
            _check(recorder, opener, progress)
            for recorder, (_, _, opener) in zip(recorders, parts, strict=True)
        ]
    written: list[RecordedImport] = []
    stopped: dict = {}
    try:
        with import_lock(holder=holder), transaction.atomic():
            for recorder, (bench, name, opener) in zip(recorders, parts, strict=True):
                try:
                    with opener() as source:
                        recorder.opened(source, name)
                        result = write_release(
                            source=source,
                            staged=staged,
                            scrub=_scrub(source, False),
                            progress=progress,
                            by=_who(user, via),
                        )
                except (ReleaseReadError, HarborError) as exc:
                    stopped.update(
                        recorder=recorder, bench=bench, message=str(exc),
                        problems=list(getattr(exc, "problems", [])),
                    )  # fmt: skip
                    raise _Stop from exc
                except ImportRefused as exc:
                    stopped.update(recorder=recorder, bench=bench, plan=exc.plan, message=str(exc))
                    raise _Stop from exc
                outcome = Outcome.NO_CHANGE if result.plan.is_noop else Outcome.APPLIED
                where = "staged (staff only)" if staged else "live"
                message = f"{result.written_attempts} attempt(s) written; new batches {where}"
                done = recorder.write(outcome, plan=result.plan, message=message)
                done.result = result
                written.append(done)
    except ImportBusy as exc:
        exc.record = recorders[0].write(Outcome.REFUSED, message=str(exc)).record
        raise
    except _Stop:
        return _refused_all(recorders, stopped)
    except Exception as exc:
        logger.exception("import of %s (%s) failed", recorders[0].name, via)
        message = f"{type(exc).__name__}: {exc}"
        return [r.write(Outcome.FAILED, message=message) for r in recorders]
    return written


def _check(recorder: _Recorder, opener, progress) -> RecordedImport:
    try:
        with opener() as source:
            recorder.opened(source, recorder.name)
            plan = build_plan(source, progress=progress, scrub=_scrub(source, False))
    except (ReleaseReadError, HarborError) as exc:
        problems = list(getattr(exc, "problems", []))
        return recorder.write(Outcome.REFUSED, message=str(exc), problems=problems)
    if not plan.ok:
        message = f"{len(plan.problems)} problem(s); nothing was written"
        return recorder.write(Outcome.REFUSED, plan=plan, message=message)
    return recorder.write(Outcome.CHECKED, plan=plan, message="nothing was written")


def _refused_all(recorders: list[_Recorder], stopped: dict) -> list[RecordedImport]:
    """After the rollback: the part that stopped the import with its problems,
    every other one refused because of it."""
    found = []
    for recorder in recorders:
        if recorder is stopped["recorder"]:
            found.append(
                recorder.write(
                    Outcome.REFUSED,
                    plan=stopped.get("plan"),
                    message=stopped["message"],
                    problems=stopped.get("problems"),
                )
            )
        else:
            found.append(
                recorder.write(
                    Outcome.REFUSED,
                    message=f"not written: bench {stopped['bench']} of the same import was "
                    "refused, and its benches are written together or not at all",
                )
            )
    return found


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
        sources = adapter.open_all(paths, options=options)
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    parts: list[Part] = []
    for source in sources:
        for note in source.notes:
            command.stdout.write(f"note: {note}")

        @contextmanager
        def opener(source=source):
            built = release_of(source, replace=options.replace, title_given=bool(options.title))
            with built.source as release:
                yield release

        parts.append((source.bench.id, f"{shown} ({source.bench.id})", opener))
    try:
        done = recorded_imports(
            parts=parts,
            via=ImportRecord.Via.COMMAND,
            action=Action.DRY_RUN if dry_run else Action.IMPORT,
            holder=f"import_results {os.path.basename(shown)[:200]} (pid {os.getpid()})",
            staged=staged,
            progress=progress,
        )
    except ImportBusy as exc:
        raise CommandError(str(exc)) from None
    finally:
        for source in sources:
            source.close()
    failed = []
    for part in done:
        command.stdout.write(f"bench {part.record.bench}:")
        try:
            report_import(command, part, started=started, noop="nothing changed")
        except CommandError as exc:
            failed.append(f"{part.record.bench}: {exc}")
    if failed:
        raise CommandError("; ".join(failed))
