"""One input, several benches (swebench.com's leaderboards.json, OpenHands'
index results): every bench checked and written in one transaction, under
one hold of the import lock, so they all land or none does.

Each bench gets its own ImportRecord, as if imported alone. When one is
refused (or fails), the others are rolled back with it and recorded as
refused, naming the bench that stopped them. ``import_results`` (the command
line), the admin's preview and its import job all come through here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from formats.reader import ReleaseReadError
from formats.sources import ImportOptions, SeveralBenches, SourceError
from formats.sources.harbor.errors import HarborError
from formats.sources.registry import detect
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

# How the record of a bench rolled back because of another one begins.
NOT_WRITTEN = "not written: bench "


class _Stop(Exception):
    """One bench was refused or failed: roll back every bench of the import."""


def detected(path: Path):
    """The adapter of what ``path`` holds, or None when no adapter reads it (the
    one-bench import then records what is wrong with it). The admin asks once,
    to tell an input of several benches (``holds_several``) from one bench."""
    try:
        return detect([path])
    except (SourceError, ReleaseReadError):
        return None


def holds_several(adapter) -> bool:
    return isinstance(adapter, SeveralBenches)


@contextmanager
def several_parts(
    adapter, paths: Sequence[Path], options: ImportOptions, *, name: str
) -> Iterator[tuple[list[Part], list[str]]]:
    """The parts of the input (one per bench, each named ``name (bench)``) and
    the notes its sources made; its sources are closed after the block.
    ``SourceError`` (every problem, by file and JSON path) if it cannot be read."""
    sources = adapter.open_all(paths, options=options)
    try:
        parts: list[Part] = []
        for source in sources:

            @contextmanager
            def opener(source=source):
                # Called under the lock for an import: the models it keeps from
                # the bench in the database cannot change before the write.
                built = release_of(source, replace=options.replace, title_given=bool(options.title))
                with built.source as release:
                    yield release

            parts.append((source.bench.id, f"{name} ({source.bench.id})", opener))
        yield parts, [note for source in sources for note in source.notes]
    finally:
        for source in sources:
            source.close()


@dataclass
class SeveralDone:
    """What a recorded import of an input of several benches gave: one record per
    bench, or ``whole``: one refused record of the input, when it cannot be read
    or holds other benches than its preview showed."""

    parts: list[RecordedImport]
    whole: RecordedImport | None = None
    benches: list[str] = field(default_factory=list)  # each part's bench id, in order

    @property
    def stopped_by(self) -> RecordedImport | None:
        """The bench whose refusal (or failure) kept them all out, if one did."""
        if self.whole is not None:
            return self.whole
        for part in self.parts:
            refused = part.outcome in (Outcome.REFUSED, Outcome.FAILED)
            if refused and not part.record.message.startswith(NOT_WRITTEN):
                return part
        return None


def recorded_several(
    *,
    adapter,
    path: Path,
    name: str,
    bench: str | None,
    via: str,
    holder: str,
    action: str = Action.IMPORT,
    user=None,
    staged: bool = False,
    progress: ProgressCallback | None = None,
    expected: dict[str, str] | None = None,
    on_written: Callable[[list[ImportRecord]], object] | None = None,
) -> SeveralDone:
    """Open ``path`` (benches named ``bench``-…) and check or import its benches
    with ``recorded_imports``; the admin's preview and its import job. An input
    that cannot be opened, or whose benches are not those of ``expected`` (from
    its preview), is recorded once, refused, for the prefix."""
    options = ImportOptions(bench=bench, labels=(Path(name).name,))
    started = time.monotonic()

    def refused(message: str, problems: list[str]) -> SeveralDone:
        recorder = _Recorder(
            via=via, action=action, user=user, staged=staged, started=started, name=name,
            bench=bench or "",
        )  # fmt: skip
        record = recorder.write(Outcome.REFUSED, message=message, problems=problems)
        return SeveralDone([], whole=record)

    try:
        with several_parts(adapter, [path], options, name=name) as (parts, _):
            found = [b for b, _, _ in parts]
            if expected is not None and found != list(expected):
                return refused(
                    f"the input changed since it was previewed: it holds the benches "
                    f"{', '.join(found) or '(none)'}, the preview showed "
                    f"{', '.join(expected)}; preview it again",
                    [],
                )
            done = recorded_imports(
                parts=parts, via=via, holder=holder, action=action, user=user,
                staged=staged, progress=progress, expected=expected, on_written=on_written,
            )  # fmt: skip
            return SeveralDone(done, benches=found)
    except (SourceError, ReleaseReadError, HarborError) as exc:
        return refused(str(exc), list(getattr(exc, "problems", [])))


def recorded_imports(
    *,
    parts: list[Part],
    via: str,
    holder: str,
    action: str = Action.IMPORT,
    user=None,
    staged: bool = False,
    progress: ProgressCallback | None = None,
    expected: dict[str, str] | None = None,
    on_written: Callable[[list[ImportRecord]], object] | None = None,
) -> list[RecordedImport]:
    """Check or import every part; all or nothing. One record per part.

    ``expected`` (bench -> the content hash its preview found) refuses a bench
    whose content changed since, as the one-bench import does, and with it the
    others. ``on_written(records)`` is called
    in the import's transaction once every bench is written (the job's outcome).
    """
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
                            expected_sha256=(expected or {}).get(bench),
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
            if on_written is not None:
                on_written([done.record for done in written])
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
                    message=f"{NOT_WRITTEN}{stopped['bench']} of the same import was "
                    "refused, and its benches are written together or not at all",
                )
            )
    return found
