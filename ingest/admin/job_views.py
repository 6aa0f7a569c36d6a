"""An import job's page: its progress while it runs, its report or its error after.

The page refreshes itself while the job runs (a ``<noscript>`` refresh);
with scripts on, static/js/admin-import-job.js polls ``status.json`` instead
and reloads once the job has finished. Both first let ``jobs_reap`` notice a
worker that died.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from ingest.admin.pages import admin_page_context
from ingest.models import ImportJob
from ingest.running.job_live import live_rows
from ingest.running.jobs import job_retry, jobs_reap
from leaderboard.models import Bench


def job_status(job: ImportJob, live=None) -> dict:
    """What the page shows of a job's progress, as JSON."""
    status = {
        "id": job.pk,
        "state": job.state,
        "finished": job.finished,
        "error": job.error,
        "phase": live.phase if live else "",
        "done": live.done if live else 0,
        "total": live.total if live else 0,
        "events": live.events if live else 0,
        "events_per_s": 0,
    }
    if live is not None:
        seconds = (live.beat_at - live.started_at).total_seconds()
        status["events_per_s"] = round(live.events / seconds) if seconds > 0 else 0
    summaries = [r.summary for r in job.records.all()] if job.several else []
    if not summaries and job.record:
        summaries = [job.record.summary]
    if job.finished and any(summaries):
        status["done"] = status["total"] = sum(s.get("attempts", 0) for s in summaries)
        status["events"] = sum(s.get("events", 0) for s in summaries)
    return status


def several_rows(job: ImportJob) -> list[dict]:
    """An input of several benches: each bench with its record of the last try
    (none while queued or running) and its admin page once it exists."""
    records = {r.bench: r for r in job.records.all()}
    ids = [b["bench"] for b in job.several.get("benches", [])]
    benches = dict(Bench.objects.filter(slug__in=ids).values_list("slug", "pk"))
    return [
        {"bench": bench, "record": records.get(bench), "bench_pk": benches.get(bench)}
        for bench in ids
    ]


def _job_and_status(job_id: int) -> tuple[ImportJob, dict]:
    jobs_reap()
    job = get_object_or_404(ImportJob.objects.select_related("record", "user"), pk=job_id)
    live = None if job.finished else live_rows([job.pk]).get(job.pk)
    return job, job_status(job, live)


def import_job(request, job_id: int, *, model_admin):
    job, status = _job_and_status(job_id)
    limit = settings.BENCHVIEW_LIMITS["preview_list_max"]
    summary = job.record.summary if job.record else {}
    changes = [
        (label, {k: len(v) for k, v in group.items()})
        for label, group in summary.get("changes", {}).items()
        if label != "bench"
    ]
    disagreements = summary.get("disagreements", [])
    problems = job.record.problems if job.record else []
    bench = Bench.objects.filter(slug=job.record.bench).first() if job.record else None
    context = admin_page_context(
        request,
        model_admin,
        f"Import job {job.pk}: {job.source_name}",
        job=job,
        status=status,
        poll_ms=settings.BENCHVIEW_LIMITS["job_poll_ms"],
        status_url=reverse("admin:ingest_import_job_status", args=[job.pk]),
        changes=changes,
        disagreements=disagreements[:limit],
        more_disagreements=max(len(disagreements) - limit, 0),
        problems=problems[:limit],
        more_problems=max(len(problems) - limit, 0),
        bench=bench,
        several=several_rows(job) if job.several else [],
        jobs_url=reverse("admin:ingest_importjob_changelist"),
    )
    return TemplateResponse(request, "ingest/admin/import_job.html", context)


def import_job_status(request, job_id: int, *, model_admin):
    _, status = _job_and_status(job_id)
    return JsonResponse(status, headers={"Cache-Control": "no-store"})


@require_POST
def import_job_retry(request, job_id: int, *, model_admin):
    job = get_object_or_404(ImportJob, pk=job_id)
    if job.state != ImportJob.State.FAILED:
        messages.error(request, f"Only a failed job can be retried; this one is {job.state}.")
    else:
        job_retry(job=job)
        messages.info(request, f"Import job {job.pk} is queued again (try {job.tries}).")
    return redirect("admin:ingest_import_job", job.pk)
