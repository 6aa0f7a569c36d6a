"""What the analysis pages add to trajectories.analysis: tool names folded
across harnesses, failed calls with their commands, paged, and summaries.

Harnesses name the same tool differently (Claude Code's ``Bash``, OpenCode's
``bash``, Codex's ``shell``); the pages group them by family
(formats.tools) and list the raw names, so a reader compares like with
like. The API keeps raw names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, QuerySet, TextField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast

from formats.tools import tool_family
from leaderboard.models import Attempt, CheckResult
from trajectories.analysis import PROTOCOL_LEVEL, ToolFailures
from trajectories.models import Event


@dataclass
class FamilyRow:
    tool: str
    raw: list[str] = field(default_factory=list)
    calls: int = 0
    failed: int = 0

    @property
    def failure_rate(self) -> float:
        return self.failed / self.calls if self.calls else 0.0


def tool_families(found: ToolFailures) -> list[FamilyRow]:
    """``found``'s per-tool rows folded into families, most failures first."""
    rows: dict[str, FamilyRow] = {}
    for r in found.tools:
        row = rows.setdefault(tool_family(r.tool), FamilyRow(tool_family(r.tool)))
        row.raw.append(r.tool)
        row.calls += r.calls
        row.failed += r.failed
    for row in rows.values():
        row.raw.sort()
    return sorted(rows.values(), key=lambda r: (-r.failed, -r.calls, r.tool))


def command_of(value) -> str:
    """A tool call's input as a one-line command: ``command`` (string or
    argv list) when there is one, else the input as compact JSON, cut to
    ``analysis_command_chars``."""
    kept = settings.BENCHVIEW_LIMITS["analysis_command_chars"]
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return value[:kept]
    if isinstance(value, dict):
        for key in ("command", "cmd", "pattern", "file_path", "path", "url", "query"):
            if key in value:
                value = value[key]
                break
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = " ".join(value)
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value if len(value) <= kept else value[: kept - 1] + "…"


def failed_calls_of(attempts: QuerySet[Attempt], raw_tools: list[str]) -> QuerySet[Event]:
    return Event.objects.failed_tool_calls().filter(attempt__in=attempts, tool__in=raw_tools)


def failed_calls_page(calls: QuerySet[Event], *, offset: int, limit: int) -> list[Event]:
    """One page of failed calls with their models, tasks and inputs (the input
    only: a call's output can be megabytes and is cut in the database)."""
    rows = list(
        calls.select_related("attempt__model", "attempt__task")
        .only(
            "index",
            "tool",
            "exit_code",
            "output",
            "attempt__model__slug",
            "attempt__model__display_name",
            "attempt__task__slug",
            "attempt__task__title",
        )
        .annotate(input_text=Cast(KeyTransform("input", "doc"), TextField()))
        .order_by("attempt__model__slug", "attempt__task__slug", "index", "pk")[
            offset : offset + limit
        ]
    )
    for row in rows:
        row.command = command_of(row.input_text) if row.input_text is not None else ""
    return rows


def failed_summary(calls: QuerySet[Event]) -> dict[str, list]:
    """Failed calls counted by model and by exit code: two grouped queries."""
    by_model = list(
        calls.values("attempt__model__slug", "attempt__model__display_name")
        .annotate(n=Count("pk"))
        .order_by("-n", "attempt__model__slug")
    )
    by_exit = list(calls.values("exit_code").annotate(n=Count("pk")).order_by("-n", "exit_code"))
    return {"by_model": by_model, "by_exit": by_exit}


def protocol_by_check(attempts: QuerySet[Attempt]) -> list[dict]:
    """Failed L2 checks grouped by check name: failures and models affected."""
    return list(
        CheckResult.objects.filter(attempt__in=attempts, level=PROTOCOL_LEVEL, passed=False)
        .values("name")
        .annotate(n=Count("pk"), models=Count("attempt__model", distinct=True))
        .order_by("-n", "name")
    )
