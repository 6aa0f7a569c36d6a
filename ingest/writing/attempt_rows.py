"""One attempt's rows, built without touching the database: the attempt, its checks,
evidence, transcript check, events, vendor requests and blobs (see ingest.writing.attempt_batch)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import orjson
from django.conf import settings

from core import jsonsafe
from formats.v1.scoring import (
    LEFT_OUT,
    MISSING_VERDICT,
    count_checks,
    is_counted,
    score_verdict,
)
from ingest.reading.plan import AttemptDocs, AttemptPlan, verdict_outcomes
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from trajectories.render.heights import block_lines, split_large

EVENT_COLUMNS = (
    "attempt",
    "index",
    "type",
    "ts",
    "tool",
    "ok",
    "exit_code",
    "text",
    "output",
    "doc",
    "lines",
)
REQUEST_COLUMNS = (
    "attempt",
    "vendor",
    "position",
    "request_id",
    "direction",
    "ts",
    "method",
    "path",
    "status",
    "duration_ms",
    "doc",
)


# What an event or request costs in memory beyond its strings (dicts, small objects).
ITEM_OVERHEAD = 1000


@dataclass
class PendingAttempt:
    """One released attempt's rows, ready to write once the attempt has its primary key.

    Events and vendor requests stay as decoded and become rows only while they
    are written (``event_rows``, ``request_rows``): a long attempt never holds
    its documents and their rows at once. ``blobs`` maps the SHA-256 of each
    text file to its bytes, and the evidence names them by it.
    """

    label: str
    attempt: Attempt
    results: list[CheckResult]
    evidence: dict
    transcript_check: dict | None
    events: list[dict]
    sources: list[list[int] | None]
    vendors: dict[str, list[dict]]
    blobs: dict[str, bytes] = field(default_factory=dict)
    # Roughly the bytes held: what the writer's buffer counts against its limit.
    size: int = 0

    def event_rows(self) -> Iterator[tuple]:
        """The events as rows in EVENT_COLUMNS order."""
        pk, sources = self.attempt.pk, self.sources
        for i, event in enumerate(self.events):
            yield _event_row(pk, event, sources[i] if i < len(sources) else None)

    def request_rows(self) -> Iterator[tuple]:
        """The vendor requests as rows in REQUEST_COLUMNS order."""
        pk = self.attempt.pk
        for vendor, entries in self.vendors.items():
            for i, entry in enumerate(entries):
                yield _request_row(pk, vendor, i, entry)


def attempt_rows(
    *,
    bench: Bench,
    model: Model,
    task: Task,
    planned: AttemptPlan,
    docs: AttemptDocs,
    scoring_rule: str,
    matrix_values: dict,
    exceptions_rule: str = "",
) -> PendingAttempt:
    """Every row of one released attempt; nothing is read from or written to the database."""
    summary, verdict = docs.summary, docs.verdict
    outcomes = verdict_outcomes(verdict)
    counts = count_checks(outcomes) if outcomes is not None else None
    flags = list(summary["flags"])
    if verdict is None and MISSING_VERDICT not in flags:
        flags.append(MISSING_VERDICT)
    # Whether the exceptions rule leaves it out is the site's to say, not the summary's.
    flags = [f for f in flags if f != LEFT_OUT]
    if not is_counted(verdict, exceptions_rule):
        flags.append(LEFT_OUT)
    cost, timing = summary["cost"], summary["timing"]
    attempt = Attempt(
        bench=bench,
        model=model,
        task=task,
        trial=planned.trial,
        has_detail=True,
        score=score_verdict(scoring_rule, outcomes, verdict, exceptions_rule),
        published_score=summary["score"],
        flags=flags,
        harness=summary["harness"],
        checks_total=counts.total if counts else None,
        checks_passed=counts.passed if counts else None,
        checks_failed=counts.failed if counts else None,
        mandatory_failed=counts.mandatory_failed if counts else None,
        cost_usd=cost["usd"],
        input_tokens=cost["input_tokens"],
        output_tokens=cost["output_tokens"],
        cache_read_tokens=cost.get("cache_read_tokens"),
        cache_write_tokens=cost.get("cache_write_tokens"),
        started_at=timing["started_at"],
        finished_at=timing["finished_at"],
        duration_s=timing["duration_s"],
        summary=jsonsafe.pack(summary),
        verdict=jsonsafe.pack({k: v for k, v in verdict.items() if k != "checks"})
        if verdict is not None
        else None,
        content_hash=planned.content_hash,
        **matrix_values,
    )
    results = [
        CheckResult(
            position=i,
            name=c["name"],
            level=c["level"],
            mandatory=c["mandatory"],
            passed=c["passed"],
            detail=jsonsafe.text(c.get("detail") or ""),
            requests=c.get("requests") or [],
            doc=jsonsafe.pack(c),
        )
        for i, c in enumerate(verdict["checks"] if verdict is not None else [])
    ]
    trajectory = dict(docs.trajectory)
    events = trajectory.pop("events")
    vendor_log = dict(docs.vendor_log) if docs.vendor_log is not None else None
    vendors = vendor_log.pop("vendors") if vendor_log is not None else {}
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in docs.texts.items()}
    evidence = {
        "trajectory": jsonsafe.pack(trajectory),
        "vendor_log": jsonsafe.pack(vendor_log),
        "vendor_order": list(vendors),
        "patch_id": digests.get("patch.diff"),
        "transcript_id": digests["transcript.jsonl"],
        "problem_id": digests["problem.md"],
        "requests_total": sum(len(v) for v in vendors.values()),
        "events_from": docs.events_from,
        **event_counts(events),
    }
    reading = docs.transcript
    blobs = {digests[name]: data for name, data in docs.texts.items()}
    size = sum(len(b) for b in blobs.values()) + sum(_item_size(e) for e in events)
    size += sum(len(entries) for entries in vendors.values()) * ITEM_OVERHEAD
    return PendingAttempt(
        label=planned.label,
        attempt=attempt,
        results=results,
        evidence=evidence,
        transcript_check=reading.check_values() if reading is not None else None,
        events=events,
        sources=reading.sources if reading is not None else [],
        vendors=vendors,
        blobs=blobs,
        size=size,
    )


def _item_size(event: dict) -> int:
    result = event.get("result")
    output = result.get("output") if isinstance(result, dict) else None
    return ITEM_OVERHEAD + len(event.get("text") or "") + len(output or "")


def event_counts(events: list[dict]) -> dict:
    by_type, calls, failed = Counter(), Counter(), Counter()
    limits = settings.BENCHVIEW_LIMITS
    first_failures, first_errors = limits["attempt_first_failures"], limits["attempt_first_errors"]
    failures: dict[str, list[int]] = {}
    never: dict[str, list[int]] = {}
    errors: list[int] = []
    for event in events:
        event_type = event["type"]
        by_type[event_type] += 1
        if event_type == "tool_call":
            tool = event["tool"]
            calls[tool] += 1
            result = event["result"]
            if result is None:
                _keep(never, tool, event["index"], first_failures)
            elif not result["ok"]:
                failed[tool] += 1
                _keep(failures, tool, event["index"], first_failures)
        elif event_type == "error" and len(errors) < first_errors:
            errors.append(event["index"])
    return {
        "events_total": len(events),
        "events_by_type": dict(sorted(by_type.items())),
        "tool_calls_by_tool": dict(sorted(calls.items())),
        "failed_tool_calls_by_tool": dict(sorted(failed.items())),
        "problems": problems_document(failures, never, errors),
        "height_lines": block_lines(events, limits),
    }


def problems_document(
    failures: dict[str, list[int]], never: dict[str, list[int]], errors: list[int]
) -> dict:
    """The attempt page's first failures per tool, calls that never returned and
    errors, kept at import so the page does not read every failed call of a long
    trajectory. Shape: ``Evidence.problems``."""
    return {"failures": failures, "never_returned": never, "errors": errors}


def _keep(found: dict[str, list[int]], tool: str, index: int, limit: int) -> None:
    kept = found.setdefault(tool, [])
    if len(kept) < limit:
        kept.append(index)


def _dumps(value) -> str:
    # orjson: five times faster than json.dumps on the import's hot path.
    return orjson.dumps(value).decode()


def _event_row(attempt_id: int, event: dict, lines: list[int] | None) -> tuple:
    """One event as a row: the large strings in their own columns, the rest in ``doc``."""
    doc, text, output = split_large(event)
    result = doc.get("result")
    doc_json = _dumps(doc)
    if "\\u0000" in doc_json or jsonsafe.NUL in (text or "") or jsonsafe.NUL in (output or ""):
        doc_json = _dumps(jsonsafe.pack(event))
        text, output = jsonsafe.text(text), jsonsafe.text(output)
    return (
        attempt_id,
        event["index"],
        event["type"],
        event.get("ts") or "",
        event.get("tool") or "",
        result.get("ok") if isinstance(result, dict) else None,
        result.get("exit_code") if isinstance(result, dict) else None,
        text,
        output,
        doc_json,
        _dumps(lines) if lines is not None else None,
    )


def _request_row(attempt_id: int, vendor: str, position: int, entry: dict) -> tuple:
    return (
        attempt_id,
        vendor,
        position,
        entry["id"],
        entry["direction"],
        entry["ts"],
        entry["method"],
        jsonsafe.text(entry["path"]),
        entry["status"],
        entry.get("duration_ms"),
        _dumps(jsonsafe.pack(entry)),
    )
