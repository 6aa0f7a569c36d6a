"""The admin's preview: check a release without writing it, through the recorded import.

Applying a previewed release is a background job (ingest.running.jobs); both go
through ``ingest.running.imports.run_import``, as the command line does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from formats.sources.harbor.naming import models_file
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE
from ingest.models import ImportRecord
from ingest.reading.preview import plan_preview
from ingest.running.imports import Action, Outcome, run_import


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
) -> Preview:
    """Read and check the release at ``path`` without writing any of it.

    ``path`` may hold Harbor jobs instead (told by content), imported into
    ``bench``, scrubbed unless ``harbor_scrub`` is False, their models named by
    ``harbor_models`` (a models file's entries). Only its import record (action
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
    )
    if done.plan is None:  # unreadable (or an unexpected error): the record says why
        return Preview(record=done.record, document=None)
    return Preview(record=done.record, document=plan_preview(done.plan))
