"""The two analyses of docs/addresses.md ("Analysis"), shared by the HTML pages and the API.

Tool failures read the per-attempt counts computed at import (Evidence), so
they cost one query however many events a bench has; only the list of example
failed calls of one tool touches the events table (its type/tool/ok index).
Protocol failures are failed L2 check results with the vendor requests they
name, through the check-to-request join stored at import.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django import forms
from django.conf import settings
from django.db.models import Count, Prefetch, Q, QuerySet

from leaderboard.models import Attempt, Bench, CheckResult
from trajectories.models import Event, Evidence, VendorRequest

PROTOCOL_LEVEL = "L2"


class AnalysisFilters(forms.Form):
    """Filters both analyses accept, as query parameters; all optional."""

    model = forms.CharField(required=False, max_length=100)
    harness = forms.CharField(required=False, max_length=100)
    task = forms.CharField(required=False, max_length=100)
    tool = forms.CharField(required=False, max_length=200)


def attempts_in_scope(
    bench: Bench | None, user, filters: dict, *, every_trial: bool = False
) -> QuerySet[Attempt]:
    """Released attempts this user may see, narrowed by the analysis filters:
    first trials (the analyses read one attempt per model and task), or with
    ``every_trial`` the further trials too (to say how many are not read)."""
    attempts = (Attempt.all_trials if every_trial else Attempt.objects).visible_to(user)
    if bench is not None:
        attempts = attempts.filter(bench=bench)
    if filters.get("model"):
        attempts = attempts.filter(model__slug=filters["model"])
    if filters.get("harness"):
        attempts = attempts.filter(model__harness=filters["harness"])
    if filters.get("task"):
        attempts = attempts.filter(task__slug=filters["task"])
    return attempts


@dataclass
class ToolRow:
    tool: str
    calls: int
    failed: int

    @property
    def failure_rate(self) -> float:
        return self.failed / self.calls if self.calls else 0.0


@dataclass
class ToolFailures:
    attempts: int = 0
    calls: int = 0
    failed: int = 0
    tools: list[ToolRow] = field(default_factory=list)
    # (model slug, display name, calls, failed) per model, most failures first.
    models: list[tuple[str, str, int, int]] = field(default_factory=list)


def tool_failures(attempts: QuerySet[Attempt]) -> ToolFailures:
    """Tool calls and failed tool calls (``ok: false``) by tool, and by model. One query."""
    calls: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    by_model: dict[str, list] = {}
    rows = (
        Evidence.objects.filter(attempt__in=attempts)
        .order_by("attempt__model__slug", "attempt_id")
        .values_list(
            "attempt__model__slug",
            "attempt__model__display_name",
            "tool_calls_by_tool",
            "failed_tool_calls_by_tool",
        )
    )
    result = ToolFailures()
    for slug, name, all_calls, failed_calls in rows:
        result.attempts += 1
        calls.update(all_calls)
        failed.update(failed_calls)
        entry = by_model.setdefault(slug, [slug, name, 0, 0])
        entry[2] += sum(all_calls.values())
        entry[3] += sum(failed_calls.values())
    result.tools = sorted(
        (ToolRow(tool, calls[tool], failed[tool]) for tool in calls),
        key=lambda r: (-r.failed, -r.calls, r.tool),
    )
    result.calls = sum(calls.values())
    result.failed = sum(failed.values())
    result.models = sorted(
        (tuple(v) for v in by_model.values()), key=lambda r: (-r[3], -r[2], r[0])
    )
    return result


def failed_calls(attempts: QuerySet[Attempt], tool: str) -> list[Event]:
    """Examples of one tool's failed calls, newest attempts' first events first."""
    limit = settings.BENCHVIEW_LIMITS["analysis_max_rows"]
    return list(
        Event.objects.failed_tool_calls()
        .filter(attempt__in=attempts, tool=tool)
        .select_related("attempt__model", "attempt__task", "attempt__bench")
        .only(
            "index",
            "tool",
            "exit_code",
            "output",
            "attempt__model__slug",
            "attempt__model__display_name",
            "attempt__task__slug",
            "attempt__task__title",
            "attempt__bench__slug",
        )
        .order_by("attempt__model__slug", "attempt__task__slug", "index")[:limit]
    )


@dataclass
class ProtocolFailures:
    total: int
    rows: list[CheckResult]
    limit: int


def protocol_checks(attempts: QuerySet[Attempt]) -> tuple[int, int]:
    """(L2 checks, failed L2 checks) of these attempts. One query."""
    found = CheckResult.objects.filter(attempt__in=attempts, level=PROTOCOL_LEVEL).aggregate(
        total=Count("pk"), failed=Count("pk", filter=Q(passed=False))
    )
    return found["total"], found["failed"]


def protocol_failures(attempts: QuerySet[Attempt]) -> ProtocolFailures:
    """Failed L2 checks with the vendor requests they name. Three queries."""
    limit = settings.BENCHVIEW_LIMITS["analysis_max_rows"]
    failed = CheckResult.objects.filter(attempt__in=attempts, level=PROTOCOL_LEVEL, passed=False)
    rows = list(
        failed.select_related("attempt__model", "attempt__task", "attempt__bench")
        .prefetch_related(
            Prefetch(
                "vendor_requests",
                queryset=VendorRequest.objects.order_by("vendor", "position").defer("doc"),
            )
        )
        .order_by("attempt__model__slug", "attempt__task__slug", "position")[:limit]
    )
    return ProtocolFailures(total=failed.count(), rows=rows, limit=limit)
