"""The release mirror, /data/v1/<bench>/…: the release layout rebuilt from the database.

Derived documents are the same for everyone, built once per bench state and
served from Django's cache. Task files and attempt files answer 404 unless the
task is live, or staged and the user is staff (then never publicly cached).
"""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpResponseRedirect

from formats.v1.files import JSON as JSON_TYPE
from leaderboard import documents
from leaderboard.models import Attempt, Task
from leaderboard.visibility import can_see_staged
from trajectories import blob_files
from trajectories.documents import ATTEMPT_FILES, FORMAT_VERSION, blob_chunks, file_present
from trajectories.mirror.http import etag_matches, file_response, mirror_view
from trajectories.mirror.state import (
    BenchState,
    StaleState,
    bench_state,
    built_document,
    forget_state,
)
from trajectories.models import Blob


def _state(bench: str) -> BenchState:
    state = bench_state(bench)
    if state is None:
        raise Http404("no such bench")
    return state


def _derived(request, state: BenchState, name: str, build, *, private: bool = False):
    try:
        built = built_document(state, name, build)
    except StaleState:
        # The bench was deleted or imported anew since this worker cached its
        # state: ask the database again rather than answer from the old row.
        forget_state(state.slug)
        built = built_document(_state(state.slug), name, build)
    if built is None:
        raise Http404(name)
    return file_response(
        request, etag=built.etag, content_type=JSON_TYPE, body=built.body, private=private
    )


@mirror_view
def manifest(request, bench):
    return _derived(request, _state(bench), "manifest.json", documents.manifest_document)


@mirror_view
def leaderboard(request, bench):
    return _derived(request, _state(bench), "leaderboard.json", documents.leaderboard_document)


@mirror_view
def matrix(request, bench):
    return _derived(request, _state(bench), "matrix.json", documents.matrix_document)


@mirror_view
def model(request, bench, model):
    # Staff see the rows of staged attempts too: another document, never public.
    staff = can_see_staged(request.user)

    def build(bench_row):
        found = bench_row.models.filter(slug=model).first()
        return documents.model_document(found, staged_rows=staff) if found is not None else None

    name = f"models/{model}.json" + (" (staff)" if staff else "")
    return _derived(request, _state(bench), name, build, private=staff)


def _visibility(request, task: Task) -> bool | None:
    """None: hidden from this user; False: public; True: staff-only (private)."""
    if task.batch is None:
        return None
    if task.batch.live:
        return False
    return True if can_see_staged(request.user) else None


@mirror_view
def task(request, bench, task):
    state = _state(bench)
    # By the bench's slug, not the cached state's row id: that may be a bench since
    # deleted and imported anew (see _derived).
    row = Task.objects.select_related("batch").filter(bench__slug=bench, slug=task).first()
    if row is None:
        raise Http404("no such task")
    private = _visibility(request, row)
    if private is None:
        raise Http404("task not released")

    def build(bench_row):
        row.bench = bench_row
        return documents.task_document(row)

    return _derived(request, state, f"tasks/{task}.json", build, private=private)


def _attempt_etag(attempt: Attempt, filename: str) -> str:
    # content_hash identifies every file of the attempt as imported.
    seed = f"{FORMAT_VERSION}/{attempt.content_hash}/{filename}".encode()
    return '"' + hashlib.sha256(seed).hexdigest()[:40] + '"'


@mirror_view
def attempt_file(request, bench, model, task, filename, trial: int | None = None):
    """An attempt's file; with ``trial`` (1, 2, ...) a further trial's, from its
    trials/<n>/ folder (docs/harbor.md)."""
    spec = ATTEMPT_FILES.get(filename)
    if spec is None:
        raise Http404("no such file")
    if trial is not None and trial < 1:
        raise Http404("trials are numbered from 1")
    attempt = (
        Attempt.all_trials.released()
        .select_related("task__batch", "evidence")
        .filter(bench__slug=bench, model__slug=model, task__slug=task, trial=trial or 0)
        .first()
    )
    if attempt is None:
        raise Http404("no such attempt")
    private = _visibility(request, attempt.task)
    if private is None or not file_present(attempt, filename):
        raise Http404("not released")
    if spec.blob_field is not None:
        # Blobs are addressed by their SHA-256: the strongest ETag there is.
        blob_id = getattr(attempt.evidence, f"{spec.blob_field}_id")
        etag = f'"{blob_id}"'
        if request.method == "HEAD" or etag_matches(request, etag):
            # Headers only: the blob's bytes are not loaded.
            size = Blob.objects.filter(pk=blob_id).values_list("size", flat=True).first()
            return file_response(
                request,
                etag=etag,
                content_type=spec.content_type,
                private=private,
                chunks=iter(()),
                length=size,
            )
        blob = Blob.objects.get(pk=blob_id)
        if url := blob_files.redirect_url(blob):
            # Large blobs come from the bucket itself; the URL expires, so the
            # redirect is never stored by a cache.
            response = HttpResponseRedirect(url)
            response["Cache-Control"] = "no-store"
            return response
        if blob.data is not None:
            return file_response(
                request,
                etag=etag,
                content_type=spec.content_type,
                private=private,
                body=bytes(blob.data),
            )
        return file_response(
            request,
            etag=etag,
            content_type=spec.content_type,
            private=private,
            chunks=blob_chunks(blob),
            length=blob.size,
        )
    etag = _attempt_etag(attempt, filename)
    if filename == "trajectory.json":
        # Streamed: tens of thousands of events are never one string in memory.
        # The generator only runs if the body is sent (not for 304 or HEAD).
        return file_response(
            request,
            etag=etag,
            content_type=spec.content_type,
            private=private,
            chunks=_Lazy(spec.build, attempt),
        )
    chunks = spec.build(attempt)
    return file_response(
        request,
        etag=etag,
        content_type=spec.content_type,
        private=private,
        body=b"".join(chunks),
    )


class _Lazy:
    """An iterable that builds its chunks only when iterated."""

    def __init__(self, build, attempt):
        self.build, self.attempt = build, attempt

    def __iter__(self):
        return iter(self.build(self.attempt))
