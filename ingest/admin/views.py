"""The admin's import screens: pick or upload a release, preview it, apply or cancel.

A previewed release waits in a staged folder (``ingest.running.staging``) whose
token is kept in the staff member's session; only tokens from that session
are honoured. Every path out of a preview removes the folder, except Apply,
which hands an uploaded release to its import job (ingest.running.jobs, job_views).
An input of several benches (swebench.com's leaderboards.json, OpenHands'
index results) is told by content, previewed bench by bench and applied as
one job that imports them all or none (``ingest.running.several``).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.db.models import Count
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from core import formatting
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.admin import import_dir
from ingest.admin.forms import ApplyForm, ServerPickForm, UploadForm
from ingest.admin.pages import admin_page_context, preview_page, several_page
from ingest.admin.services import preview_several, preview_staged
from ingest.admin.uploads import ReleaseUploadHandler
from ingest.running import bucket
from ingest.running.jobs import job_enqueue
from ingest.running.several import detected, holds_several
from ingest.running.staging import Staged, sweep_stale
from leaderboard.models import Bench

SESSION_KEY = "ingest_imports"


def import_start(request, *, model_admin):
    """GET: the two ways in. POST: preview a release picked on the server."""
    sweep_stale()
    pick_form = ServerPickForm(request.POST or None)
    if request.method == "POST" and pick_form.is_valid():
        name = pick_form.cleaned_data["name"]
        staged = Staged.create()
        try:
            meta = {"name": name, **_harbor_meta(pick_form)}
            if bucket.bucket() is not None:
                # Copied to this host, then staged like an upload for the worker.
                path = import_dir.fetch(name, staged.upload_dir)
                meta["upload"] = name
            else:
                path = import_dir.resolve(name)
            return _preview(request, model_admin, staged, path=path, meta=meta)
        except import_dir.OutsideImportDir as exc:
            pick_form.add_error("name", str(exc))
        finally:
            _remove_unless_pending(request, staged)
    return _start_page(request, model_admin, pick_form=pick_form)


@csrf_exempt  # CSRF is checked by _upload, once the upload handler is in place
def import_upload(request, *, model_admin):
    """POST: stream an archive into a staged folder and preview it."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    sweep_stale()
    limit = settings.BENCHVIEW_LIMITS["upload_max_bytes"]
    overhead = settings.BENCHVIEW_LIMITS["upload_body_overhead_bytes"]
    if _content_length(request) > limit + overhead:
        # Refused unread: nothing of it reaches the disk.
        return _start_page(request, model_admin, upload_error=_too_large(limit), status=413)
    staged = Staged.create()
    handler = ReleaseUploadHandler(request, staged=staged, max_bytes=limit)
    # Django reads the body when CSRF is checked, so the handler goes in first.
    request.upload_handlers = [handler]
    try:
        return csrf_protect(_upload)(request, model_admin, staged, handler)
    finally:
        _remove_unless_pending(request, staged)


def _upload(request, model_admin, staged: Staged, handler: ReleaseUploadHandler):
    form = UploadForm(request.POST, request.FILES)
    limit = settings.BENCHVIEW_LIMITS["upload_max_bytes"]
    if handler.too_large:
        return _start_page(request, model_admin, upload_error=_too_large(limit), status=413)
    if not form.is_valid():
        return _start_page(request, model_admin, upload_form=form)
    name = form.cleaned_data["archive"].name
    meta = {"name": name, "upload": name, **_harbor_meta(form)}
    return _preview(request, model_admin, staged, path=staged.upload_dir / name, meta=meta)


def _harbor_meta(form) -> dict:
    """What a preview and its job need to read Harbor jobs, kept in the staged meta.json."""
    data = form.cleaned_data
    return {
        "bench": data["bench"] or None,
        "exceptions": data["exceptions"] or DEFAULT_EXCEPTIONS_RULE,
        "scrub": data["scrub"],
        "models": data["models"],
    }


def _preview(request, model_admin, staged: Staged, *, path, meta: dict):
    """Check the release; keep it staged and show the preview, or say what is wrong."""
    adapter = detected(path)
    if holds_several(adapter):
        return _preview_several(request, model_admin, staged, adapter=adapter, path=path, meta=meta)
    preview = preview_staged(
        path=path,
        name=meta["name"],
        user=request.user,
        bench=meta.get("bench"),
        exceptions_rule=meta.get("exceptions", DEFAULT_EXCEPTIONS_RULE),
        harbor_scrub=meta.get("scrub", True),
        harbor_models=meta.get("models"),
        adapter=adapter.name if adapter is not None else None,  # told once, not again
    )
    if preview.document is None:
        error = f"This release cannot be read, so nothing was written: {preview.record.message}"
        return _start_page(request, model_admin, upload_error=error, status=400)
    if not preview.ok:
        # A release with problems cannot be applied: show them, keep nothing.
        return preview_page(request, model_admin, preview.document, token=None, status=400)
    return _keep(
        request, staged, {**meta, "sha256": preview.document["source_sha256"]}, preview.document
    )


