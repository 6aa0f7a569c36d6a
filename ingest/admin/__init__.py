"""Imports, publishing and their history in the admin.

The import screens hang off the import records' admin (``…/ingest/importrecord/
import/``); publishing is an action on batches and a button per batch on the
bench's admin page. Every one of them writes an ImportRecord and a LogEntry.
"""

from __future__ import annotations

import json
from functools import update_wrapper

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.html import format_html

from core import formatting
from ingest.admin import job_views, views
from ingest.admin.publishing import batch_publish_recorded
from ingest.models import ImportJob, ImportLock, ImportRecord
from ingest.running.jobs import jobs_reap
from leaderboard.admin import BatchAdmin, BenchAdmin, ReadOnlyAdmin, is_staff
from leaderboard.models import Batch, Bench


@admin.register(ImportRecord)
class ImportRecordAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "action",
        "outcome",
        "bench",
        "revision",
        "source_name",
        "short_sha256",
        "user",
        "via",
        "staged",
        "duration",
    ]
    list_filter = ["action", "outcome", "via", "bench"]
    search_fields = ["source_name", "source_sha256", "bench", "message"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"
    fields = [
        "created_at",
        "user",
        "via",
        "action",
        "outcome",
        "message",
        "source_name",
        "source_sha256",
        "bench",
        "revision",
        "staged",
        "duration",
        "summary_json",
        "problems_list",
    ]
    readonly_fields = fields

    def get_urls(self):
        def wrap(view):
            def inner(request, *args, **kwargs):
                return view(request, *args, model_admin=self, **kwargs)

            # Keeps csrf_exempt of the upload view (it checks CSRF itself, later).
            return self.admin_site.admin_view(update_wrapper(inner, view))

        return [
            path("import/", wrap(views.import_start), name="ingest_import"),
            path("import/job/<int:job_id>/", wrap(job_views.import_job), name="ingest_import_job"),
            path(
                "import/job/<int:job_id>/status.json",
                wrap(job_views.import_job_status),
                name="ingest_import_job_status",
            ),
            path(
                "import/job/<int:job_id>/retry/",
                wrap(job_views.import_job_retry),
                name="ingest_import_job_retry",
            ),
            path("import/upload/", wrap(views.import_upload), name="ingest_import_upload"),
            path("import/<str:token>/", wrap(views.import_preview), name="ingest_import_preview"),
            path("import/<str:token>/apply/", wrap(views.import_apply), name="ingest_import_apply"),
            path(
                "import/<str:token>/cancel/", wrap(views.import_cancel), name="ingest_import_cancel"
            ),
            *super().get_urls(),
        ]

    @admin.display(description="sha256")
    def short_sha256(self, obj) -> str:
        return obj.source_sha256[:12]

    @admin.display(description="duration", ordering="duration_s")
    def duration(self, obj) -> str:
        return formatting.elapsed(obj.duration_s)

    @admin.display(description="summary")
    def summary_json(self, obj) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.summary, indent=2, sort_keys=True))

    @admin.display(description="problems")
    def problems_list(self, obj) -> str:
        if not obj.problems:
            return "none"
        return format_html("<pre>{}</pre>", "\n".join(obj.problems))


@admin.register(ImportJob)
class ImportJobAdmin(ReadOnlyAdmin):
    """Every admin import job with its state; each links to its job page."""

    list_display = ["job", "state", "source_name", "user", "created_at", "finished_at", "tries"]
    list_filter = ["state"]
    search_fields = ["source_name", "error"]
    list_select_related = ["user"]
    list_display_links = None

    @property
    def list_per_page(self) -> int:
        # How many jobs a page of the history lists (the job_history_max limit).
        return int(settings.BENCHVIEW_LIMITS["job_history_max"])

    @admin.display(description="job", ordering="pk")
    def job(self, obj) -> str:
        url = reverse("admin:ingest_import_job", args=[obj.pk])
        return format_html('<a href="{}">job {}</a>', url, obj.pk)

    def changelist_view(self, request, extra_context=None):
        jobs_reap()  # a job whose worker died shows as failed, not running
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not object_id.isdecimal():
            raise Http404("no such job")
        return redirect("admin:ingest_import_job", int(object_id))


@admin.register(ImportLock)
class ImportLockAdmin(ReadOnlyAdmin):
    """A lock left by a crashed import can be removed here before it goes stale."""

    list_display = ["name", "holder", "started_at"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser


class PublishingMixin:
    def has_publish_permission(self, request) -> bool:
        return is_staff(request)

    def _publish(self, request, batches, *, live: bool) -> None:
        for batch in batches:
            record = batch_publish_recorded(batch=batch, live=live, user=request.user)
            level = messages.SUCCESS if record.outcome == "applied" else messages.INFO
            self.message_user(request, f"{batch.bench.slug}: {record.message}.", level)


@admin.register(Batch)
class PublishingBatchAdmin(PublishingMixin, BatchAdmin):
    actions = ["publish_batches", "unpublish_batches"]

    @admin.action(description="Publish selected batches", permissions=["publish"])
    def publish_batches(self, request, queryset):
        self._publish(request, queryset.select_related("bench"), live=True)

    @admin.action(description="Unpublish selected batches (staff only)", permissions=["publish"])
    def unpublish_batches(self, request, queryset):
        self._publish(request, queryset.select_related("bench"), live=False)


@admin.register(Bench)
class PublishingBenchAdmin(PublishingMixin, BenchAdmin):
    # templates/admin/leaderboard/bench/change_form.html shows the batches with
    # a publish or unpublish button each.

    def get_urls(self):
        view = self.admin_site.admin_view(self.publish_view)
        return [
            path("<path:object_id>/publish/", view, name="leaderboard_bench_publish"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        bench = self.get_object(request, object_id)
        extra = {
            "batches": views.batch_rows(bench) if bench is not None else [],
            "can_publish": self.has_publish_permission(request),
            "import_url": reverse("admin:ingest_import"),
        }
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def publish_view(self, request, object_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_publish_permission(request):
            raise PermissionDenied
        bench = get_object_or_404(Bench, pk=object_id)
        number = request.POST.get("batch", "")
        if not number.isdecimal():
            raise Http404("no such batch")
        batch = get_object_or_404(Batch, bench=bench, number=int(number))
        self._publish(request, [batch], live=request.POST.get("live") == "1")
        return redirect("admin:leaderboard_bench_change", bench.pk)
