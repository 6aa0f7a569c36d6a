"""The /api/ resources: read-only, filtered, paginated, visibility-aware.

Evidence of staged tasks (their attempts' detail, checks, events, requests)
is for staff only; tasks in no batch have none to show.
"""

from __future__ import annotations

from django.db.models import BooleanField, Case, F, Max, Prefetch, Q, QuerySet, Value, When
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from formats.v1.slugs import SLUG_PATTERN
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from trajectories import analysis
from trajectories.api import filters, serializers
from trajectories.api.pagination import EventCursorPagination, PagePagination
from trajectories.models import Event, VendorRequest


class _ReadOnly(viewsets.GenericViewSet):
    filter_backends = [DjangoFilterBackend]
    pagination_class = PagePagination


class _List(mixins.ListModelMixin, _ReadOnly):
    pass


class _ListRetrieve(mixins.RetrieveModelMixin, mixins.ListModelMixin, _ReadOnly):
    pass


class BenchViewSet(_ListRetrieve):
    """Benches on this site, with links to their release documents."""

    serializer_class = serializers.BenchSerializer
    filterset_class = filters.BenchFilter
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    queryset = Bench.objects.order_by("slug", "pk")


class ModelViewSet(_List):
    """Leaderboard entries with their recomputed figures, in rank order per bench."""

    serializer_class = serializers.ModelSerializer
    filterset_class = filters.ModelFilter
    queryset = (
        Model.objects.on_shown_benches()
        .select_related("bench")
        # Each model's results date, where its document gives none (leaderboard.facts).
        .annotate(last_finished=Max("attempts__finished_at"))
        .order_by("bench__slug", "rank", "slug", "pk")
    )


class TaskViewSet(_List):
    """Every public task of each bench (released or not: all count for scores)."""

    serializer_class = serializers.TaskSerializer
    filterset_class = filters.TaskFilter

    def get_queryset(self):
        visible = Task.objects.visible_to(self.request.user)
        return (
            Task.objects.on_shown_benches()
            .select_related("bench", "batch")
            .annotate(
                detail_visible=Case(
                    When(pk__in=visible.values("pk"), then=Value(True)),
                    default=Value(False),
                    output_field=BooleanField(),
                )
            )
            .order_by("bench__slug", "position", "pk")
        )


def _visible_attempts(request) -> QuerySet[Attempt]:
    return Attempt.objects.visible_to(request.user)


class AttemptViewSet(_ListRetrieve):
    """Every matrix cell: model × task score and flags; the released evidence's
    figures where you may see it (``detail``)."""

    serializer_class = serializers.AttemptSerializer
    filterset_class = filters.AttemptFilter

    def get_queryset(self):
        visible = Task.objects.visible_to(self.request.user)
        return (
            Attempt.objects.on_shown_benches()
            .select_related("bench", "model", "task__batch")
            .defer("summary", "verdict")
            .annotate(
                detail_visible=Case(
                    When(Q(has_detail=True) & Q(task__in=visible), then=Value(True)),
                    default=Value(False),
                    output_field=BooleanField(),
                ),
                # Which links exist: one column, not the whole evidence row.
                events_from=F("evidence__events_from"),
            )
            .order_by("bench__slug", "model__slug", "task__slug", "pk")
        )


_ATTEMPT_PATH = ("attempt__bench", "attempt__model", "attempt__task")


class CheckResultViewSet(_ListRetrieve):
    """Verdict checks of the attempts you may see."""

    serializer_class = serializers.CheckResultSerializer
    filterset_class = filters.CheckResultFilter

    def get_queryset(self):
        return (
            CheckResult.objects.filter(attempt__in=_visible_attempts(self.request))
            .select_related(*_ATTEMPT_PATH)
            .defer("doc")
            .order_by("attempt_id", "position", "pk")
        )


