"""The admin's writes: preview and apply a release, each with its import record and log entry.

The command line (``import_release``) and the admin share the reader, the plan
and ``release_import``; what is added here is who asked, the lock that keeps
imports one at a time, and the records staff read afterwards.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from django.contrib.admin.models import ADDITION, LogEntry

from ingest.harbor import HarborError
from ingest.harbor.opening import open_release_or_jobs
from ingest.locks import ImportBusy, import_lock
from ingest.models import ImportRecord
from ingest.plan import ImportPlan, build_plan
from ingest.preview import preview_document
from ingest.reader import ReleaseReadError
from ingest.report import plan_summary
from ingest.services import ImportRefused, release_import

logger = logging.getLogger(__name__)


@dataclass
class Preview:
    record: ImportRecord
    document: dict | None  # None when the release could not even be read

    @property
    def ok(self) -> bool:
        return self.record.outcome == "checked"


def preview_release(*, path: Path, name: str, user, bench: str | None = None) -> Preview:
    """Read and check the release at ``path`` without writing any of it.

    ``path`` may hold Harbor jobs instead (told by content), imported into
    ``bench``. Only its import record (action "preview") is written, so the
    history shows bad uploads too.
    """
    started = time.monotonic()
    try:
        with open_release_or_jobs(path, name=name, bench=bench) as source:
            plan = build_plan(source)
            document = preview_document(plan)
    except (ReleaseReadError, HarborError) as exc:
        record = _record(user, "preview", "refused", started, source_name=name, message=str(exc))
        return Preview(record=record, document=None)
    outcome = "checked" if plan.ok else "refused"
    message = "" if plan.ok else f"{len(plan.problems)} problem(s); it cannot be applied"
    record = _record(user, "preview", outcome, started, plan=plan, name=name, message=message)
    return Preview(record=record, document=document)


def apply_release(
    *,
    path: Path,
    name: str,
    expected_sha256: str,
    publish: bool,
    user,
    bench: str | None = None,
) -> ImportRecord:
    """Import the previewed release in one transaction, one import at a time.

    Returns the import record: outcome "applied" or "no-change", or "refused"
    (it changed since the preview, or has problems) or "failed" (an unexpected
    error, logged), in which case nothing was written. Raises ImportBusy, after
    recording the refusal, when another import holds the lock.
    """
    started = time.monotonic()
    staged = not publish
    common = {"source_name": name, "staged": staged, "source_sha256": expected_sha256}
    try:
        with (
            import_lock(holder=f"{user.get_username()} importing {name}"),
            open_release_or_jobs(path, name=name, bench=bench) as source,
        ):
            common["source_sha256"] = source.sha256
            result = release_import(source=source, staged=staged, expected_sha256=expected_sha256)
    except ImportBusy as exc:
        _record(user, "import", "refused", started, message=str(exc), **common)
        raise
    except (ReleaseReadError, HarborError) as exc:
        return _record(user, "import", "refused", started, message=str(exc), **common)
    except ImportRefused as exc:
        plan = exc.plan
        return _record(user, "import", "refused", started, plan=plan, message=str(exc), **common)
    except Exception as exc:
        logger.exception("admin import of %s failed", name)
        return _record(user, "import", "failed", started, message=repr(exc), **common)
    plan = result.plan
    outcome = "no-change" if plan.is_noop else "applied"
    message = f"{result.written_attempts} attempt(s) written; new batches " + (
        "staged (staff only)" if staged else "live"
    )
    return _record(user, "import", outcome, started, plan=plan, message=message, **common)


def _record(
    user,
    action: str,
    outcome: str,
    started: float,
    *,
    plan: ImportPlan | None = None,
    name: str = "",
    source_name: str = "",
    source_sha256: str = "",
    staged: bool = False,
    message: str = "",
) -> ImportRecord:
    """Write the import record and the admin log entry for it."""
    record = ImportRecord.objects.create(
        user=user,
        via="admin",
        action=action,
        outcome=outcome,
        source_name=source_name or name or (plan.source_name if plan else ""),
        source_sha256=plan.source_sha256 if plan else source_sha256,
        bench=plan.bench if plan else "",
        revision=plan.revision if plan else "",
        staged=staged,
        summary=plan_summary(plan) if plan is not None and plan.manifest is not None else {},
        problems=[str(p) for p in plan.problems] if plan else [],
        message=message,
        duration_s=time.monotonic() - started,
    )
    LogEntry.objects.log_actions(
        user_id=user.pk,
        queryset=[record],
        action_flag=ADDITION,
        change_message=f"{action} {record.source_name}: {record.get_outcome_display()}"
        + (f" ({message})" if message else ""),
        single_object=True,
    )
    return record
