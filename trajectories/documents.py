"""One attempt's files, rebuilt from the database exactly as they were imported.

``summary.json``, ``verdict.json``, ``trajectory.json`` and
``vendor-requests.json`` come back equal as JSON (unknown keys, nulls and
array order included); ``patch.diff``, ``transcript.jsonl`` and ``problem.md``
byte for byte from their blobs. The documents go through the format's
builders (``formats.v1.attempt_files``), as every writer of attempt files
does. Each builder returns an iterator of byte chunks, or None when the
release had no such file, so the mirror can stream a trajectory of tens of
thousands of events and ``export_release`` can write it to disk without ever
holding the whole document in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.files.storage import default_storage

from core import jsonsafe
from formats.v1 import attempt_files as v1
from formats.v1.files import ATTEMPT_FILES as V1_ATTEMPT_FILES
from leaderboard.jsonbytes import dumps  # noqa: F401 (re-exported: the mirror's serialiser)
from leaderboard.models import Attempt
from trajectories.models import Blob, Event, VendorRequest

# Bumped when the serialisation changes, so ETags derived from stored hashes
# stop matching bytes an older version produced.
FORMAT_VERSION = "2"


def _one(value: Any) -> Iterator[bytes]:
    yield dumps(value)


def summary_of(attempt: Attempt) -> dict[str, Any]:
    """summary.json as imported (a released attempt always has one)."""
    return v1.summary_again(attempt.summary_document())


def summary_chunks(attempt: Attempt) -> Iterator[bytes] | None:
    return _one(summary_of(attempt))


def verdict_chunks(attempt: Attempt) -> Iterator[bytes] | None:
    if attempt.verdict is None:
        return None
    results = list(attempt.check_results.order_by("position"))
    return _one(attempt.verdict_document(check_results=results))


def _open_object(head: dict[str, Any], key: str) -> bytes:
    """``head`` as a JSON object left open at ``"key": [`` (key order is free)."""
    body = dumps(head)
    prefix = body[:-1] + (b", " if head else b"")
    return prefix + dumps(key) + b": ["


def _event_chunks(attempt: Attempt) -> Iterator[bytes]:
    size = settings.BENCHVIEW_LIMITS["mirror_stream_chunk_events"]
    events = (
        Event.objects.filter(attempt=attempt)
        .only("doc", "text", "output")
        .order_by("index")
        .iterator(chunk_size=size)
    )
    buffer: list[bytes] = []
    first = True
    for event in events:
        piece = dumps(event.as_document())
        buffer.append(piece if first else b", " + piece)
        first = False
        if len(buffer) >= size:
            yield b"".join(buffer)
            buffer.clear()
    if buffer:
        yield b"".join(buffer)


def trajectory_chunks(attempt: Attempt) -> Iterator[bytes] | None:
    if attempt.evidence.events_from:
        # The release had no trajectory.json: its events were normalised from
        # transcript.jsonl, which is served, and re-imports to the same events.
        return None

    def chunks() -> Iterator[bytes]:
        # The format puts the events last (formats.v1.attempt_files).
        head = v1.trajectory_head_again(attempt.evidence.trajectory_document())
        yield _open_object(head, "events")
        yield from _event_chunks(attempt)
        yield b"]}"

    return chunks()


def vendor_requests_document(attempt: Attempt) -> dict[str, Any] | None:
    head = attempt.evidence.vendor_log_document()
    if head is None:
        return None
    entries: dict[str, list[Any]] = {vendor: [] for vendor in attempt.evidence.vendor_order}
    rows = (
        VendorRequest.objects.filter(attempt=attempt)
        .order_by("vendor", "position")
        .values_list("vendor", "doc")
    )
    for vendor, doc in rows:
        entries.setdefault(vendor, []).append(jsonsafe.unpack(doc))
    return v1.vendor_requests_again(head, entries)


def vendor_requests_chunks(attempt: Attempt) -> Iterator[bytes] | None:
    doc = vendor_requests_document(attempt)
    return None if doc is None else _one(doc)


def blob_chunks(blob: Blob) -> Iterator[bytes]:
    """A blob's bytes; large ones are read from storage a piece at a time."""
    if blob.data is not None:
        yield bytes(blob.data)
        return
    size = settings.BENCHVIEW_LIMITS["mirror_stream_chunk_bytes"]
    with default_storage.open(blob.storage_name, "rb") as handle:
        while piece := handle.read(size):
            yield piece


def _blob_file(field: str) -> Callable[[Attempt], Iterator[bytes] | None]:
    def build(attempt: Attempt) -> Iterator[bytes] | None:
        blob_id = getattr(attempt.evidence, f"{field}_id")
        if blob_id is None:
            return None
        return blob_chunks(Blob.objects.get(pk=blob_id))

    return build


@dataclass(frozen=True)
class AttemptFile:
    content_type: str
    build: Callable[[Attempt], Iterator[bytes] | None]
    # The Evidence blob this file is, if it is served byte for byte.
    blob_field: str | None = None
    # Whether a release must have it in every attempt folder.
    required: bool = False


_BUILDERS: dict[str, Callable[[Attempt], Iterator[bytes] | None]] = {
    "summary.json": summary_chunks,
    "verdict.json": verdict_chunks,
    "trajectory.json": trajectory_chunks,
    "vendor-requests.json": vendor_requests_chunks,
}

# The files of an attempt folder (formats.v1.files, in the format's order),
# each with how it is built again from the database.
ATTEMPT_FILES: dict[str, AttemptFile] = {
    name: AttemptFile(
        kind.content_type,
        _BUILDERS[name] if kind.blob_field is None else _blob_file(kind.blob_field),
        kind.blob_field,
        kind.required,
    )
    for name, kind in V1_ATTEMPT_FILES.items()
}


def file_present(attempt: Attempt, filename: str) -> bool:
    """Whether the release had ``filename`` for this attempt (no query beyond evidence)."""
    if filename == "verdict.json":
        return attempt.verdict is not None
    if filename == "vendor-requests.json":
        return attempt.evidence.vendor_log is not None
    if filename == "trajectory.json":
        return not attempt.evidence.events_from
    spec = ATTEMPT_FILES[filename]
    if spec.blob_field is not None:
        return getattr(attempt.evidence, f"{spec.blob_field}_id") is not None
    return True
