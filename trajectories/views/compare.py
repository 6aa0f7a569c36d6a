"""Two models on one task side by side."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import reverse

from core import formatting, jsonsafe
from trajectories import comparison, queries
from trajectories.render.diff import compare_texts, parse_patch
from trajectories.render.text import cut, visible


def compare(request, bench: str, task: str, model_a: str, model_b: str):
    if model_a == model_b:
        # Nothing to compare: back to the task page's form to pick another.
        return redirect(reverse("task", args=[bench, task]) + "#compare")
    found = queries.task_for_page(request.user, bench=bench, task=task)
    a, b = queries.attempt_pair(request.user, task=found, model_a=model_a, model_b=model_b)
    limits = settings.BENCHVIEW_LIMITS
    results = queries.check_results([a, b])
    calls = queries.tool_calls([a, b])
    endpoints = queries.endpoint_counts([a, b])
    patch_a, patch_b = _patch_text(a, limits), _patch_text(b, limits)
    steps_a, steps_b = _steps(calls[a.pk]), _steps(calls[b.pk])
    pairs = comparison.lcs_pairs(
        [s["key"] for s in steps_a],
        [s["key"] for s in steps_b],
        max_cells=limits["compare_align_max_cells"],
    )
    alignment = [
        {"a": None if i is None else steps_a[i], "b": None if j is None else steps_b[j]}
        for i, j in pairs
    ]
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
            "alignment": alignment,
            "matched": sum(1 for i, j in pairs if i is not None and j is not None),
            "diverges_at": next(
                (k for k, (i, j) in enumerate(pairs) if i is None or j is None), None
            ),
            "others": queries.other_models(found),
        },
    )


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


def _steps(rows: list[dict]) -> list[dict]:
    """Tool calls as alignment steps; paths are taken relative to the session's cwd."""
    steps, cwd = [], ""
    for row in rows:
        doc = jsonsafe.unpack(row["doc"])
        if row["type"] == "system":
            cwd = doc.get("cwd") if isinstance(doc.get("cwd"), str) else cwd
        else:
            steps.append(_step(row, doc, cwd))
    return steps


def _step(row: dict, doc: dict, cwd: str) -> dict:
    kind, subject = comparison.normalised_step(row["tool"], doc.get("input"), cwd)
    shown, was_cut = cut(visible(subject), settings.BENCHVIEW_LIMITS["compare_step_chars"])
    result = doc.get("result")
    return {
        "key": (kind, subject),
        "index": row["index"],
        "tool": row["tool"],
        "subject": shown,
        "cut": was_cut,
        "ok": row["ok"],
        "returned": isinstance(result, dict),
    }
