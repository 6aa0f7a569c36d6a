"""Admin imports as background jobs: enqueue, run in a worker, notice dead workers, retry.

``job_enqueue`` writes an ImportJob and puts ``import_job_run`` on the task
queue (django-tasks with the ORM backend: a table of this database, worked
by ``manage.py db_worker``; several workers on several machines share it and
the import lock keeps applies one at a time). The worker runs the one
recorded import (ingest.running.imports), reporting progress through ingest.running.job_live.

A worker killed mid-import leaves the database as it was (the import is one
transaction; a chunked one leaves the chunks it committed, hidden) but its job
"running"; ``jobs_reap``, called by the job pages
and by every job a worker starts, marks such a job failed with the reason:
its worker's process is gone (same host) or its heartbeat is older than
``job_lease_s`` (any host).
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from formats.sources.harbor.naming import models_file
from formats.sources.registry import ADAPTERS
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.models import ImportJob, ImportLock, ImportRecord
from ingest.running.imports import Outcome, run_import
from ingest.running.job_live import LiveReporter, live_drop, live_rows, this_host
from ingest.running.locks import ImportBusy
from ingest.running.several import recorded_several
from ingest.running.staging import Staged

logger = logging.getLogger(__name__)

State = ImportJob.State
KILLED = "The import is one transaction, so nothing of it was written. Retry the job."
# What a chunked import committed stays, hidden (ingest.writing.chunked).
KILLED_CHUNKED = (
    "It wrote in chunks: nothing of it is visible, and the chunks it committed are kept "
    "hidden. Retry the job to resume them, or run manage.py import_cleanup to remove them."
)


def job_enqueue(
    *,
    path: Path,
    name: str,
    expected_sha256: str,
    staged: bool,
    user,
    staging_token: str = "",
    bench: str | None = None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    scrub: bool = True,
    harbor_models: list | None = None,
    several: dict | None = None,
    chunked: bool = False,
) -> ImportJob:
    """Queue the import of the previewed release (or Harbor jobs into ``bench``,
    scrubbed unless ``scrub`` is False, their models named by ``harbor_models``)
    at ``path``; returns the queued job. ``several`` ({"adapter", "benches":
    [{"bench", "sha256"}]}) queues an input of several benches, ``bench`` their
    prefix: one job imports them all, or none (ingest.running.several).
    ``chunked`` writes one bench in chunks (ingest.writing.chunked), as
    ``import_release --chunked`` does; several benches refuse it, as there."""
    if chunked and several:
        raise ValueError(chunked_refusal(several["adapter"]))
    job = ImportJob.objects.create(
        user=user,
        bench=bench or "",
        exceptions_rule=exceptions_rule,
        scrub=scrub,
        harbor_models=harbor_models,
        source_name=name,
        path=str(path),
        staging_token=staging_token,
        expected_sha256=expected_sha256,
        staged=staged,
        several=several or {},
        chunked=chunked,
    )
    _enqueue(job)
    return job


def job_retry(*, job: ImportJob) -> ImportJob:
    """Queue a failed job again, as the same job; its earlier record stays in the history."""
    if job.state != State.FAILED:
        raise ValueError(f"only a failed job can be retried; this one is {job.state}")
    job.state, job.error, job.record = State.QUEUED, "", None
    job.tries += 1
    job.started_at = job.finished_at = job.worker_pid = None
    job.worker_host = ""
    job.save()
    job.records.clear()  # the earlier try's records stay in the history
    live_drop(job.pk)
    _enqueue(job)
    return job


def _enqueue(job: ImportJob) -> None:
    result = import_job_run.enqueue(job_id=job.pk)
    job.task_id = str(result.id)
    job.save(update_fields=["task_id"])


@task()
def import_job_run(job_id: int) -> str:
    """The worker's side: run the job's import and record how it ended."""
    jobs_reap()
    # Claimed by an update on its state, so two workers cannot both run it.
    claimed = ImportJob.objects.filter(pk=job_id, state=State.QUEUED).update(
        state=State.RUNNING,
        started_at=timezone.now(),
        worker_host=this_host(),
        worker_pid=os.getpid(),
    )
    if not claimed:
        return "not queued"
    job = ImportJob.objects.select_related("user").get(pk=job_id)
    try:
        return _run(job)
    except BaseException as exc:
        # Whatever stops the worker short of a kill (an error outside the
        # import, Ctrl+C twice) still ends the job with its reason, unless
        # its import committed (and the job's outcome with it) first.
        if ImportJob.objects.filter(pk=job.pk, state=State.RUNNING).exists():
            _finish(job, State.FAILED, error=f"the worker stopped: {type(exc).__name__}: {exc}")
        raise


def _run(job: ImportJob) -> str:
    path = Path(job.path)
    if not path.exists() and job.staging_token and (staging := Staged.find(job.staging_token)):
        # Staged on another host: fetched from the bucket (ingest.running.bucket).
        path = staging.upload_path(path.name)
    if not path.exists():
        _finish(job, State.FAILED, error=_gone(job))
        return State.FAILED
    reporter = LiveReporter(job.pk)
    if job.several:
        return _run_several(job, path, reporter)
    try:
        done = run_import(
            path=path,
            name=job.source_name,
            via=ImportRecord.Via.ADMIN,
            user=job.user,
            staged=job.staged,
            expected_sha256=job.expected_sha256,
            holder=job_holder(job),
            progress=reporter,
            bench=job.bench or None,
            exceptions_rule=job.exceptions_rule,
            # Done in the import's transaction: a worker killed just after the
            # commit leaves the job done, not "running" for the reaper to fail.
            on_written=lambda record: _save_outcome(job, State.DONE, record=record),
            harbor_scrub=job.scrub,
            harbor_models=models_file(job.harbor_models),
            chunked=job.chunked,
        )
    except ImportBusy as exc:
        _finish(job, State.FAILED, error=str(exc), record=exc.record)
        return State.FAILED
    record = done.record
    if record.outcome in (Outcome.APPLIED, Outcome.NO_CHANGE):
        live_drop(job.pk)
        if job.staging_token and (staging := Staged.find(job.staging_token)):
            staging.remove()
        return State.DONE
    _finish(job, State.FAILED, error=record.message, record=record)
    return State.FAILED


def chunked_refusal(adapter: str) -> str:
    """Why an input of several benches is not written in chunks (import_results
    refuses ``--chunked`` for the same reason)."""
    return f"{adapter}: writing in chunks takes one bench (several are written all or none)"


def _run_several(job: ImportJob, path: Path, reporter: LiveReporter) -> str:
    """An input of several benches: every bench imported in one transaction, or none."""

    def written(records: list[ImportRecord]) -> None:
        # In the import's transaction, as for one bench (run_import's on_written).
        job.records.set(records)
        _save_outcome(job, State.DONE)

    try:
        done = recorded_several(
            adapter=ADAPTERS[job.several["adapter"]],
            path=path,
            name=job.source_name,
            bench=job.bench or None,
            via=ImportRecord.Via.ADMIN,
            holder=job_holder(job),
            user=job.user,
            staged=job.staged,
            progress=reporter,
            expected={b["bench"]: b["sha256"] for b in job.several["benches"]},
            on_written=written,
        )
    except ImportBusy as exc:
        _finish(job, State.FAILED, error=str(exc), record=exc.record)
        return State.FAILED
    stopped = done.stopped_by
    if stopped is None:
        live_drop(job.pk)
        if job.staging_token and (staging := Staged.find(job.staging_token)):
            staging.remove()
        return State.DONE
    job.records.set([part.record for part in done.parts])
    record = stopped.record
    where = f"bench {record.bench}: " if done.whole is None else ""
    error = f"{where}{record.message}; no bench of this input was written"
    _finish(job, State.FAILED, error=error, record=record)
    return State.FAILED


def _finish(job: ImportJob, state: str, *, error: str = "", record=None) -> None:
    _save_outcome(job, state, error=error, record=record)
    live_drop(job.pk)


def _save_outcome(job: ImportJob, state: str, *, error: str = "", record=None) -> None:
    job.state, job.error, job.record = state, error, record
    job.finished_at = timezone.now()
    job.save(update_fields=["state", "error", "record", "finished_at"])


def job_holder(job: ImportJob) -> str:
    """Who holds the import lock while the job runs, as the refusal of another import says."""
    who = job.user.get_username() if job.user else "someone"
    return f"import job {job.pk} ({who} importing {job.source_name})"


def jobs_reap() -> list[ImportJob]:
    """Mark failed every running job whose worker is gone; returns them."""
    running = list(ImportJob.objects.filter(state=State.RUNNING).select_related("user"))
    if not running:
        return []
    live = live_rows(job.pk for job in running)
    lease = timedelta(seconds=settings.BENCHVIEW_LIMITS["job_lease_s"])
    now, host = timezone.now(), this_host()
    reaped = []
    for job in running:
        row = live.get(job.pk)
        beat = row.beat_at if row else job.started_at
        pid_gone = job.worker_host == host and job.worker_pid and not _alive(job.worker_pid)
        if not pid_gone and beat and now - beat < lease:
            continue
        where = f"during {row.phase}, {row.done}/{row.total} attempts" if row else "as it started"
        why = "its process is gone" if pid_gone else f"no heartbeat for {lease.seconds} s"
        reason = (
            f"The worker (pid {job.worker_pid} on {job.worker_host}) stopped {where}: {why}. "
            + (KILLED_CHUNKED if job.chunked else KILLED)
        )
        # Claim the failure by the state too: a worker finishing just now wins
        # (its outcome commits with its import). The failure is an import
        # record of its own, so it stays in the history when the job is retried.
        with transaction.atomic():
            if not ImportJob.objects.filter(pk=job.pk, state=State.RUNNING).update(
                state=State.FAILED, error=reason, finished_at=now
            ):
                continue
            record = _failure_record(job, reason, started=row.started_at if row else None)
            ImportJob.objects.filter(pk=job.pk).update(record=record)
        _free_lock_of(job)
        _fail_task_of(job, reason)
        live_drop(job.pk)
        logger.warning("import job %s: %s", job.pk, reason)
        reaped.append(job)
    return reaped


def _failure_record(job: ImportJob, reason: str, *, started) -> ImportRecord:
    began = started or job.started_at
    return ImportRecord.objects.create(
        user=job.user,
        via=ImportRecord.Via.ADMIN,
        action=ImportRecord.Action.IMPORT,
        outcome=Outcome.FAILED,
        source_name=job.source_name[:500],
        source_sha256=job.expected_sha256,
        bench=job.bench,
        staged=job.staged,
        message=reason,
        duration_s=(timezone.now() - began).total_seconds() if began else 0.0,
    )


def _free_lock_of(job: ImportJob) -> None:
    # The dead worker's lock row would otherwise block imports until it goes
    # stale; a lock that dies with its holder makes this a no-op.
    ImportLock.objects.filter(holder=job_holder(job)[:300]).delete()


def _fail_task_of(job: ImportJob, reason: str) -> None:
    # The queue's own row would say "running" for ever: its worker is gone.
    DBTaskResult.objects.filter(id=job.task_id, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.FAILED, finished_at=timezone.now(), traceback=reason
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def _gone(job: ImportJob) -> str:
    return (
        f"The release {job.source_name} is no longer on the server (staged uploads are "
        "removed after a day); nothing was written. Upload or pick it again."
    )
