"""Write one attempt's rows: the attempt, its checks, evidence, events and requests."""

from __future__ import annotations

import hashlib
from collections import Counter

import orjson

from ingest.bulk import bulk_insert
from ingest.plan import AttemptDocs, AttemptPlan, verdict_outcomes
from leaderboard import jsonsafe
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from leaderboard.scoring import MISSING_VERDICT, count_checks, score_verdict
from trajectories.models import Blob, Event, Evidence, TranscriptCheck, VendorRequest

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


def attempt_write(
    *,
    bench: Bench,
    model: Model,
    task: Task,
    planned: AttemptPlan,
    docs: AttemptDocs,
    scoring_rule: str,
    matrix_values: dict,
) -> Attempt:
    """Create one released attempt and everything it carries."""
    summary, verdict = docs.summary, docs.verdict
    outcomes = verdict_outcomes(verdict)
    counts = count_checks(outcomes) if outcomes is not None else None
    flags = list(summary["flags"])
    if verdict is None and MISSING_VERDICT not in flags:
        flags.append(MISSING_VERDICT)
    cost, timing = summary["cost"], summary["timing"]
    attempt = Attempt.objects.create(
        bench=bench,
        model=model,
        task=task,
        trial=planned.trial,
        has_detail=True,
        score=score_verdict(scoring_rule, outcomes, verdict),
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
    results = CheckResult.objects.bulk_create(
        CheckResult(
            attempt=attempt,
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
    )
    trajectory = dict(docs.trajectory)
    events = trajectory.pop("events")
    vendor_log = dict(docs.vendor_log) if docs.vendor_log is not None else None
    vendors = vendor_log.pop("vendors") if vendor_log is not None else {}
    blobs = _blobs(docs.texts)
    Evidence.objects.create(
        attempt=attempt,
        trajectory=jsonsafe.pack(trajectory),
        vendor_log=jsonsafe.pack(vendor_log),
        vendor_order=list(vendors),
        patch=blobs.get("patch.diff"),
        transcript=blobs["transcript.jsonl"],
        problem=blobs["problem.md"],
        requests_total=sum(len(v) for v in vendors.values()),
        events_from=docs.events_from,
        **event_counts(events),
    )
    reading = docs.transcript
    sources = reading.sources if reading is not None else []
    if reading is not None:
        TranscriptCheck.objects.create(attempt=attempt, **reading.check_values())
    attempt_id = attempt.pk  # once, not once per row
    bulk_insert(
        Event,
        EVENT_COLUMNS,
        (
            _event_row(attempt_id, e, sources[i] if i < len(sources) else None)
            for i, e in enumerate(events)
        ),
    )
    bulk_insert(
        VendorRequest,
        REQUEST_COLUMNS,
        (
            _request_row(attempt_id, vendor, i, entry)
            for vendor, entries in vendors.items()
            for i, entry in enumerate(entries)
        ),
    )
    _link_checks_to_requests(attempt, results)
    return attempt


def event_counts(events: list[dict]) -> dict:
    by_type, calls, failed = Counter(), Counter(), Counter()
    for event in events:
        by_type[event["type"]] += 1
        if event["type"] == "tool_call":
            calls[event["tool"]] += 1
            if event["result"] is not None and not event["result"]["ok"]:
                failed[event["tool"]] += 1
    return {
        "events_total": len(events),
        "events_by_type": dict(sorted(by_type.items())),
        "tool_calls_by_tool": dict(sorted(calls.items())),
        "failed_tool_calls_by_tool": dict(sorted(failed.items())),
    }


def _blobs(texts: dict[str, bytes]) -> dict[str, Blob]:
    """Stored blobs for the attempt's text files (one query when all are known)."""
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in texts.items()}
    known = Blob.objects.in_bulk(list(set(digests.values())))
    found = {}
    for name, digest in digests.items():
        blob = known.get(digest)
        if blob is None:
            blob = known[digest] = Blob.store(digest, texts[name])
        found[name] = blob
    return found


def _link_checks_to_requests(attempt: Attempt, results: list[CheckResult]) -> None:
    named = [r for r in results if r.requests]
    if not named:
        return
    by_ref = {
        f"{vendor}:{request_id}": pk
        for pk, vendor, request_id in VendorRequest.objects.filter(attempt=attempt).values_list(
            "pk", "vendor", "request_id"
        )
    }
    through = VendorRequest.checks.through
    through.objects.bulk_create(
        through(vendorrequest_id=by_ref[ref], checkresult_id=result.pk)
        for result in named
        for ref in dict.fromkeys(result.requests)
        if ref in by_ref
    )


def _dumps(value) -> str:
    # orjson: five times faster than json.dumps on the import's hot path.
    return orjson.dumps(value).decode()


def _event_row(attempt_id: int, event: dict, lines: list[int] | None) -> tuple:
    """One event as a row: the large strings in their own columns, the rest in ``doc``."""
    doc = dict(event)
    text = doc.pop("text", None)
    output = None
    result = doc.get("result")
    if isinstance(result, dict) and "output" in result:
        result = dict(result)
        output = result.pop("output")
        doc["result"] = result
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
