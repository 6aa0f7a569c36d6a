"""Apply an import plan: one transaction, all or nothing."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from ingest.extras import collect_extras
from ingest.plan import (
    AttemptPlan,
    ImportPlan,
    attempt_hash,
    model_signature,
    read_attempt,
    task_signature,
    verdict_outcomes,
)
from ingest.reader import ReleaseSource
from leaderboard.models import Attempt, Batch, Bench, Check, CheckResult, Model, Task
from leaderboard.scoring import MISSING_VERDICT, count_checks, score_verdict
from leaderboard.services import bench_recompute
from trajectories.models import Blob, Event, Evidence, VendorRequest


class ImportRefused(Exception):
    """The plan cannot be applied (problems, or the release changed since it was planned)."""


@dataclass
class ImportResult:
    bench: Bench
    plan: ImportPlan
    written_attempts: int


def release_import(
    *,
    plan: ImportPlan,
    source: ReleaseSource,
    staged: bool = False,
    progress: Callable[[str], None] | None = None,
) -> ImportResult:
    """Write ``plan`` (built from ``source``) to the database in one transaction.

    New batches go live unless ``staged``; batches already known keep their
    state. Attempts the plan marks unchanged are not touched, so importing the
    same release twice changes nothing.
    """
    if not plan.ok:
        raise ImportRefused(f"the release has {len(plan.problems)} problem(s)")
    if source.sha256 != plan.source_sha256:
        raise ImportRefused("the release changed since it was checked; check it again")
    with transaction.atomic():
        bench = _write_bench(plan)
        batches = _write_batches(plan, bench, staged)
        models = _write_models(plan, bench)
        tasks = _write_tasks(plan, bench, batches)
        written = _write_attempts(plan, source, bench, models, tasks, progress)
        published = {r.model: r.model_dump() for r in plan.leaderboard.rows}
        bench_recompute(bench=bench, published_rows=published)
    return ImportResult(bench=bench, plan=plan, written_attempts=written)


def _save_if_changed(obj, values: dict) -> None:
    changed = [k for k, v in values.items() if getattr(obj, k) != v]
    for k in changed:
        setattr(obj, k, values[k])
    if changed:
        obj.save(update_fields=changed)


def _write_bench(plan: ImportPlan) -> Bench:
    m = plan.manifest
    values = {
        "title": m.title,
        "revision": m.revision,
        "scoring_rule": m.scoring_rule,
        "generated_at": m.generated_at,
        "extras": {
            "manifest.json": collect_extras(m),
            "leaderboard.json": collect_extras(plan.leaderboard),
            "matrix.json": collect_extras(plan.matrix),
        },
    }
    bench, created = Bench.objects.get_or_create(slug=m.bench, defaults=values)
    if not created:
        _save_if_changed(bench, values)
    return bench


def _write_batches(plan: ImportPlan, bench: Bench, staged: bool) -> dict[int, Batch]:
    existing = {b.number: b for b in bench.batches.all()}
    batches = {}
    for doc in plan.manifest.batches:
        batch = existing.pop(doc.id, None)
        if batch is None:
            batch = Batch.objects.create(
                bench=bench, number=doc.id, released_at=doc.released_at, live=not staged
            )
        else:
            _save_if_changed(batch, {"released_at": doc.released_at})
        batches[doc.id] = batch
    if existing:
        Batch.objects.filter(pk__in=[b.pk for b in existing.values()]).delete()
    return batches


def _write_models(plan: ImportPlan, bench: Bench) -> dict[str, Model]:
    existing = {m.slug: m for m in bench.models.all()}
    rows = {r.model: r for r in plan.leaderboard.rows}
    models = {}
    for position, slug in enumerate(plan.manifest.models):
        doc = plan.model_docs[slug]
        values = {
            "display_name": doc.model.display_name,
            "harness": doc.model.harness,
            "provider": doc.model.provider,
            "position": position,
            "extras": collect_extras(doc),
            "content_hash": model_signature(plan, slug),
        }
        row = rows.get(slug)
        if row is not None and row.display_name and not doc.model.display_name:
            values["display_name"] = row.display_name
        model = existing.pop(slug, None)
        if model is None:
            model = Model.objects.create(bench=bench, slug=slug, **values)
        else:
            _save_if_changed(model, values)
        models[slug] = model
    if existing:
        Model.objects.filter(pk__in=[m.pk for m in existing.values()]).delete()
    return models


def _write_tasks(plan: ImportPlan, bench: Bench, batches: dict[int, Batch]) -> dict[str, Task]:
    existing = {t.slug: t for t in bench.tasks.all()}
    entries = {t.id: t for t in plan.matrix.tasks}
    in_batch = {
        task: (batch.id, position)
        for batch in plan.manifest.batches
        for position, task in enumerate(batch.tasks)
    }
    tasks = {}
    for position, slug in enumerate(plan.manifest.tasks):
        entry = entries[slug]
        doc = plan.task_docs.get(slug)
        batch_number, batch_position = in_batch.get(slug, (None, None))
        values = {
            "title": doc.task.title if doc else entry.title,
            "surface": doc.task.surface if doc else entry.surface,
            "vendors": doc.task.vendors if doc else [],
            "position": position,
            "batch": batches[batch_number] if batch_number is not None else None,
            "batch_position": batch_position,
            "ticket": doc.ticket if doc else "",
            "extras": {
                "tasks/": collect_extras(doc),
                "matrix.json": collect_extras(entry),
            },
            "content_hash": task_signature(entry, plan.task_hashes.get(slug)),
        }
        task = existing.pop(slug, None)
        if task is None:
            task = Task.objects.create(bench=bench, slug=slug, **values)
            changed = True
        else:
            changed = task.content_hash != values["content_hash"]
            _save_if_changed(task, values)
        if changed:
            task.checks.all().delete()
            if doc is not None:
                Check.objects.bulk_create(
                    Check(task=task, name=c.name, level=c.level, mandatory=c.mandatory, position=i)
                    for i, c in enumerate(doc.checks)
                )
        tasks[slug] = task
    if existing:
        Task.objects.filter(pk__in=[t.pk for t in existing.values()]).delete()
    return tasks


def _write_attempts(plan, source, bench, models, tasks, progress) -> int:
    cells = plan.matrix.cells
    planned = {(a.model, a.task): a for a in plan.attempts}
    existing = {
        (a.model.slug, a.task.slug): a
        for a in Attempt.objects.filter(bench=bench).select_related("model", "task")
    }
    keep = set(planned) | {(m, t) for m, row in cells.items() for t in row}
    stale = [a.pk for key, a in existing.items() if key not in keep]
    if stale:
        Attempt.objects.filter(pk__in=stale).delete()

    # Cells of tasks whose detail is not in the release: the published figure is
    # the only score there is.
    for model_slug, row in cells.items():
        for task_slug, cell in row.items():
            if (model_slug, task_slug) in planned:
                continue
            values = {
                "has_detail": False,
                "score": cell.score,
                "flags": list(cell.flags),
                "matrix_score": cell.score,
                "matrix_flags": list(cell.flags),
            }
            attempt = existing.get((model_slug, task_slug))
            if attempt is None:
                Attempt.objects.create(
                    bench=bench, model=models[model_slug], task=tasks[task_slug], **values
                )
            elif attempt.has_detail:
                # The release withdrew this attempt's detail: start it afresh.
                attempt.delete()
                Attempt.objects.create(
                    bench=bench, model=models[model_slug], task=tasks[task_slug], **values
                )
            else:
                _save_if_changed(attempt, values)

    written = 0
    for number, attempt_plan in enumerate(plan.attempts, start=1):
        cell = cells.get(attempt_plan.model, {}).get(attempt_plan.task)
        attempt = existing.get((attempt_plan.model, attempt_plan.task))
        matrix_values = {
            "matrix_score": cell.score if cell else None,
            "matrix_flags": list(cell.flags) if cell else None,
        }
        if attempt_plan.status == "unchanged" and attempt is not None and attempt.has_detail:
            _save_if_changed(attempt, matrix_values)
            continue
        if attempt is not None:
            attempt.delete()
        _write_attempt(
            plan,
            source,
            bench,
            models[attempt_plan.model],
            tasks[attempt_plan.task],
            attempt_plan,
            matrix_values,
        )
        written += 1
        if progress and number % 25 == 0:
            progress(f"imported {number}/{len(plan.attempts)} attempts")
    return written


def _write_attempt(plan, source, bench, model, task, attempt_plan: AttemptPlan, matrix_values):
    folder = attempt_plan.folder
    files = read_attempt(source, folder)
    if attempt_hash(files) != attempt_plan.content_hash:
        raise ImportRefused(f"{folder} changed since the release was checked; check it again")
    summary = json.loads(files["summary.json"])
    verdict = json.loads(files["verdict.json"]) if "verdict.json" in files else None
    checks = verdict["checks"] if verdict is not None else None
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
        has_detail=True,
        score=score_verdict(plan.scoring_rule, outcomes),
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
        summary=summary,
        verdict={k: v for k, v in verdict.items() if k != "checks"} if verdict else None,
        content_hash=attempt_plan.content_hash,
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
            detail=c.get("detail") or "",
            requests=c.get("requests") or [],
            doc=c,
        )
        for i, c in enumerate(checks or [])
    )
    trajectory = json.loads(files["trajectory.json"])
    events = trajectory.pop("events")
    vendor_log = (
        json.loads(files["vendor-requests.json"]) if "vendor-requests.json" in files else None
    )
    vendors = vendor_log.pop("vendors") if vendor_log is not None else {}
    by_type, calls, failed = Counter(), Counter(), Counter()
    for event in events:
        by_type[event["type"]] += 1
        if event["type"] == "tool_call":
            calls[event["tool"]] += 1
            if event["result"] is not None and not event["result"]["ok"]:
                failed[event["tool"]] += 1
    Evidence.objects.create(
        attempt=attempt,
        trajectory=trajectory,
        vendor_log=vendor_log,
        vendor_order=list(vendors),
        patch=Blob.for_bytes(files["patch.diff"]) if "patch.diff" in files else None,
        transcript=Blob.for_bytes(files["transcript.jsonl"]),
        problem=Blob.for_bytes(files["problem.md"]),
        events_total=len(events),
        events_by_type=dict(sorted(by_type.items())),
        tool_calls_by_tool=dict(sorted(calls.items())),
        failed_tool_calls_by_tool=dict(sorted(failed.items())),
        requests_total=sum(len(v) for v in vendors.values()),
    )
    batch_size = settings.BENCHVIEW_LIMITS["bulk_batch_size"]
    Event.objects.bulk_create((_event_row(attempt, e) for e in events), batch_size=batch_size)
    requests = VendorRequest.objects.bulk_create(
        (
            VendorRequest(
                attempt=attempt,
                vendor=vendor,
                position=i,
                request_id=entry["id"],
                direction=entry["direction"],
                ts=entry["ts"],
                method=entry["method"],
                path=entry["path"],
                status=entry["status"],
                duration_ms=entry.get("duration_ms"),
                doc=entry,
            )
            for vendor, entries in vendors.items()
            for i, entry in enumerate(entries)
        ),
        batch_size=batch_size,
    )
    by_ref = {r.ref: r for r in requests}
    links = [
        VendorRequest.checks.through(vendorrequest_id=by_ref[ref].pk, checkresult_id=result.pk)
        for result in results
        for ref in dict.fromkeys(result.requests)
        if ref in by_ref
    ]
    VendorRequest.checks.through.objects.bulk_create(links, batch_size=batch_size)
    return attempt


def _event_row(attempt: Attempt, event: dict) -> Event:
    doc = dict(event)
    text = doc.pop("text", None)
    result = doc.get("result")
    output = None
    ok = exit_code = None
    if isinstance(result, dict):
        result = dict(result)
        output = result.pop("output", None)
        ok, exit_code = result.get("ok"), result.get("exit_code")
        doc["result"] = result
    return Event(
        attempt=attempt,
        index=event["index"],
        type=event["type"],
        ts=event.get("ts") or "",
        tool=event.get("tool") or "",
        ok=ok,
        exit_code=exit_code,
        text=text,
        output=output,
        doc=doc,
    )