def _preview_several(request, model_admin, staged: Staged, *, adapter, path, meta: dict):
    """Check every bench of the input; keep it staged and show a preview per
    bench, or say what is wrong. Its meta keeps each bench's content hash,
    so the job refuses an input that changed since."""
    preview = preview_several(
        adapter=adapter, path=path, name=meta["name"], user=request.user, bench=meta.get("bench")
    )
    if preview.error is not None:
        # Its message lists every problem, by file and JSON path, a line each.
        error = f"This input cannot be read, so nothing was written: {preview.error.message}"
        return _start_page(request, model_admin, upload_error=error, status=400)
    document = {
        "source_name": meta["name"],
        "bench": meta.get("bench"),
        "benches": preview.documents,
    }
    if not preview.ok:
        # Any bench with problems: none can be applied. Show them, keep nothing.
        return several_page(request, model_admin, document, token=None, status=400)
    several = {
        "adapter": adapter.name,
        "benches": [{"bench": d["bench"], "sha256": d["source_sha256"]} for d in preview.documents],
    }
    return _keep(
        request, staged, {**meta, "sha256": _hash_of(several), "several": several}, document
    )


def _hash_of(several: dict) -> str:
    """One hash for the job's page and record: of every bench's hash, in order."""
    digest = hashlib.sha256()
    for bench in several["benches"]:
        digest.update(f"{bench['bench']}\0{bench['sha256']}\n".encode())
    return digest.hexdigest()


def _keep(request, staged: Staged, meta: dict, document: dict):
    """Keep the previewed input staged for its apply, in this session."""
    staged.write("meta.json", meta)
    staged.write("preview.json", document)
    staged.share()
    request.session[SESSION_KEY] = [*request.session.get(SESSION_KEY, []), staged.token]
    return redirect("admin:ingest_import_preview", staged.token)


def import_preview(request, token: str, *, model_admin):
    staged = _pending(request, token)
    if staged is None:
        return _gone(request)
    document = staged.read("preview.json")
    page = several_page if "benches" in document else preview_page
    form = ApplyForm(several=_several_format(staged.read("meta.json")))
    return page(request, model_admin, document, token=token, apply_form=form)


@require_POST
def import_apply(request, token: str, *, model_admin):
    staged = _pending(request, token)
    if staged is None:
        return _gone(request)
    meta = staged.read("meta.json")
    form = ApplyForm(request.POST, several=_several_format(meta))
    if not form.is_valid():
        # Only a forged post: a preview of several benches offers no chunks.
        for error in (e for errors in form.errors.values() for e in errors):
            messages.error(request, f"Not applied: {error}.")
        return redirect("admin:ingest_import_preview", staged.token)
    try:
        path = (
            staged.upload_dir / meta["upload"]
            if "upload" in meta
            else import_dir.resolve(meta["name"])
        )
    except import_dir.OutsideImportDir as exc:
        _discard(request, staged)
        messages.error(request, str(exc))
        return redirect("admin:ingest_import")
    job = job_enqueue(
        path=path,
        name=meta["name"],
        expected_sha256=meta["sha256"],
        staged=not form.cleaned_data["publish"],
        user=request.user,
        staging_token=staged.token if "upload" in meta else "",
        bench=meta.get("bench"),
        exceptions_rule=meta.get("exceptions", DEFAULT_EXCEPTIONS_RULE),
        scrub=meta.get("scrub", True),
        harbor_models=meta.get("models"),
        several=meta.get("several"),
        chunked=form.cleaned_data["chunked"],
    )
    # The staged folder stays for the worker (and a retry); the job removes
    # it once applied, the sweep a day later otherwise.
    _forget(request, staged)
    if "upload" not in meta:
        staged.remove()
    return redirect("admin:ingest_import_job", job.pk)


@require_POST
def import_cancel(request, token: str, *, model_admin):
    staged = _pending(request, token)
    if staged is not None:
        _discard(request, staged)
        messages.info(request, "Import cancelled; the staged release was removed.")
    return redirect("admin:ingest_import")


# --- helpers -------------------------------------------------------------------------------


def _several_format(meta: dict) -> str:
    """The format of a kept input of several benches, "" for one bench."""
    return meta.get("several", {}).get("adapter", "")


def _pending(request, token: str) -> Staged | None:
    """The staged folder of ``token`` if this session previewed it."""
    if token not in request.session.get(SESSION_KEY, []):
        return None
    return Staged.find(token)


def _discard(request, staged: Staged) -> None:
    staged.remove()
    _forget(request, staged)


def _forget(request, staged: Staged) -> None:
    request.session[SESSION_KEY] = [
        t for t in request.session.get(SESSION_KEY, []) if t != staged.token
    ]


def _remove_unless_pending(request, staged: Staged) -> None:
    """Whatever happened (bad form, bad archive, CSRF failure, an error), a staged
    folder that no session points at is removed at once."""
    if staged.token not in request.session.get(SESSION_KEY, []):
        staged.remove()


def _gone(request):
    messages.error(request, "That preview is no longer available (applied, cancelled or expired).")
    return redirect("admin:ingest_import")


def _content_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _too_large(limit: int) -> str:
    return (
        f"The upload is larger than the limit of {formatting.size(limit)} "
        "(BENCHVIEW_UPLOAD_MAX_BYTES); nothing was kept. Put large releases in the "
        "import folder on the server and pick them below instead."
    )


def _start_page(
    request, model_admin, *, upload_form=None, pick_form=None, upload_error="", status=200
):
    context = admin_page_context(
        request,
        model_admin,
        "Import a release",
        upload_form=upload_form or UploadForm(),
        pick_form=pick_form or ServerPickForm(),
        upload_error=upload_error,
        upload_max_bytes=settings.BENCHVIEW_LIMITS["upload_max_bytes"],
        import_dir=import_dir.location(),
        pending=request.session.get(SESSION_KEY, []),
    )
    return TemplateResponse(request, "ingest/admin/import_start.html", context, status=status)


def batch_rows(bench: Bench) -> list:
    """The bench's batches with their task counts, for the publish buttons."""
    return list(bench.batches.annotate(task_count=Count("tasks")).order_by("number"))
