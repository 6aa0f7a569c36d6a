"""Read-only representations of the /api/ resources. Keys are only ever added."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from leaderboard.facts import ModelFacts, facts_of
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from trajectories.models import Event, VendorRequest


def _absolute(request, url: str) -> str:
    return request.build_absolute_uri(url) if request is not None else url


class BenchSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="slug")
    links = serializers.SerializerMethodField()

    class Meta:
        model = Bench
        fields = [
            "id",
            "title",
            "revision",
            "generated_at",
            "scoring_rule",
            "exceptions_rule",
            "links",
        ]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_links(self, bench) -> dict:
        request = self.context.get("request")
        return {
            "manifest": _absolute(request, reverse("mirror-manifest", args=[bench.slug])),
            "leaderboard": _absolute(request, reverse("mirror-leaderboard", args=[bench.slug])),
            "matrix": _absolute(request, reverse("mirror-matrix", args=[bench.slug])),
            # A bench's own lists are reached from it, not from the API's root.
            "revisions": _absolute(request, reverse("api-bench-revisions", args=[bench.slug])),
        }


# Tie groups gave way to rank intervals (docs/statistics.md); the keys stay,
# as the API only adds keys, and hold null.
DEPRECATED_MODEL_FIELDS = ("tie_group", "next_gap_low", "next_gap_high")


@extend_schema_serializer(deprecate_fields=list(DEPRECATED_MODEL_FIELDS))
class ModelSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="slug")
    bench = serializers.CharField(source="bench.slug")
    by_surface = serializers.JSONField()
    rank_low = serializers.IntegerField(
        allow_null=True, help_text="best rank over the middle 95% of paired bootstrap draws"
    )
    rank_high = serializers.IntegerField(
        allow_null=True, help_text="worst rank over the middle 95% of paired bootstrap draws"
    )
    pass_at_k = serializers.SerializerMethodField(
        help_text="pass-fail benches: pass@k by k as a string; null otherwise"
    )
    pass_hat_k = serializers.SerializerMethodField(
        help_text="pass-fail benches: pass^k by k as a string; null otherwise"
    )
    pass_k_tasks = serializers.SerializerMethodField(
        help_text="pass-fail benches: tasks with at least k trials, by k; null otherwise"
    )
    passed = serializers.SerializerMethodField(
        help_text="trials scored 1; null on a published-only row (no per-task results)"
    )
    trials = serializers.SerializerMethodField(
        help_text="every trial; null on a published-only row (no per-task results)"
    )
    published_only = serializers.BooleanField(
        help_text="the source published only this row's score: no per-task results"
    )
    tie_group = serializers.SerializerMethodField(help_text="deprecated: always null")
    next_gap_low = serializers.SerializerMethodField(help_text="deprecated: always null")
    next_gap_high = serializers.SerializerMethodField(help_text="deprecated: always null")
    # The leaderboard's facts (leaderboard.facts, docs/model-facts.md); null
    # where the release does not give them.
    results_date = serializers.SerializerMethodField()
    organisation = serializers.SerializerMethodField()
    open_weights = serializers.SerializerMethodField()
    open_system = serializers.SerializerMethodField()
    verified = serializers.SerializerMethodField()
    site = serializers.SerializerMethodField(help_text="the submission's page (http(s) only)")

    def _facts(self, model) -> ModelFacts:
        # The queryset annotates each model's latest attempt finish (ModelViewSet).
        return facts_of(model, getattr(model, "last_finished", None))

    def get_results_date(self, model) -> str | None:
        return self._facts(model).results_date

    def get_organisation(self, model) -> str | None:
        return self._facts(model).organisation

    def get_open_weights(self, model) -> bool | None:
        return self._facts(model).open_weights

    def get_open_system(self, model) -> bool | None:
        return self._facts(model).open_system

    def get_verified(self, model) -> bool | None:
        return self._facts(model).verified

    def get_site(self, model) -> str | None:
        return self._facts(model).site

    class Meta:
        model = Model
        fields = [
            "id",
            "bench",
            "display_name",
            "harness",
            "provider",
            "rank",
            "score",
            "tasks",
            "flagged",
            "passed",
            "errors",
            "cost_usd",
            "cost_unknown_trials",
            "duration_s",
            "by_surface",
            "ci_low",
            "ci_high",
            "published_score",
            "tie_group",
            "next_gap_low",
            "next_gap_high",
            "results_date",
            "organisation",
            "open_weights",
            "open_system",
            "verified",
            "site",
            "rank_low",
            "rank_high",
            "trials",
            "run_cost_usd",
            "pass_at_k",
            "pass_hat_k",
            "pass_k_tasks",
            "published_only",
        ]

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_passed(self, model) -> int | None:
        return None if model.published_only else model.passed

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_trials(self, model) -> int | None:
        return None if model.published_only else model.trials

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_tie_group(self, model) -> None:
        return None

    @extend_schema_field({"type": "number", "nullable": True})
    def get_next_gap_low(self, model) -> None:
        return None

    @extend_schema_field({"type": "number", "nullable": True})
    def get_next_gap_high(self, model) -> None:
        return None

    def _pass_k(self, model, values: dict) -> dict | None:
        return dict(values) if model.bench.is_pass_fail else None

    @extend_schema_field(
        {"type": "object", "nullable": True, "additionalProperties": {"type": "number"}}
    )
    def get_pass_at_k(self, model) -> dict | None:
        return self._pass_k(model, model.pass_at_k)

    @extend_schema_field(
        {"type": "object", "nullable": True, "additionalProperties": {"type": "number"}}
    )
    def get_pass_hat_k(self, model) -> dict | None:
        return self._pass_k(model, model.pass_hat_k)

    @extend_schema_field(
        {"type": "object", "nullable": True, "additionalProperties": {"type": "integer"}}
    )
    def get_pass_k_tasks(self, model) -> dict | None:
        return self._pass_k(model, model.pass_k_tasks)


class TaskSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="slug")
    bench = serializers.CharField(source="bench.slug")
    vendors = serializers.JSONField(help_text="null unless you may see the task's detail")
    released = serializers.BooleanField(source="is_released")
    batch = serializers.IntegerField(source="batch.number", allow_null=True, default=None)

    class Meta:
        model = Task
        fields = ["id", "bench", "title", "surface", "vendors", "released", "batch", "mean_score"]

    def to_representation(self, task):
        data = super().to_representation(task)
        # The vendors are the task file's: detail, like the rest of a staged task's file.
        if not task.detail_visible:
            data["vendors"] = None
        return data


# Attempt fields that come from the attempt's released evidence: null unless
# the requesting user may see that evidence.
DETAIL_FIELDS = (
    "published_score",
    "harness",
    "checks_total",
    "checks_passed",
    "checks_failed",
    "mandatory_failed",
    "cost_usd",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "started_at",
    "finished_at",
    "duration_s",
)


class AttemptSerializer(serializers.ModelSerializer):
    bench = serializers.CharField(source="bench.slug")
    model = serializers.CharField(source="model.slug")
    task = serializers.CharField(source="task.slug")
    surface = serializers.CharField(source="task.surface")
    flags = serializers.JSONField()
    released = serializers.BooleanField(source="task.is_released")
    detail = serializers.BooleanField(
        source="detail_visible", help_text="the attempt's files and page are available to you"
    )
    links = serializers.SerializerMethodField()

    class Meta:
        model = Attempt
        fields = ["id", "bench", "model", "task", "surface", "score", "flags", "released", "detail"]
        fields += [*DETAIL_FIELDS, "links"]
        # Null when the evidence is hidden (to_representation), so the schema says so.
        extra_kwargs = {name: {"allow_null": True} for name in DETAIL_FIELDS}

    def to_representation(self, attempt):
        data = super().to_representation(attempt)
        if not attempt.detail_visible:
            for name in DETAIL_FIELDS:
                data[name] = None
        return data

    @extend_schema_field({"type": "object", "nullable": True, "additionalProperties": {}})
    def get_links(self, attempt) -> dict | None:
        if not attempt.detail_visible:
            return None
        request = self.context.get("request")
        args = [attempt.bench.slug, attempt.model.slug, attempt.task.slug]

        def release_file(name: str) -> str:
            return _absolute(request, reverse("mirror-attempt-file", args=[*args, name]))

        # An attempt whose events were derived from its raw transcript had no
        # trajectory.json in the release: the mirror serves only what was
        # published, so the link is null and the transcript is the source.
        events_from = getattr(attempt, "events_from", "")
        return {
            "page": _absolute(request, reverse("attempt", args=args)),
            "summary": release_file("summary.json"),
            "trajectory": None if events_from else release_file("trajectory.json"),
            "transcript": release_file("transcript.jsonl"),
            # The normaliser's format when the events were derived, else null.
            "events_from": events_from or None,
        }


class _AttemptChildSerializer(serializers.ModelSerializer):
    bench = serializers.CharField(source="attempt.bench.slug")
    model = serializers.CharField(source="attempt.model.slug")
    task = serializers.CharField(source="attempt.task.slug")


class CheckResultSerializer(_AttemptChildSerializer):
    requests = serializers.JSONField()

    class Meta:
        model = CheckResult
        fields = [
            "id",
            "bench",
            "model",
            "task",
            "position",
            "name",
            "level",
            "mandatory",
            "passed",
            "detail",
            "requests",
        ]


def _preview(value: str | None) -> str | None:
    limit = settings.BENCHVIEW_LIMITS["event_preview_chars"]
    return value if value is None or len(value) <= limit else value[:limit]


class EventSerializer(_AttemptChildSerializer):
    text = serializers.SerializerMethodField()
    output = serializers.SerializerMethodField()
    truncated = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = [
            "id",
            "bench",
            "model",
            "task",
            "index",
            "type",
            "ts",
            "tool",
            "ok",
            "exit_code",
            "text",
            "output",
            "truncated",
            "url",
        ]

    def get_text(self, event) -> str | None:
        return _preview(event.text)

    def get_output(self, event) -> str | None:
        return _preview(event.output)

    def get_truncated(self, event) -> bool:
        limit = settings.BENCHVIEW_LIMITS["event_preview_chars"]
        return any(v is not None and len(v) > limit for v in (event.text, event.output))

    def get_url(self, event) -> str:
        """The event on its attempt page (full text there and in trajectory.json)."""
        a = event.attempt
        page = reverse("attempt", args=[a.bench.slug, a.model.slug, a.task.slug])
        return _absolute(self.context.get("request"), f"{page}#e{event.index}")


class VendorRequestSerializer(_AttemptChildSerializer):
    checks = serializers.SerializerMethodField()

    class Meta:
        model = VendorRequest
        fields = [
            "id",
            "bench",
            "model",
            "task",
            "vendor",
            "request_id",
            "direction",
            "ts",
            "method",
            "path",
            "status",
            "duration_ms",
            "checks",
        ]

    def get_checks(self, request_row) -> list[str]:
        """Names of the verdict checks that name this request."""
        return [c.name for c in request_row.checks.all()]
