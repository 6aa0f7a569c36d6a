"""One builder per derived document of a v1 release (docs/release-format.md):
manifest, leaderboard, matrix, models/<model>.json and tasks/<task>.json.

Each takes figures already worked out (the callers score with
``formats.v1.scoring``: from database rows, from Harbor trials, from sample
draws) and gives the document as a dict, its keys in the format's order.
What goes beyond v1 (fields readers may ignore) is passed in by the caller
and placed where the format allows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from formats.v1 import SCHEMA

Doc = dict[str, Any]
# What a figure without a value reads as (core.formatting shows it the same way).
DASH = "–"


def model_rate(score: float, passed: int, trials: int, tasks: int) -> str:
    """A pass-fail model's score with its counts. With one trial per task:
    "34.1% (15/44)"; with more, the score is the mean over tasks of each task's
    pass rate over its trials: "34.1%: 15 of 46 trials on 44 tasks"."""
    if not tasks:
        return DASH
    if trials > tasks:
        return f"{score * 100:.1f}%: {passed} of {trials} trials on {tasks} tasks"
    return f"{score * 100:.1f}% ({passed}/{tasks})"


def _head(bench: str, revision: str | None = None) -> Doc:
    head: Doc = {"schema": SCHEMA, "bench": bench}
    if revision is not None:
        head["revision"] = revision
    return head


# --- manifest.json ----------------------------------------------------------


def manifest_batch(number: int, released_at: Any, tasks: Sequence[str]) -> Doc:
    return {"id": number, "released_at": released_at, "tasks": list(tasks)}


def manifest_document(
    *,
    bench: str,
    title: str,
    revision: str,
    generated_at: Any,
    scoring_rule: str,
    models: Sequence[str],
    tasks: Sequence[str],
    batches: Sequence[Doc],
    attempts: int,
    exceptions_rule: str | None = None,
) -> Doc:
    """``batches`` as ``manifest_batch`` gives them; ``attempts`` counts the
    attempts of released tasks. ``exceptions_rule`` (beyond v1: how a trial
    that raised is scored) is written where given."""
    doc = {
        **_head(bench),
        "title": title,
        "revision": revision,
        "generated_at": generated_at,
        "scoring_rule": scoring_rule,
        "models": list(models),
        "tasks": list(tasks),
        "batches": list(batches),
        "counts": {
            "models": len(models),
            "tasks": len(tasks),
            "released_tasks": sum(len(b["tasks"]) for b in batches),
            "attempts": attempts,
        },
    }
    if exceptions_rule:
        doc["exceptions_rule"] = exceptions_rule
    return doc


# --- leaderboard.json -------------------------------------------------------


def leaderboard_row(
    *,
    rank: int,
    model: str,
    display_name: str,
    harness: str,
    provider: str,
    aggregate: Mapping[str, Any],
    beyond: Mapping[str, Any] | None = None,
) -> Doc:
    """A row: the model, its ``aggregate`` (as in models/<model>.json), then
    the fields ``beyond`` v1 the caller adds (rank range, pass rate, ...)."""
    return {
        "rank": rank,
        "model": model,
        "display_name": display_name,
        "harness": harness,
        "provider": provider,
        **aggregate,
        **(beyond or {}),
    }


def leaderboard_document(*, bench: str, revision: str, scoring_rule: str, rows: list[Doc]) -> Doc:
    return {**_head(bench, revision), "scoring_rule": scoring_rule, "rows": rows}


# --- matrix.json ------------------------------------------------------------


def matrix_task(task: str, title: str, surface: str, released: bool) -> Doc:
    return {"id": task, "title": title, "surface": surface, "released": released}


def matrix_cell(score: float, flags: Sequence[str], trials: Any = None) -> Doc:
    """A cell: ``{"score", "flags"}``, and ``x-trials`` (the figure of a
    model's several trials of the task, an extension v1 readers ignore) where
    given."""
    cell: Doc = {"score": score, "flags": list(flags)}
    if trials is not None:
        cell["x-trials"] = trials
    return cell


def matrix_document(
    *,
    bench: str,
    revision: str,
    tasks: list[Doc],
    models: Sequence[str],
    cells: dict[str, dict[str, Doc]],
) -> Doc:
    """``tasks`` as ``matrix_task`` gives them; ``models`` in rank order;
    ``cells[model][task]`` as ``matrix_cell`` gives them."""
    return {**_head(bench, revision), "tasks": tasks, "models": list(models), "cells": cells}


# --- models/<model>.json ----------------------------------------------------


def model_facts(
    model: str,
    display_name: str,
    harness: str,
    provider: str,
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """The ``model`` object: its extension fields, then the four of v1."""
    return {
        **(extra or {}),
        "id": model,
        "display_name": display_name,
        "harness": harness,
        "provider": provider,
    }


def model_attempt_row(
    *,
    task: str,
    score: float,
    checks_passed: int,
    checks_total: int,
    mandatory_failed: int,
    cost_usd: float | None,
    duration_s: float | None,
    flags: Sequence[str],
) -> Doc:
    return {
        "task": task,
        "score": score,
        "checks_passed": checks_passed,
        "checks_total": checks_total,
        "mandatory_failed": mandatory_failed,
        "cost_usd": cost_usd,  # null: the harness reported no cost
        "duration_s": duration_s,
        "flags": list(flags),
    }


def model_document(*, bench: str, model: Doc, aggregate: Doc, attempts: list[Doc]) -> Doc:
    """``model`` as ``model_facts`` gives it; ``attempts`` as ``model_attempt_row``."""
    return {**_head(bench), "model": model, "aggregate": aggregate, "attempts": attempts}


# --- tasks/<task>.json ------------------------------------------------------


def task_result(model: str, score: float, checks: dict[str, bool], flags: Sequence[str]) -> Doc:
    return {"model": model, "score": score, "checks": checks, "flags": list(flags)}


def task_document(
    *,
    bench: str,
    task: str,
    title: str,
    surface: str,
    vendors: Sequence[str],
    batch: int,
    ticket: Any,
    checks: list[Doc],
    results: list[Doc],
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """``checks`` are the definitions (``{"name", "level", "mandatory"}``),
    ``results`` as ``task_result`` gives them; ``extra`` fields follow."""
    return {
        **_head(bench),
        "task": {
            "id": task,
            "title": title,
            "surface": surface,
            "vendors": list(vendors),
            "batch": batch,
        },
        "ticket": ticket,
        "checks": checks,
        "results": results,
        **(extra or {}),
    }
