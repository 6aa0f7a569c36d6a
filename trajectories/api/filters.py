"""The documented filters of each /api/ resource (django-filter)."""

from __future__ import annotations

import json

import django_filters
from django.db import connection
from django.db.models import TextField
from django.db.models.functions import Cast

from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from trajectories.api.fields import FiniteNumberFilter, IntegerFilter, StrictBooleanFilter
from trajectories.models import Event, VendorRequest


def flags_contain(queryset, name: str, value: str):
    """Rows whose JSON list ``name`` holds the string ``value``."""
    if not value:
        return queryset
    if connection.vendor == "postgresql":
        return queryset.filter(**{f"{name}__contains": [value]})
    # SQLite has no JSON containment lookup; the stored text of a list of
    # strings holds '"value"' (as Django encodes it) exactly when it is an item.
    return queryset.annotate(_flags_text=Cast(name, TextField())).filter(
        _flags_text__contains=json.dumps(value)
    )


class BenchFilter(django_filters.FilterSet):
    scoring_rule = django_filters.CharFilter()

    class Meta:
        model = Bench
        fields = ["scoring_rule"]


class ModelFilter(django_filters.FilterSet):
    bench = django_filters.CharFilter(field_name="bench__slug", help_text="bench id")
    harness = django_filters.CharFilter()
    provider = django_filters.CharFilter()

    class Meta:
        model = Model
        fields = ["bench", "harness", "provider"]


class TaskFilter(django_filters.FilterSet):
    bench = django_filters.CharFilter(field_name="bench__slug", help_text="bench id")
    surface = django_filters.CharFilter()
    released = StrictBooleanFilter(
        field_name="batch", lookup_expr="isnull", exclude=True, help_text="in a batch"
    )

    class Meta:
        model = Task
        fields = ["bench", "surface", "released"]


class AttemptFilter(django_filters.FilterSet):
    bench = django_filters.CharFilter(field_name="bench__slug", help_text="bench id")
    model = django_filters.CharFilter(field_name="model__slug", help_text="model id")
    task = django_filters.CharFilter(field_name="task__slug", help_text="task id")
    surface = django_filters.CharFilter(field_name="task__surface")
    harness = django_filters.CharFilter(field_name="model__harness")
    released = StrictBooleanFilter(
        field_name="task__batch",
        lookup_expr="isnull",
        exclude=True,
        help_text="the task is in a batch (as matrix.json's released)",
    )
    score_min = FiniteNumberFilter(field_name="score", lookup_expr="gte")
    score_max = FiniteNumberFilter(field_name="score", lookup_expr="lte")
    flag = django_filters.CharFilter(method="filter_flag", help_text="attempts carrying this flag")

    class Meta:
        model = Attempt
        fields = [
            "bench",
            "model",
            "task",
            "surface",
            "harness",
            "released",
            "score_min",
            "score_max",
            "flag",
        ]

    def filter_flag(self, queryset, name, value):
        return flags_contain(queryset, "flags", value)


class _AttemptChildFilter(django_filters.FilterSet):
    bench = django_filters.CharFilter(field_name="attempt__bench__slug", help_text="bench id")
    model = django_filters.CharFilter(field_name="attempt__model__slug", help_text="model id")
    task = django_filters.CharFilter(field_name="attempt__task__slug", help_text="task id")


class CheckResultFilter(_AttemptChildFilter):
    level = django_filters.CharFilter()
    passed = StrictBooleanFilter()
    mandatory = StrictBooleanFilter()

    class Meta:
        model = CheckResult
        fields = ["bench", "model", "task", "level", "passed", "mandatory"]


class EventFilter(_AttemptChildFilter):
    type = django_filters.CharFilter()
    tool = django_filters.CharFilter()
    ok = StrictBooleanFilter(help_text="tool calls that returned ok (false: failed)")

    class Meta:
        model = Event
        fields = ["bench", "model", "task", "type", "tool", "ok"]


class VendorRequestFilter(_AttemptChildFilter):
    vendor = django_filters.CharFilter()
    direction = django_filters.CharFilter()
    status = IntegerFilter()
    method = django_filters.CharFilter(lookup_expr="iexact")
    path = django_filters.CharFilter(help_text="exact path")

    class Meta:
        model = VendorRequest
        fields = ["bench", "model", "task", "vendor", "direction", "status", "method", "path"]
