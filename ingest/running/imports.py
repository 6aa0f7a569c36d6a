"""The one recorded import: lock → open → check or import → ImportRecord.

The command line (``import_release``), the admin's preview and the import job
all go through ``run_import``, so a release gets the same outcome and the
same record whoever brings it in, failures included: every way out of an
import, bar an interrupted process, leaves exactly one ImportRecord.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from django.contrib.admin.models import ADDITION, LogEntry

from formats.reader import ReleaseReadError
from formats.sources import ImportOptions, SourceError
from formats.sources.harbor.errors import HarborError
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.models import ImportRecord
from ingest.progress import ProgressCallback
from ingest.reading.plan import ImportPlan, build_plan
from ingest.reading.report import plan_summary
from ingest.running.heap import heap_steady
from ingest.running.locks import ImportBusy, import_lock
from ingest.running.opening import open_for_import, progress_option
from ingest.writing.chunked import StepCallback, write_release_chunked
from ingest.writing.hidden import hidden_cleanup
from ingest.writing.services import ImportRefused, ImportResult, write_release

logger = logging.getLogger(__name__)

Action = ImportRecord.Action
Outcome = ImportRecord.Outcome
# Actions that only read and check: they take no lock and write no release.
CHECK_ONLY = (Action.DRY_RUN, Action.PREVIEW)
BENCH_CHARS = ImportRecord._meta.get_field("bench").max_length


@dataclass
class RecordedImport:
    record: ImportRecord
    plan: ImportPlan | None = None  # None when the release could not even be read
    result: ImportResult | None = None  # set when it was written (applied or no change)

    @property
    def outcome(self) -> str:
        return self.record.outcome


def run_import(
    *,
    path: str | Path,
    via: str,
    holder: str,
    action: str = Action.IMPORT,
    name: str = "",
    user=None,
    staged: bool = False,
    scrub: bool = False,
    expected_sha256: str | None = None,
    progress: ProgressCallback | None = None,
    bench: str | None = None,
    opener: Callable[[], AbstractContextManager] | None = None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    on_written: Callable[[ImportRecord], object] | None = None,
    harbor_scrub: bool = True,
    harbor_models: tuple[bytes, str] | None = None,
    adapter: str | None = None,
    chunked: bool = False,
    steps: StepCallback | None = None,
) -> RecordedImport:
    """Check (``action`` dry-run or preview) or import the release at ``path``, and record it.

    Outcomes: "checked" (a check found no problem), "applied" or "no-change"
    (imported), "refused" (unreadable, has problems, changed since its
    preview, or another import holds the lock) and "failed" (an unexpected
    error, logged with its traceback). Whatever the outcome, nothing of the
    release is written unless it is applied. ImportBusy is recorded (its
    ``record``), then raised, so a caller can say "try later".

    What ``path`` holds is told by content (``ingest.running.opening``: a release, Harbor
    jobs, ...) unless ``adapter`` names the format (``import_release`` takes
    releases only). Harbor jobs are imported into ``bench``: scrubbed unless
    ``harbor_scrub`` is False (``scrub`` is for a release), with
    ``harbor_models`` as the models file. ``opener`` replaces the opening of
    ``path`` (import_harbor opens several paths, with its options, through
    ``open_for_import``); for an import it is called under the lock, so what it
    reads of the database cannot change before the import.

    An import's record ("applied" or "no-change") is written in the import's
    own transaction, and ``on_written(record)`` (the job's outcome) is called
    there too: the import is never visible without them.

    ``chunked`` writes the release a chunk at a time into a hidden bench and
    swaps it in at the end (ingest.writing.chunked; ``steps`` hears of each
    chunk): then the record is written in the swap's transaction.
    """
    heap_steady()  # memory flat in the size of the release (ingest.running.heap)
    started = time.monotonic()
    recorder = _Recorder(
        via=via,
        action=action,
        user=user,
        staged=staged,
        started=started,
        name=name or str(path),
        bench=bench or "",
    )
    if opener is None:
        options = ImportOptions(
            bench=bench,
            models_file=harbor_models,
            exceptions_rule=exceptions_rule,
            scrub=harbor_scrub,
            progress=progress_option(progress),
            labels=(Path(name or str(path)).name,),
        )
        opener = lambda: open_for_import([path], options=options, adapter=adapter)  # noqa: E731
    written: list[RecordedImport] = []

    def record_in_transaction(result: ImportResult) -> None:
        outcome = Outcome.NO_CHANGE if result.plan.is_noop else Outcome.APPLIED
        where = "staged (staff only)" if staged else "live"
        message = f"{result.written_attempts} attempt(s) written"
        if result.chunks:
            message += f" in {result.chunks} chunk(s)"
        if result.kept:
            message += f", {result.kept} kept from an interrupted import"
        message += f"; new batches {where}"
        recorded = recorder.write(outcome, plan=result.plan, message=message)
        recorded.result = result
        if on_written is not None:
            on_written(recorded.record)
        written.append(recorded)

    try:
        if action in CHECK_ONLY:
            with opener() as source:
                recorder.opened(source, name)
                plan = build_plan(source, progress=progress, scrub=_scrub(source, scrub))
            if not plan.ok:
                message = f"{len(plan.problems)} problem(s); nothing was written"
                return recorder.write(Outcome.REFUSED, plan=plan, message=message)
            return recorder.write(Outcome.CHECKED, plan=plan, message="nothing was written")
        with import_lock(holder=holder), opener() as source:
            recorder.opened(source, name)
            # What a chunked import killed after its swap had not deleted yet.
            hidden_cleanup()
            write, more = write_release, {}
            if chunked:
                write, more = write_release_chunked, {"steps": steps}
            write(
                source=source,
                staged=staged,
                scrub=_scrub(source, scrub),
                expected_sha256=expected_sha256,
                progress=progress,
                by=_who(user, via),
                before_commit=record_in_transaction,
                **more,
            )
    except ImportBusy as exc:
        exc.record = recorder.write(Outcome.REFUSED, message=str(exc)).record
        raise
    except (ReleaseReadError, HarborError, SourceError) as exc:
        problems = list(getattr(exc, "problems", []))
        return recorder.write(Outcome.REFUSED, message=str(exc), problems=problems)
    except ImportRefused as exc:
        return recorder.write(Outcome.REFUSED, plan=exc.plan, message=str(exc))
    except Exception as exc:
        logger.exception("import of %s (%s) failed", recorder.name, via)
        if written:
            # It committed, with its record; only what follows (cleaning up) failed.
            return written[0]
        return recorder.write(Outcome.FAILED, message=f"{type(exc).__name__}: {exc}")
    (recorded,) = written
    return recorded


def _who(user, via: str) -> str:
    """Who a bench revision names: the user, else the way the release came in."""
    return user.get_username() if user is not None else f"({via})"


def _scrub(source, scrub: bool) -> bool:
    """Harbor jobs were scrubbed (or refused) as they were read: the checks of
    the release built from them then rewrite what an escape hid, the same way."""
    return getattr(source, "scrubs", scrub)


@dataclass
class _Recorder:
    via: str
    action: str
    user: object
    staged: bool
    started: float
    name: str
    bench: str = ""
    sha256: str = ""

    def opened(self, source, name: str) -> None:
        self.name = name or source.name
        self.sha256 = source.sha256

    def write(
        self,
        outcome: str,
        *,
        plan: ImportPlan | None = None,
        message: str = "",
        problems: list[str] | None = None,
    ) -> RecordedImport:
        has_plan = plan is not None and plan.manifest is not None
        record = ImportRecord.objects.create(
            user=self.user,
            via=self.via,
            action=self.action,
            outcome=outcome,
            source_name=self.name[:500],
            source_sha256=plan.source_sha256 if plan is not None else self.sha256,
            # A plan whose manifest was refused has no bench: the one asked for, then.
            bench=((plan.bench if plan is not None else "") or self.bench)[:BENCH_CHARS],
            revision=plan.revision if plan is not None else "",
            staged=self.staged,
            summary=plan_summary(plan) if has_plan else {},
            problems=[str(p) for p in plan.problems] if plan is not None else problems or [],
            message=message,
            duration_s=time.monotonic() - self.started,
        )
        if self.user is not None:
            LogEntry.objects.log_actions(
                user_id=self.user.pk,
                queryset=[record],
                action_flag=ADDITION,
                change_message=f"{self.action} {record.source_name}: "
                f"{record.get_outcome_display()}" + (f" ({message})" if message else ""),
                single_object=True,
            )
        return RecordedImport(record=record, plan=plan)
