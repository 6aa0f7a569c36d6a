"""Import a release: check it and write it in one transaction, all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction

from core import jsonsafe
from formats.reader import ReleaseSource
from formats.scrub import Scrubber
from ingest.progress import ProgressCallback
from ingest.reading.extras import collect_extras
from ingest.reading.plan import (
    CheckedAttempt,
    ImportPlan,
    check_release,
    model_signature,
    task_signature,
)
from ingest.writing.attempt_batch import AttemptBatch
from ingest.writing.attempt_rows import attempt_rows
from ingest.writing.background_write import BackgroundWrites, background_writes
from ingest.writing.db_statistics import statistics_refresh
from leaderboard.models import Attempt, Batch, Bench, BenchRevision, Check, Model, Task
from leaderboard.revisions import revision_record
from leaderboard.services import bench_recompute, generation_raise
from trajectories.search.suggest import refresh_vocabulary
from trajectories.services import blob_files_sweep, blobs_collect


class ImportRefused(Exception):
    """Nothing was written: the release has problems, or changed since its preview."""

    def __init__(self, message: str, plan: ImportPlan | None = None):
        super().__init__(message)
        self.plan = plan


@dataclass
class ImportResult:
    bench: Bench
    plan: ImportPlan
    written_attempts: int
    # Patches, transcripts and tickets no attempt refers to any more.
    blobs_removed: int = 0
    # A chunked import (ingest.writing.chunked): the chunks it committed, and
    # the attempts an interrupted import of the same bench had written already.
    chunks: int = 0
    kept: int = 0


def write_release(
    *,
    source: ReleaseSource,
    staged: bool = False,
    expected_sha256: str | None = None,
    scrub: bool = False,
    progress: ProgressCallback | None = None,
    by: str = "",
    before_commit: Callable[[ImportResult], object] | None = None,
) -> ImportResult:
    """Check ``source`` and write it, in one pass and one transaction.

    Any problem rolls everything back and raises ImportRefused carrying the
    plan (with every problem found). ``expected_sha256``, from a preview,
    refuses a release that changed since. New batches go live unless
    ``staged``; known batches keep their state. Unchanged attempts are not
    touched, so importing the same release twice changes nothing. With
    ``scrub``, what the exporter should have scrubbed is rewritten instead of
    refused. ``before_commit`` is called with the result inside the
    transaction, last: what it writes (the import record, the job's outcome)
    commits with the import or not at all, so a process killed just after the
    commit cannot leave a live import that nothing records. An import that
    changes the anonymous board records a revision of the bench
    (``leaderboard.revisions``) in the same transaction, by ``by``.
    """
    if expected_sha256 is not None and source.sha256 != expected_sha256:
        raise ImportRefused("the release changed since it was previewed; preview it again")
    # Large blobs are files written during the transaction: remove those a
    # killed import left, and those of this one if it does not commit.
    blob_files_sweep()
    try:
        with transaction.atomic(), background_writes() as background:
            writer = _Writer(staged=staged, background=background, by=by)
            release = check_release(source, progress=progress, scrub=scrub)
            plan = release.plan
            # Written as they are checked, a batch at a time (ingest.writing.attempt_batch);
            # the first problem stops the writing and, below, rolls back what was written.
            writing = plan.ok
            if writing:
                writer.begin(plan, release.folders)
            for checked in release.attempts(writing=writing):
                writer.attempt(plan, checked)
            if not plan.ok:
                transaction.set_rollback(True)
                raise ImportRefused(f"{len(plan.problems)} problem(s)", plan)
            writer.finish(plan)
            result = ImportResult(
                bench=writer.bench,
                plan=plan,
                written_attempts=writer.written,
                blobs_removed=writer.blobs_removed,
            )
            if before_commit is not None:
                before_commit(result)
    except BaseException:
        blob_files_sweep()
        raise
    if not plan.is_noop:
        statistics_refresh()
    return result


class _Writer:
    """Writes a release while it is checked: its documents, each checked attempt, the scores.

    ``into`` a pending bench (ingest.writing.chunked), not the bench the plan
    was compared with: an attempt it already holds with the same files is kept
    (a resumed import), every other one is written.
    """

    def __init__(
        self,
        *,
        staged: bool,
        background: BackgroundWrites | None = None,
        by: str = "",
        into: Bench | None = None,
    ):
        self.by = by
        self.staged = staged
        self.into = into
        self.written = 0
        self.kept = 0  # attempts a pending bench already held
        self.blobs_removed = 0
        self.batch = AttemptBatch(background)

    def begin(self, plan: ImportPlan, folders: list[tuple[str, str, int]]) -> None:
        self.bench = _write_bench(plan, into=self.into)
        batches = _write_batches(plan, self.bench, self.staged)
        self.models = _write_models(plan, self.bench)
        self.tasks = _write_tasks(plan, self.bench, batches)
        self.cells = plan.matrix.cells
        self.existing = _existing_attempts(self.bench, self.models, self.tasks)
        keep = set(folders) | {(m, t, 0) for m, row in self.cells.items() for t in row}
        stale = [a.pk for key, a in self.existing.items() if key not in keep]
        if stale:
            Attempt.all_trials.filter(pk__in=stale).delete()
        self._write_unreleased_cells({(m, t) for m, t, n in folders if n == 0})

    def _write_unreleased_cells(self, folders: set[tuple[str, str]]) -> None:
        """Cells of attempts whose detail is not in the release: the published
        figure is the only score there is."""
        create = []
        for model_slug, row in self.cells.items():
            for task_slug, cell in row.items():
                key = (model_slug, task_slug)
                if key in folders:
                    continue
                values = {
                    "has_detail": False,
                    "score": cell.score,
                    "flags": list(cell.flags),
                    "matrix_score": cell.score,
                    "matrix_flags": list(cell.flags),
                }
                attempt = self.existing.get((*key, 0))
                if attempt is not None and attempt.has_detail:
                    # The release withdrew this attempt's detail: start it afresh.
                    Attempt.all_trials.filter(pk=attempt.pk).delete()
                    attempt = None
                if attempt is None:
                    create.append(
                        Attempt(
                            bench=self.bench,
                            model=self.models[model_slug],
                            task=self.tasks[task_slug],
                            **values,
                        )
                    )
                else:
                    _update_if_changed(attempt, values)
        Attempt.objects.bulk_create(create, batch_size=500)

    def attempt(self, plan: ImportPlan, checked: CheckedAttempt) -> None:
        planned, docs = checked.attempt, checked.docs
        cell = self.cells.get(planned.model, {}).get(planned.task) if not planned.trial else None
        matrix_values = {
            "matrix_score": cell.score if cell else None,
            "matrix_flags": list(cell.flags) if cell else None,
        }
        attempt = self.existing.get((planned.model, planned.task, planned.trial))
        if self.into is None:
            same = planned.status == "unchanged"
        else:
            same = attempt is not None and attempt.content_hash == planned.content_hash
        if same and attempt is not None and attempt.has_detail:
            _update_if_changed(attempt, matrix_values)
            self.kept += self.into is not None
            return
        if docs is None:
            raise RuntimeError(f"{planned.folder}: known unchanged, but not in the bench")
        rows = attempt_rows(
            bench=self.bench,
            model=self.models[planned.model],
            task=self.tasks[planned.task],
            planned=planned,
            docs=docs,
            scoring_rule=plan.scoring_rule,
            matrix_values=matrix_values,
            exceptions_rule=plan.exceptions_rule,
        )
        # Written with the next attempts (ingest.writing.attempt_batch), in place of the old row.
        self.batch.add(rows, replaces=attempt.pk if attempt is not None else None)
        self.written += 1

    def recompute(self, plan: ImportPlan) -> None:
        """Write what is queued, then the figures of every model and task."""
        self.batch.flush()
        published = {r.model: r.model_dump() for r in plan.leaderboard.rows}
        bench_recompute(bench=self.bench, published_rows=published)

    def finish(self, plan: ImportPlan) -> None:
        self.recompute(plan)
        revision_record(bench=self.bench, cause=BenchRevision.Cause.IMPORT, by=self.by)
        # Did you mean: the vocabulary now holds this import's words (and
        # no longer those of events it replaced).
        refresh_vocabulary()
        if not plan.is_noop:
            # Pages rendered before this import stop being served when it
            # commits; an import that changes nothing leaves even this row be.
            generation_raise()
        self.blobs_removed = blobs_collect()


class _Existing(NamedTuple):
    """What the import compares of an attempt row already in the bench."""

    pk: int
    has_detail: bool
    content_hash: str
    score: float
    flags: list[str]
    matrix_score: float | None
    matrix_flags: list[str] | None


def _existing_attempts(
    bench: Bench, models: dict[str, Model], tasks: dict[str, Task]
) -> dict[tuple[str, str, int], _Existing]:
    """The bench's attempt rows by (model, task, trial): further trials are rows of
    their own. A bench has a row per matrix cell (20,000 at the seed's scale), so
    each is a tuple of what is compared, not a model instance with its model and
    task (those took 37 MB)."""
    model_slugs = {m.pk: slug for slug, m in models.items()}
    task_slugs = {t.pk: slug for slug, t in tasks.items()}
    rows = Attempt.all_trials.filter(bench=bench).values_list(
        "model_id", "task_id", "trial", *_Existing._fields
    )
    # Models and tasks the release no longer names were deleted with their attempts.
    return {
        (model_slugs[model_id], task_slugs[task_id], trial): _Existing(*values)
        for model_id, task_id, trial, *values in rows
    }


def _update_if_changed(attempt: _Existing, values: dict) -> None:
    changed = {k: v for k, v in values.items() if getattr(attempt, k) != v}
    if changed:
        Attempt.all_trials.filter(pk=attempt.pk).update(**changed)


def _save_if_changed(obj, values: dict) -> None:
    changed = [k for k, v in values.items() if getattr(obj, k) != v]
    for k in changed:
        setattr(obj, k, values[k])
    if changed:
        obj.save(update_fields=changed)


def _write_bench(plan: ImportPlan, *, into: Bench | None = None) -> Bench:
    """The bench's row: ``into`` (a pending bench) or the bench of the manifest's id."""
    m = plan.manifest
    values = {
        "title": m.title,
        "revision": m.revision,
        "scoring_rule": m.scoring_rule,
        "exceptions_rule": m.exceptions_rule or "",
        "generated_at": m.generated_at,
        "extras": {
            "manifest.json": collect_extras(m),
            "leaderboard.json": collect_extras(plan.leaderboard),
            "matrix.json": collect_extras(plan.matrix),
        },
    }
    if into is not None:
        bench, created = into, False
    else:
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


def _ticket(plan: ImportPlan, doc) -> str:
    return Scrubber().rewrite_text(doc.ticket) if plan.scrub else doc.ticket


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
        ticket = _ticket(plan, doc) if doc else ""
        batch_number, batch_position = in_batch.get(slug, (None, None))
        values = {
            # Public: the matrix's title and surface. Detail: the task file's.
            "title": entry.title,
            "surface": entry.surface,
            "file_title": doc.task.title if doc else "",
            "file_surface": doc.task.surface if doc else "",
            "vendors": doc.task.vendors if doc else [],
            "position": position,
            "batch": batches[batch_number] if batch_number is not None else None,
            "batch_position": batch_position,
            "ticket": jsonsafe.text(ticket),
            "extras": {
                "tasks/": collect_extras(doc),
                "matrix.json": collect_extras(entry),
                # The column shows a NUL as U+FFFD; the file gives back the exact text.
                **({"ticket": jsonsafe.pack(ticket)} if jsonsafe.NUL in ticket else {}),
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
