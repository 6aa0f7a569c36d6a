"""Check a release in one pass: its documents first, then its attempts one at a time.

``check_release`` validates everything but the attempt folders and compares it
with the database; its ``attempts()`` generator then checks the attempt
folders in turn and yields each valid one, so that an import can write it
before the next is read. ``build_plan`` runs both and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from formats.reader import ReleaseSource
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reading.plan.attempts import check_attempt
from ingest.reading.plan.checker import Checker
from ingest.reading.plan.diff import (
    compare_with_database,
    existing_attempt_hashes,
    known_attempts,
    pending_slug,
    rules_change,
)
from ingest.reading.plan.release import (
    attempt_folders,
    check_derived,
    check_manifest,
    check_published_only,
    read_model_files,
    read_task_files,
    read_top_documents,
)
from ingest.reading.plan.types import CheckedAttempt, Folder, ImportPlan


@dataclass
class ReleaseCheck:
    """A release whose documents are checked; its attempt folders are checked by ``attempts()``."""

    plan: ImportPlan
    check: Checker
    folders: list[Folder] = field(default_factory=list)
    existing: dict[Folder, str] = field(default_factory=dict)
    known: dict[Folder, dict] = field(default_factory=dict)
    progress: ProgressCallback | None = None

    def attempts(self, *, writing: bool = False) -> Iterator[CheckedAttempt]:
        """Check every attempt folder, yielding each valid one while the release has no problem.

        Once a problem is found nothing more is yielded (the caller rolls back
        what it wrote); the checking goes on, to report every problem. An
        attempt folder is read only when its turn comes and nothing here keeps
        its documents, so memory does not grow with the release. An unchanged
        attempt comes without its documents (see check_attempt). ``writing``
        (the caller writes what it is given) names the phase the progress reports.
        """
        plan, progress, total = self.plan, self.progress, len(self.folders)
        events = 0
        for number, (model_id, task_id, trial) in enumerate(self.folders, start=1):
            checked = check_attempt(
                self.check, plan.manifest, model_id, task_id, self.existing, trial, self.known
            )
            if checked is not None:
                attempt = checked.attempt
                plan.attempts.append(attempt)
                plan.attempt_changes.add(attempt.status, attempt.label)
                events += attempt.events
                if plan.ok:
                    yield checked
            if progress:
                # Once a problem stops the writing, what is left is only checked.
                phase = Phase.WRITING if writing and plan.ok else Phase.CHECKING
                progress(Progress(phase, number, total, events))
        if writing and plan.ok and progress:
            progress(Progress(Phase.RECOMPUTING, total, total, events))


def check_release(
    source: ReleaseSource,
    *,
    progress: ProgressCallback | None = None,
    scrub: bool = False,
    resume: bool = False,
) -> ReleaseCheck:
    """Validate the documents of ``source`` but the attempts', and compare them with the database.

    Every problem goes on the plan with its file and JSON path. What the
    exporter should have scrubbed is a problem, or with ``scrub`` is rewritten
    (see formats.scrub). Nothing is written. The plan compares the release with
    the bench as shown; with ``resume`` (a chunked import, which writes every
    attempt into a pending bench), the attempts known, which come without
    their documents, are those its pending bench already holds instead.
    """
    plan = ImportPlan(source_name=source.name, source_sha256=source.sha256, scrub=scrub)
    # What an adapter (Harbor jobs) scrubbed in its own input, each rewrite once.
    plan.scrubbed.extend(getattr(source, "scrubbed", ()))
    check = Checker(source, plan)
    release = ReleaseCheck(plan=plan, check=check, progress=progress)
    if progress:
        progress(Progress(Phase.READING))
    read_top_documents(check)
    manifest = plan.manifest
    if manifest is None:
        return release
    check_manifest(check, manifest)
    check_derived(check, plan)
    released = set(plan.released_tasks)
    read_model_files(check, manifest)
    read_task_files(check, manifest, released)
    release.folders = attempt_folders(check, manifest, released)
    check_published_only(check, plan, {model for model, _, _ in release.folders})
    release.existing = existing_attempt_hashes(manifest.bench)
    if rules_change(manifest.bench, manifest.scoring_rule, plan.exceptions_rule):
        # Same files, other rules: every attempt is written again, rescored.
        release.existing = dict.fromkeys(release.existing, "")
    into = pending_slug(manifest.bench) if resume else manifest.bench
    rules = (manifest.scoring_rule, plan.exceptions_rule)
    release.known = known_attempts(into, *rules) if into else {}
    compare_with_database(plan, release.existing, release.folders)
    return release


def build_plan(
    source: ReleaseSource,
    *,
    progress: ProgressCallback | None = None,
    scrub: bool = False,
) -> ImportPlan:
    """Validate every document of ``source`` and compare it with the database; writes nothing."""
    release = check_release(source, progress=progress, scrub=scrub)
    for _ in release.attempts():
        pass
    return release.plan
