"""Plain-text reports of an import plan, for the command line."""

from __future__ import annotations

from core import formatting
from formats.normalise import NORMALISERS
from formats.v1.harbor_result import HARBOR_RESULT, differences, row_figures
from ingest.reading.plan import ImportPlan
from ingest.reading.transcripts import UNRECOGNISED_NOTE
from trajectories.fidelity import difference_text


def plan_summary(plan: ImportPlan) -> dict:
    """Counts and changes of a plan, as stored on its import record."""
    manifest = plan.manifest
    return {
        "bench": plan.bench,
        "revision": plan.revision,
        "exceptions_rule": plan.exceptions_rule,
        "models": len(manifest.models) if manifest else 0,
        "tasks": len(manifest.tasks) if manifest else 0,
        "released_tasks": len(plan.released_tasks),
        "attempts": len(plan.attempts),
        "events": plan.events,
        "vendor_requests": plan.requests,
        "changes": {
            "bench": plan.bench_status,
            "models": plan.models.as_dict(),
            "tasks": plan.tasks.as_dict(),
            "batches": plan.batches.as_dict(),
            "attempts": plan.attempt_changes.as_dict(),
        },
        "disagreements": [
            {
                "model": a.model,
                "task": a.task,
                "published": a.published_score,
                "recomputed": a.recomputed_score,
            }
            for a in plan.disagreements
        ],
        "job_disagreements": job_disagreements(plan),
        "derived": [a.label for a in plan.attempts if a.transcript_status == "derived"],
        "transcript_findings": [
            {
                "model": a.model,
                "task": a.task,
                "status": a.transcript_status,
                "format": a.transcript_format,
                "note": a.transcript_note,
                "first_difference": a.first_difference,
                "differences_total": a.differences_total,
                "differences": a.differences,
            }
            for a in plan.transcript_findings
        ],
    }


def job_disagreements(plan: ImportPlan) -> list[dict]:
    """Where a Harbor job's own result.json (``x-harbor-result`` of a leaderboard
    row) differs from the figures the import computed, under the bench's
    exceptions rule: model, figure, the job's value, the site's."""
    found = []
    for row in plan.leaderboard.rows if plan.leaderboard else []:
        doc = row.model_dump()
        ours = row_figures(doc)
        if ours is None:
            continue
        for name, (job, site) in differences(doc.get(HARBOR_RESULT), ours).items():
            jobs = ", ".join((doc.get(HARBOR_RESULT) or {}).get("jobs") or [])
            found.append(
                {"model": row.model, "figure": name, "jobs": jobs, "job": job, "site": site}
            )
    return found


def finding_text(finding: dict) -> str:
    """One attempt's transcript finding in words (see plan_summary)."""
    if finding["status"] == "unrecognised":
        return f"transcript not checked: {finding['note']}"
    first = difference_text(finding["differences"][0]) if finding["differences"] else ""
    return f"{finding['differences_total']} difference(s), first: {first}"


def plan_lines(plan: ImportPlan) -> list[str]:
    summary = plan_summary(plan)
    lines = [
        f"bench: {summary['bench']} (revision {summary['revision']}, {plan.bench_status})",
        f"models: {summary['models']}",
        f"tasks: {summary['tasks']} ({summary['released_tasks']} released)",
        f"attempts: {summary['attempts']}",
        f"events: {summary['events']}",
        f"vendor requests: {summary['vendor_requests']}",
    ]
    for label, changes in summary["changes"].items():
        if label == "bench":
            continue
        counts = ", ".join(f"{len(v)} {k}" for k, v in changes.items() if v)
        lines.append(f"{label}: {counts or 'none'}")
    if plan.scrubbed:
        lines.append(f"scrubbed ({len(plan.scrubbed)}):")
        lines.extend(f"  {item}" for item in plan.scrubbed)
    if plan.disagreements:
        lines.append(
            f"score disagreements ({len(plan.disagreements)}): model, task, published, recomputed"
        )
        for a in plan.disagreements:
            lines.append(
                f"  {a.model}  {a.task}  {formatting.score_exact(a.published_score)}  "
                f"{formatting.score_exact(a.recomputed_score)}"
            )
    if summary["job_disagreements"]:
        rule = plan.exceptions_rule or "none"
        lines.append(
            f"result.json disagreements ({len(summary['job_disagreements'])}, exceptions rule "
            f"{rule}): model, figure, job's result.json, site"
        )
        for d in summary["job_disagreements"]:
            lines.append(
                f"  {d['model']}  {d['figure']}  {formatting.figure(d['job'])}  "
                f"{formatting.figure(d['site'])}  (job {d['jobs']})"
            )
    if summary["derived"]:
        lines.append(f"events normalised from transcript.jsonl: {len(summary['derived'])} attempts")
    findings = summary["transcript_findings"]
    unchecked = [f for f in findings if f["note"] == UNRECOGNISED_NOTE]
    findings = [f for f in findings if f["note"] != UNRECOGNISED_NOTE]
    if unchecked:
        # One line, not one per attempt: a bench of harnesses the site cannot read
        # (the demo's Harbor jobs) would print hundreds.
        lines.append(
            f"transcript not checked: {UNRECOGNISED_NOTE}, in {len(unchecked)} attempt(s) "
            f"(the formats it knows: {', '.join(sorted(NORMALISERS))})"
        )
    if findings:
        lines.append(f"transcript findings ({len(findings)}): model, task, format, what differs")
        for f in findings:
            lines.append(f"  {f['model']}  {f['task']}  {f['format'] or '-'}  {finding_text(f)}")
    return lines