class EventViewSet(_ListRetrieve):
    """Trajectory events of the attempts you may see; text and output cut to a
    preview (the full event is in trajectory.json and on the attempt page)."""

    serializer_class = serializers.EventSerializer
    filterset_class = filters.EventFilter
    pagination_class = EventCursorPagination

    def get_queryset(self):
        return (
            Event.objects.filter(attempt__in=_visible_attempts(self.request))
            .select_related(*_ATTEMPT_PATH)
            .defer("doc")
            .order_by("pk")
        )


class VendorRequestViewSet(_ListRetrieve):
    """Vendor simulator log entries (requests in, webhooks out) of the attempts you may see."""

    serializer_class = serializers.VendorRequestSerializer
    filterset_class = filters.VendorRequestFilter

    def get_queryset(self):
        return (
            VendorRequest.objects.filter(attempt__in=_visible_attempts(self.request))
            .select_related(*_ATTEMPT_PATH)
            .prefetch_related(
                Prefetch("checks", queryset=CheckResult.objects.only("pk", "name").order_by("pk"))
            )
            .defer("doc")
            .order_by("attempt_id", "vendor", "position", "pk")
        )


# -- analyses ------------------------------------------------------------------------------

_ANALYSIS_PARAMETERS = [
    OpenApiParameter("bench", OpenApiTypes.STR, description="bench id (default: every bench)"),
    OpenApiParameter("model", OpenApiTypes.STR, description="model id"),
    OpenApiParameter("harness", OpenApiTypes.STR, description="harness"),
    OpenApiParameter("task", OpenApiTypes.STR, description="task id"),
]


def analysis_scope(request) -> tuple[Bench | None, dict, QuerySet[Attempt]]:
    """The bench, filters and attempts an analysis request asks about; 400 on bad input."""
    form = analysis.AnalysisFilters(request.query_params)
    if not form.is_valid():
        raise ValidationError(form.errors)
    bench = None
    slug = request.query_params.get("bench")
    if slug:
        bench = Bench.objects.filter(slug=slug).first()
        if bench is None:
            raise ValidationError({"bench": [f"no bench {slug!r}"]})
    filters_used = {k: v for k, v in form.cleaned_data.items() if v}
    return bench, filters_used, analysis.attempts_in_scope(bench, request.user, filters_used)


class ToolFailuresView(APIView):
    """Failed tool calls (``ok: false``) by tool beside all tool calls by tool."""

    @extend_schema(parameters=_ANALYSIS_PARAMETERS, responses=OpenApiTypes.OBJECT)
    def get(self, request):
        bench, used, attempts = analysis_scope(request)
        found = analysis.tool_failures(attempts)
        return Response(
            {
                "bench": bench.slug if bench else None,
                "filters": used,
                "attempts": found.attempts,
                "calls": found.calls,
                "failed": found.failed,
                "tools": [
                    {
                        "tool": r.tool,
                        "calls": r.calls,
                        "failed": r.failed,
                        "failure_rate": r.failure_rate,
                    }
                    for r in found.tools
                ],
                "models": [
                    {"model": slug, "display_name": name, "calls": calls, "failed": failed}
                    for slug, name, calls, failed in found.models
                ],
            }
        )


class ProtocolView(APIView):
    """Failed L2 (protocol) checks joined with the vendor requests they name."""

    @extend_schema(parameters=_ANALYSIS_PARAMETERS, responses=OpenApiTypes.OBJECT)
    def get(self, request):
        bench, used, attempts = analysis_scope(request)
        found = analysis.protocol_failures(attempts)
        return Response(
            {
                "bench": bench.slug if bench else None,
                "filters": used,
                "total": found.total,
                "limit": found.limit,
                "rows": [
                    {
                        "bench": r.attempt.bench.slug,
                        "model": r.attempt.model.slug,
                        "task": r.attempt.task.slug,
                        "check": r.name,
                        "mandatory": r.mandatory,
                        "detail": r.detail,
                        "requests": [
                            {
                                "ref": v.ref,
                                "direction": v.direction,
                                "ts": v.ts,
                                "method": v.method,
                                "path": v.path,
                                "status": v.status,
                            }
                            for v in r.vendor_requests.all()
                        ],
                    }
                    for r in found.rows
                ],
            }
        )
