"""One builder per JSON file of an attempt folder of release format v1
(docs/release-format.md): ``summary.json``, ``verdict.json``,
``trajectory.json`` and ``vendor-requests.json``, and ``folder_files``, which
names and serialises an attempt folder's files.

Every writer of attempt files builds them here (the adapters of
``formats/sources/``, the sample generator, the database export and mirror),
so they cannot drift apart; ``tests/formats/test_attempt_file_writers.py``
finds any that writes one by hand.

The format's fields are keyword arguments and come first, in the format's
order; ``extra`` holds what a writer adds beyond v1 (a source's own block, a
verdict's reward) and follows them. A trajectory's events are its last field
whatever else it holds, so a long one can be written a piece at a time. An
optional field given as None is left out: the format lets it be absent, and
so every writer spells an unknown figure alike. Nested objects are built by
their own builders (``summary_cost``, ``verdict_check``, ...) or passed as
they were read.

``*_again`` take a document as read (checked by ``formats.v1.schema``) and
give it back through the same builder, its fields beyond v1 and its nested
nulls untouched: the export and the mirror serve what was imported, equal as
JSON (the format leaves key order free).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from formats.v1 import SCHEMA

Doc = dict[str, Any]


def sha256_ref(data: bytes) -> str:
    """A hash as ``summary.json``'s ``hashes`` spell it: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _given(**fields: Any) -> Doc:
    """The optional fields that have a value (the others are absent)."""
    return {key: value for key, value in fields.items() if value is not None}


def _then(doc: Doc, extra: Mapping[str, Any] | None) -> Doc:
    """``doc``, then the fields of ``extra`` it lacks: the format's fields win."""
    for key, value in (extra or {}).items():
        doc.setdefault(key, value)
    return doc


def _beyond(doc: Mapping[str, Any], fields: Iterable[str]) -> Doc:
    """The fields of a read document that are not the format's, in their order."""
    known = {"schema", *fields}
    return {key: value for key, value in doc.items() if key not in known}


# --- summary.json -----------------------------------------------------------


def summary_checks(*, total: int, passed: int, mandatory_failed: int = 0) -> Doc:
    """The verdict's checks, counted (``failed`` is the rest of ``total``)."""
    return {
        "total": total,
        "passed": passed,
        "failed": total - passed,
        "mandatory_failed": mandatory_failed,
    }


def summary_cost(
    *,
    usd: float | None,
    input_tokens: int,
    output_tokens: int,
    cache_read_tokens: int | None = None,
    cache_write_tokens: int | None = None,
) -> Doc:
    """``usd`` None is written as null (the harness reported no cost: the site
    shows "unknown"); cache counts None are left out."""
    return {
        "usd": usd,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        **_given(cache_read_tokens=cache_read_tokens, cache_write_tokens=cache_write_tokens),
    }


def summary_timing(*, started_at: str, finished_at: str, duration_s: float) -> Doc:
    return {"started_at": started_at, "finished_at": finished_at, "duration_s": duration_s}


def summary_hashes(*, task_tree: str = "", harness_tree: str = "", patch: str | None = None) -> Doc:
    """The tree hashes are required: "" where the source gives none."""
    return {"task_tree": task_tree, "harness_tree": harness_tree, **_given(patch=patch)}


def summary_provenance(
    *,
    harness_version: str | None = None,
    model_version: str | None = None,
    run_id: str | None = None,
    exporter: str | None = None,
) -> Doc:
    """Every field is optional: those the source does not give are left out."""
    return _given(
        harness_version=harness_version,
        model_version=model_version,
        run_id=run_id,
        exporter=exporter,
    )


SUMMARY_FIELDS = (
    "bench",
    "model",
    "task",
    "harness",
    "score",
    "scoring_rule",
    "checks",
    "flags",
    "cost",
    "timing",
    "hashes",
    "provenance",
)


