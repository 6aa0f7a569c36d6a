"""Two models on one task side by side."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from core import formatting
from trajectories import compare_rows, comparison, queries
from trajectories.render.diff import compare_texts, parse_patch


def compare(request, bench: str, task: str, model_a: str, model_b: str):
    if model_a == model_b:
        # Nothing to compare: back to the task page's form to pick another.
        return redirect(reverse("task", args=[bench, task]) + "#compare")
    found = queries.task_for_page(request.user, bench=bench, task=task)
    a, b = queries.attempt_pair(request.user, task=found, model_a=model_a, model_b=model_b)
    limits = settings.BENCHVIEW_LIMITS
    results = queries.check_results([a, b])
    endpoints = queries.endpoint_counts([a, b])
    patch_a, patch_b = _patch_text(a, limits), _patch_text(b, limits)
    alignment, fresh = compare_rows.aligned(a, b)
    per_page = limits["compare_rows_per_page"]
    start = _rows_start(request, len(alignment), per_page)
    # One page of rows, each with its row number: the page stays small however
    # long the two trajectories are.
    page_rows = compare_rows.page_rows(a, b, alignment, fresh, start, per_page)
    diverges_at = alignment.diverges_at
    ea, eb = a.evidence, b.evidence
    checks = comparison.check_rows(results[a.pk], results[b.pk])
    return render(
        request,
        "trajectories/compare.html",
        {
            "bench": found.bench,
            "task": found,
            "a": a,
            "b": b,
            "checks": checks,
            "differing": sum(1 for c in checks if c.differs),
            "patch_a": parse_patch(patch_a) if patch_a is not None else None,
            "patch_b": parse_patch(patch_b) if patch_b is not None else None,
            "patch_diff": compare_texts(
                patch_a or "",
                patch_b or "",
                a_name=f"{a.model.slug}/patch.diff",
                b_name=f"{b.model.slug}/patch.diff",
            ),
            "patch_too_large": None in (patch_a, patch_b)
            and (ea.patch is not None or eb.patch is not None),
            "by_type": shown(comparison.counter_rows(ea.events_by_type, eb.events_by_type)),
            "by_tool": shown(comparison.counter_rows(ea.tool_calls_by_tool, eb.tool_calls_by_tool)),
            "failed_by_tool": shown(
                comparison.counter_rows(ea.failed_tool_calls_by_tool, eb.failed_tool_calls_by_tool)
            ),
            "totals": shown(
                [
                    comparison.StatRow("events", ea.events_total, eb.events_total),
                    comparison.StatRow("vendor requests", ea.requests_total, eb.requests_total),
                    comparison.StatRow("input tokens", a.input_tokens, b.input_tokens),
                    comparison.StatRow("output tokens", a.output_tokens, b.output_tokens),
                    comparison.StatRow("cost", a.cost_usd, b.cost_usd),
                    comparison.StatRow("duration", a.duration_s, b.duration_s),
                ],
                formats={"cost": formatting.usd, "duration": formatting.duration},
            ),
            "endpoints": comparison.endpoint_rows(endpoints[a.pk], endpoints[b.pk]),
            "runs": comparison.fold_runs(page_rows, min_run=limits["compare_fold_min_rows"]),
            "fold_min": limits["compare_fold_min_rows"],
            "matched": alignment.matched,
            "diverges_at": diverges_at,
            "diverges_href": _row_href(diverges_at, start, per_page),
            "rows_total": len(alignment),
            "rows_per_page": per_page,
            "rows_page": start // per_page + 1,
            "rows_start": start,
            "rows_end": start + len(page_rows),
            "rows_previous": start - per_page if start else None,
            "rows_next": start + per_page if start + per_page < len(alignment) else None,
            "others": queries.other_models(found),
        },
    )


def _rows_start(request, total: int, per_page: int) -> int:
    """The first row of the page of aligned rows asked for (``?rows=N``, a
    multiple of the page size, so each page has one address)."""
    raw = request.GET.get("rows", "0")
    if not (raw.isdecimal() and len(raw) < 12) or int(raw) % per_page:
        raise Http404(f"rows must be a multiple of {per_page}.")
    start = int(raw)
    if start and start >= total:
        raise Http404(f"There are {total} aligned rows.")
    return start


def _row_href(row: int | None, start: int, per_page: int) -> str:
    """A link to an aligned row: its anchor, on its page of rows."""
    if row is None:
        return ""
    first = row // per_page * per_page
    return f"#step-{row}" if first == start else f"?rows={first}#step-{row}"


@dataclass(frozen=True)
class ShownStat:
    label: str
    a: str
    b: str
    differs: bool


def shown(rows, *, formats: dict | None = None) -> list[ShownStat]:
    """Rows in the site's number formats ($4.34, 131,272, 8m 30s). A row is
    marked as differing only when what it shows differs: two costs that
    round to the same cent are not a difference a reader can see."""
    formats = formats or {}
    out = []
    for row in rows:
        fmt = formats.get(row.label, formatting.count)
        a, b = fmt(row.a), fmt(row.b)
        out.append(ShownStat(row.label, a, b, a != b))
    return out


def _patch_text(attempt, limits) -> str | None:
    """The patch as text ("" when the agent left none); None when too large to render."""
    blob = attempt.evidence.patch
    if blob is None:
        return ""
    if blob.size > limits["patch_render_max_chars"]:
        return None
    return blob.text()
