"""The scoreboard in the admin: browse only.

Every row here is written by importing a release, and the scores are
recomputed from verdicts at import; editing one in the admin would leave it
out of step with the evidence. So staff can search and filter but not add,
change or delete. Batches are the one thing staff change, by publishing; those
actions live with the import records in ``ingest.admin``, which registers
``BenchAdmin`` and ``BatchAdmin`` below with them (this app may not import
``ingest``).
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.urls import reverse

from leaderboard.models import Attempt, Check, CheckResult, Disagreement, Model, Task
from leaderboard.querysets import SHOWN
from leaderboard.visibility import can_see_staged


def is_staff(request) -> bool:
    # Staff see the admin, and in it staged batches: the site's one rule.
    return can_see_staged(request.user)


class _ViewOnly:
    """Staff may look, nobody may edit: rows change only by importing."""

    def has_view_permission(self, request, obj=None) -> bool:
        return is_staff(request)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(_ViewOnly, admin.ModelAdmin):
    list_per_page = 100
    # Counting every row of a big table on each page is the slow part of a changelist.
    show_full_result_count = False
    # The path from a row to its bench: rows of a bench the site does not show
    # (a chunked import's, being written or deleted) are no one's to see, staff
    # included. Benches themselves: their default manager shows shown ones only.
    bench_path: str | None = None

    def has_module_permission(self, request) -> bool:
        return is_staff(request)

    def get_queryset(self, request):
        rows = super().get_queryset(request)
        if self.bench_path is None:
            return rows
        return rows.filter(**{f"{self.bench_path}__state": SHOWN})


class ReadOnlyInline(_ViewOnly, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


class BenchAdmin(ReadOnlyAdmin):
    list_display = ["slug", "title", "revision", "scoring_rule", "generated_at"]
    search_fields = ["slug", "title"]

    def view_on_site(self, obj):
        return reverse("bench", kwargs={"bench": obj.slug})


class BatchAdmin(ReadOnlyAdmin):
    bench_path = "bench"
    list_display = ["__str__", "bench", "number", "released_at", "live", "task_count"]
    list_filter = ["live", "bench"]
    search_fields = ["bench__slug", "tasks__slug"]
    list_select_related = ["bench"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(task_count=Count("tasks"))

    @admin.display(description="tasks", ordering="task_count")
    def task_count(self, obj) -> int:
        return obj.task_count


@admin.register(Model)
class ModelEntryAdmin(ReadOnlyAdmin):
    bench_path = "bench"
    list_display = [
        "slug",
        "display_name",
        "bench",
        "harness",
        "provider",
        "rank",
        "score",
        "published_score",
        "flagged",
        "cost_usd",
    ]
    list_filter = ["bench", "harness", "provider"]
    search_fields = ["slug", "display_name"]
    list_select_related = ["bench"]
    ordering = ["bench", "rank", "slug", "pk"]

    def view_on_site(self, obj):
        return reverse("model", kwargs={"bench": obj.bench.slug, "model": obj.slug})


class ReleasedFilter(admin.SimpleListFilter):
    title = "release state"
    parameter_name = "state"
    # The path from the listed rows to their task's batch.
    batch_path = "batch"

    def lookups(self, request, model_admin):
        return [("live", "live"), ("staged", "staged"), ("unreleased", "in no batch")]

    def queryset(self, request, queryset):
        conditions = {
            "live": {f"{self.batch_path}__live": True},
            "staged": {f"{self.batch_path}__live": False},
            "unreleased": {f"{self.batch_path}__isnull": True},
        }
        condition = conditions.get(self.value())
        return queryset.filter(**condition) if condition else queryset


class CheckInline(ReadOnlyInline):
    model = Check
    fields = ["position", "name", "level", "mandatory"]
    show_change_link = False


@admin.register(Task)
class TaskAdmin(ReadOnlyAdmin):
    bench_path = "bench"
    list_display = ["slug", "title", "bench", "surface", "batch", "mean_score"]
    list_filter = [ReleasedFilter, "bench", "surface"]
    search_fields = ["slug", "title"]
    list_select_related = ["bench", "batch__bench"]
    # By name, as people look for them (the model's own ordering is by column).
    ordering = ["bench__slug", "slug", "pk"]
    inlines = [CheckInline]

    def view_on_site(self, obj):
        if obj.batch_id is None:
            return None  # a task in no batch has no page
        return reverse("task", kwargs={"bench": obj.bench.slug, "task": obj.slug})


class CheckResultInline(ReadOnlyInline):
    model = CheckResult
    fields = ["position", "name", "level", "mandatory", "passed", "detail", "requests"]
    show_change_link = False


class AttemptTaskStateFilter(ReleasedFilter):
    batch_path = "task__batch"


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    bench_path = "bench"
    list_display = [
        "__str__",
        "bench",
        "score",
        "published_score",
        "matrix_score",
        "has_detail",
        "flags",
        "checks_passed",
        "checks_total",
        "cost_usd",
    ]
    list_filter = [AttemptTaskStateFilter, "has_detail", "bench", "model__harness"]
    search_fields = ["model__slug", "task__slug"]
    list_select_related = ["bench", "model", "task"]
    # Models in leaderboard order, then tasks by name (the model's own ordering is by column).
    ordering = ["bench__slug", "model__rank", "model__slug", "task__slug", "trial", "pk"]
    inlines = [CheckResultInline]

    def view_on_site(self, obj):
        if not obj.has_detail:
            return None
        return reverse(
            "attempt",
            kwargs={"bench": obj.bench.slug, "model": obj.model.slug, "task": obj.task.slug},
        )


@admin.register(Disagreement)
class DisagreementAdmin(ReadOnlyAdmin):
    bench_path = "bench"
    list_display = ["__str__", "bench", "source", "field", "published", "recomputed"]
    list_filter = ["bench", "source", "field"]
    search_fields = ["model__slug", "task__slug"]
    list_select_related = ["bench", "model", "task"]
    # By name (the model's own ordering is by column).
    ordering = ["bench__slug", "model__slug", "task__slug", "source", "field", "pk"]
