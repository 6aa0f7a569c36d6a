"""The admin's preview: check a release without writing it, through the recorded import.

Applying a previewed release is a background job (ingest.running.jobs); both go
through ``ingest.running.imports.run_import``, as the command line does, or,
for an input of several benches, through ``ingest.running.several``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from formats.sources.harbor.naming import models_file
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.models import ImportRecord
from ingest.reading.preview import plan_preview
from ingest.running.imports import Action, Outcome, run_import
from ingest.running.several import recorded_several


@dataclass
class Preview:
    record: ImportRecord
    document: dict | None  # None when the release could not even be read

    @property
    def ok(self) -> bool:
        return self.record.outcome == Outcome.CHECKED


def preview_staged(
    *,
    path: Path,
    name: str,
    user,
    bench: str | None = None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    harbor_scrub: bool = True,
    harbor_models: list | None = None,
    adapter: str | None = None,
) -> Preview:
    """Read and check the release at ``path`` without writing any of it.

    ``path`` may hold Harbor jobs instead (told by content), imported into
    ``bench``, scrubbed unless ``harbor_scrub`` is False, their models named by
    ``harbor_models`` (a models file's entries). ``adapter`` names the format
    when the caller has detected it already. Only its import record (action
    "preview") is written, so the history shows bad uploads too.
    """
    done = run_import(
        path=path,
        name=name,
        via=ImportRecord.Via.ADMIN,
        action=Action.PREVIEW,
        user=user,
        holder="",
        bench=bench,
        exceptions_rule=exceptions_rule,
        harbor_scrub=harbor_scrub,
        harbor_models=models_file(harbor_models),
        adapter=adapter,
    )
    if done.plan is None:  # unreadable (or an unexpected error): the record says why
        return Preview(record=done.record, document=None)
    return Preview(record=done.record, document=plan_preview(done.plan))


@dataclass
class SeveralPreview:
    """The preview of an input of several benches: one document per bench, or
    ``error`` (the input cannot be read: its record's message and problems)."""

    records: list[ImportRecord]
    documents: list[dict]
    error: ImportRecord | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(r.outcome == Outcome.CHECKED for r in self.records)


def preview_several(*, adapter, path: Path, name: str, user, bench: str | None) -> SeveralPreview:
    """Check every bench of the input at ``path`` (its benches named ``bench``-…)
    without writing any; one import record (action "preview") per bench."""
    done = recorded_several(
        adapter=adapter,
        path=path,
        name=name,
        bench=bench,
        via=ImportRecord.Via.ADMIN,
        action=Action.PREVIEW,
        holder="",
        user=user,
    )
    if done.whole is not None:
        return SeveralPreview(records=[], documents=[], error=done.whole.record)
    return SeveralPreview(
        records=[part.record for part in done.parts],
        documents=[_document(b, part) for b, part in zip(done.benches, done.parts, strict=True)],
    )


def _document(bench: str, part) -> dict:
    """A bench's preview document; a bench whose release could not be built
    (its problems found before any check) shows its problems alone."""
    record = part.record
    if part.plan is not None:
        return {**plan_preview(part.plan), "bench": bench}
    problems = record.problems or [record.message]
    return {
        "bench": bench,
        "source_name": record.source_name,
        "source_sha256": record.source_sha256,
        "title": "",
        "summary": {},
        "problems": [{"file": "", "path": "", "message": p} for p in problems],
        "scrubbed": [],
        "score_changes": [],
    }