def summary_document(
    *,
    bench: str,
    model: str,
    task: str,
    harness: str,
    score: float,
    scoring_rule: str,
    checks: Mapping[str, Any],
    flags: Sequence[str],
    cost: Mapping[str, Any],
    timing: Mapping[str, Any],
    hashes: Mapping[str, Any],
    provenance: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """``checks``, ``cost``, ``timing``, ``hashes`` and ``provenance`` as
    ``summary_checks`` ... ``summary_provenance`` give them (or as read)."""
    return _then(
        {
            "schema": SCHEMA,
            "bench": bench,
            "model": model,
            "task": task,
            "harness": harness,
            "score": score,
            "scoring_rule": scoring_rule,
            "checks": dict(checks),
            "flags": list(flags),
            "cost": dict(cost),
            "timing": dict(timing),
            "hashes": dict(hashes),
            "provenance": dict(provenance),
        },
        extra,
    )


def summary_again(doc: Mapping[str, Any]) -> Doc:
    return summary_document(
        **{field: doc[field] for field in SUMMARY_FIELDS}, extra=_beyond(doc, SUMMARY_FIELDS)
    )


# --- verdict.json -----------------------------------------------------------


def verdict_grader(name: str, version: str) -> Doc:
    return {"name": name, "version": version}


def verdict_check(
    *,
    name: str,
    level: str,
    mandatory: bool,
    passed: bool,
    detail: str | None = None,
    requests: Sequence[str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """One check; ``requests`` name entries of vendor-requests.json as
    ``<vendor>:<id>``. ``detail`` and ``requests`` None are left out."""
    return _then(
        {
            "name": name,
            "level": level,
            "mandatory": mandatory,
            "passed": passed,
            **_given(detail=detail, requests=None if requests is None else list(requests)),
        },
        extra,
    )


VERDICT_FIELDS = ("model", "task", "grader", "checks")


def verdict_document(
    *,
    model: str,
    task: str,
    grader: Mapping[str, Any],
    checks: Sequence[Mapping[str, Any]],
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """``grader`` as ``verdict_grader`` gives it, ``checks`` as ``verdict_check``."""
    return _then(
        {
            "schema": SCHEMA,
            "model": model,
            "task": task,
            "grader": dict(grader),
            "checks": list(checks),
        },
        extra,
    )


def verdict_again(doc: Mapping[str, Any], checks: Sequence[Mapping[str, Any]] | None = None) -> Doc:
    """``doc`` as read; ``checks`` given apart where they were kept apart (the
    database keeps them as rows), else the document's own."""
    return verdict_document(
        model=doc["model"],
        task=doc["task"],
        grader=doc["grader"],
        checks=doc["checks"] if checks is None else checks,
        extra=_beyond(doc, VERDICT_FIELDS),
    )


# --- trajectory.json --------------------------------------------------------

TRAJECTORY_FIELDS = ("harness", "model", "events")


def trajectory_head(*, harness: str, model: str, extra: Mapping[str, Any] | None = None) -> Doc:
    """trajectory.json without its events, which follow as its last field."""
    return _then({"schema": SCHEMA, "harness": harness, "model": model}, extra)


def trajectory_document(
    *,
    harness: str,
    model: str,
    events: Iterable[Mapping[str, Any]],
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """``events`` as the normalisers (``formats.normalise``) give them."""
    head = trajectory_head(harness=harness, model=model, extra=_beyond(extra or {}, ["events"]))
    return {**head, "events": list(events)}


def trajectory_head_again(doc: Mapping[str, Any]) -> Doc:
    """The head of a trajectory as read (with its events or without them)."""
    return trajectory_head(
        harness=doc["harness"], model=doc["model"], extra=_beyond(doc, TRAJECTORY_FIELDS)
    )


# --- vendor-requests.json ---------------------------------------------------


def vendor_entry(
    *,
    id: str,  # the format's field name, though a builtin's too
    ts: str,
    direction: str,
    method: str,
    path: str,
    body: Any,
    status: int,
    response: Any,
    event: str | None = None,
    query: Mapping[str, Any] | None = None,
    headers: Mapping[str, Any] | None = None,
    duration_ms: float | None = None,
    attempt: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """One request the agent's code sent (``direction`` "inbound") or one
    webhook the simulator delivered ("webhook", with its ``event`` and
    delivery ``attempt``). ``body`` and ``response`` are JSON values or
    strings; the optional fields None are left out."""
    return _then(
        {
            "id": id,
            "ts": ts,
            "direction": direction,
            **_given(event=event),
            "method": method,
            "path": path,
            **_given(
                query=None if query is None else dict(query),
                headers=None if headers is None else dict(headers),
            ),
            "body": body,
            "status": status,
            "response": response,
            **_given(duration_ms=duration_ms, attempt=attempt),
        },
        extra,
    )


def vendor_requests_document(
    *,
    vendors: Mapping[str, Sequence[Mapping[str, Any]]],
    extra: Mapping[str, Any] | None = None,
) -> Doc:
    """Each vendor's log, its entries as ``vendor_entry`` gives them, in time order."""
    return _then(
        {"schema": SCHEMA, "vendors": {vendor: list(log) for vendor, log in vendors.items()}},
        extra,
    )


def vendor_requests_again(
    doc: Mapping[str, Any], vendors: Mapping[str, Sequence[Mapping[str, Any]]] | None = None
) -> Doc:
    """``doc`` as read; ``vendors`` given apart where they were kept apart."""
    return vendor_requests_document(
        vendors=doc["vendors"] if vendors is None else vendors,
        extra=_beyond(doc, ["vendors"]),
    )


# --- the folder -------------------------------------------------------------

# folder_files' arguments and the files they are, in the format's order
# (formats.v1.files.ATTEMPT_FILES).
FOLDER_FILES = {
    "summary": "summary.json",
    "verdict": "verdict.json",
    "trajectory": "trajectory.json",
    "vendor_requests": "vendor-requests.json",
    "patch": "patch.diff",
    "transcript": "transcript.jsonl",
    "problem": "problem.md",
}


def folder_files(
    dump: Callable[[Any], bytes],
    *,
    summary: Mapping[str, Any] | None = None,
    verdict: Mapping[str, Any] | None = None,
    trajectory: Mapping[str, Any] | None = None,
    vendor_requests: Mapping[str, Any] | None = None,
    patch: bytes | str | None = None,
    transcript: bytes | str | None = None,
    problem: bytes | str | None = None,
) -> dict[str, bytes]:
    """An attempt folder's files by name, in the format's order: the documents
    (as the builders above give them) serialised by ``dump``, the texts as
    UTF-8 (``transcript`` and ``patch`` are best given as the source's own
    bytes). What is None is absent; a folder needs ``summary``,
    ``transcript`` and ``problem``, which a partial update may leave out."""
    given: dict[str, Any] = {
        "summary": summary,
        "verdict": verdict,
        "trajectory": trajectory,
        "vendor_requests": vendor_requests,
        "patch": patch,
        "transcript": transcript,
        "problem": problem,
    }
    files: dict[str, bytes] = {}
    for part, name in FOLDER_FILES.items():
        value = given[part]
        if value is None:
            continue
        if isinstance(value, bytes):
            files[name] = value
        elif isinstance(value, str):
            files[name] = value.encode("utf-8")
        else:
            files[name] = dump(value)
    return files
