"""What the admin's import pages show: the context of a preview, of one bench or
of an input of several (one preview per bench), read from its kept document."""

from __future__ import annotations

from django.conf import settings
from django.template.response import TemplateResponse

from core import formatting
from formats.normalise import NORMALISERS
from ingest.models import ImportRecord
from ingest.reading.report import finding_text
from ingest.reading.transcripts import UNRECOGNISED_NOTE


def admin_page_context(request, model_admin, title: str, **extra) -> dict:
    return {
        **model_admin.admin_site.each_context(request),
        "opts": ImportRecord._meta,
        "title": title,
        **extra,
    }


def bench_context(document: dict) -> dict:
    """One bench's preview (templates/ingest/admin/_preview_bench.html), its
    lists cut at ``preview_list_max``."""
    limit = settings.BENCHVIEW_LIMITS["preview_list_max"]
    summary = document["summary"]
    groups = [
        {
            "label": label,
            "counts": {k: len(v) for k, v in changes.items()},
            "lists": [(k, v[:limit], max(len(v) - limit, 0)) for k, v in changes.items() if v],
        }
        for label, changes in summary.get("changes", {}).items()
        if label != "bench"
    ]
    findings = summary.get("transcript_findings", [])
    unchecked = [f for f in findings if f["note"] == UNRECOGNISED_NOTE]
    findings = [f for f in findings if f["note"] != UNRECOGNISED_NOTE]
    return {
        "document": document,
        "summary": summary,
        "groups": groups,
        "problems": document["problems"][:limit],
        "more_problems": max(len(document["problems"]) - limit, 0),
        "scrubbed": document.get("scrubbed", [])[:limit],
        "more_scrubbed": max(len(document.get("scrubbed", [])) - limit, 0),
        "disagreements": summary.get("disagreements", [])[:limit],
        "more_disagreements": max(len(summary.get("disagreements", [])) - limit, 0),
        "job_disagreements": summary.get("job_disagreements", [])[:limit],
        "transcript_findings": [{**f, "text": finding_text(f)} for f in findings[:limit]],
        "more_transcript_findings": max(len(findings) - limit, 0),
        # Said once with a count, as the command line says it: a bench of a
        # harness the site cannot read would list every attempt.
        "transcripts_unchecked": len(unchecked),
        "transcript_formats": sorted(NORMALISERS),
        "derived": len(summary.get("derived", [])),
        "score_changes": [{**c, "delta_text": _delta(c)} for c in document["score_changes"]],
    }


def preview_page(request, model_admin, document: dict, *, token, apply_form=None, status=200):
    """The preview of one release (a release, or one bench built from results)."""
    summary = document["summary"]
    context = admin_page_context(
        request,
        model_admin,
        f"Preview: {summary.get('bench') or document['source_name']}",
        p=bench_context(document),
        token=token,
        apply_form=apply_form,
    )
    return TemplateResponse(request, "ingest/admin/import_preview.html", context, status=status)


def several_page(request, model_admin, document: dict, *, token, apply_form=None, status=200):
    """The preview of an input of several benches: a row per bench, then each
    bench's preview as for one."""
    benches = []
    for n, bench in enumerate(document["benches"], start=1):
        p = bench_context(bench)
        summary = p["summary"]
        benches.append(
            {
                "idp": f"b{n}-",
                "id": bench["bench"],
                "title": bench.get("title") or "",
                "status": summary.get("changes", {}).get("bench", ""),
                "models": summary.get("models"),
                "tasks": summary.get("tasks"),
                "attempts": summary.get("attempts"),
                "problems": len(bench["problems"]),
                # Models whose published score differs from the recomputed one.
                "differ": sum(1 for c in bench["score_changes"] if c.get("disagrees")),
                "p": p,
            }
        )
    refused = [b["id"] for b in benches if b["problems"]]
    count = len(benches)
    context = admin_page_context(
        request,
        model_admin,
        f"Preview: {count} bench{'es' if count != 1 else ''} from {document['source_name']}",
        document=document,
        benches=benches,
        refused=refused,
        token=token,
        apply_form=apply_form,
    )
    return TemplateResponse(
        request, "ingest/admin/import_preview_several.html", context, status=status
    )


def _delta(change: dict) -> str:
    old, new = change["old_score"], change["new_score"]
    if old is None or new is None:
        return ""
    return formatting.signed_exact(new - old)
