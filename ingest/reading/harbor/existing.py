"""The bench's models that an import of Harbor jobs keeps, read back as release files.

ibench publishes one job per model, so importing a job into an existing bench
adds or replaces the models the job holds and keeps the others: their
models, tasks, summaries and verdicts are read from the rows, and their
attempt folders rebuilt from the database with the mirror's own builders
(``trajectories.documents``), which give back what was imported.
"""

from __future__ import annotations

from collections.abc import Iterator

from core import jsonsafe
from formats.sources import ModelEntry, TaskEntry
from formats.sources.harbor.attempts import RULE, AttemptFiles, rescore
from formats.v1.attempt_files import folder_files
from formats.v1.harbor_result import HARBOR_RESULT
from leaderboard.extras import item_key
from leaderboard.facts import declared
from leaderboard.models import Attempt, Bench
from trajectories.documents import ATTEMPT_FILES, dumps, summary_of


class NotHarborBench(ValueError):
    pass


def kept_models(
    bench: Bench, replaced: set[str], exceptions_rule: str
) -> tuple[list[ModelEntry], list[TaskEntry], Iterator[AttemptFiles]]:
    """Models of ``bench`` not in ``replaced``, their tasks, and their attempt
    folders one at a time, scored under ``exceptions_rule`` (built again by
    ``kept_files`` when imported)."""
    if bench.scoring_rule != RULE:
        raise NotHarborBench(
            f"bench {bench.slug!r} was not imported from Harbor jobs (its scoring rule is "
            f"{bench.scoring_rule!r}): use --replace to make these jobs the whole bench"
        )
    rows = (bench.extras.get("leaderboard.json") or {}).get("rows", {}).get("__items__", {})
    models = [
        # The facts its --models entry gave (leaderboard.facts) stay with it, and
        # what its jobs' result.json said when it was imported, compared again.
        ModelEntry(
            m.slug,
            m.display_name,
            m.harness,
            m.provider,
            declared(m.extras),
            published=jsonsafe.unpack(rows.get(item_key(m.slug), {}).get("__extra__", {})).get(
                HARBOR_RESULT
            ),
            # A kept model keeps what the source published of it (docs/statistics.md).
            published_score=m.published_score if m.published_only else None,
            published_only=m.published_only,
        )
        for m in bench.models.order_by("slug")
        if m.slug not in replaced
    ]
    keep = {m.id for m in models}
    tasks = [
        TaskEntry(t.slug, t.title, t.surface, t.ticket, extra={"harbor_task_name": t.title})
        for t in bench.tasks.filter(attempts__model__slug__in=keep, attempts__has_detail=True)
        .distinct()
        .order_by("slug")
    ]
    kept = _rows(bench).filter(model__slug__in=keep).iterator(chunk_size=200)
    return models, tasks, (_attempt(row, exceptions_rule) for row in kept)


def _rows(bench: Bench):
    return (
        Attempt.all_trials.filter(bench=bench, has_detail=True)
        .select_related("model", "task", "evidence")
        .order_by("model__slug", "task__slug", "trial")
    )


def _attempt(attempt: Attempt, exceptions_rule: str) -> AttemptFiles:
    # The summary and the verdict (which the documents and the rescoring need)
    # are read from the rows, not parsed back out of the files; the files are
    # built (summary.json and verdict.json from those same values, with the
    # mirror's serialiser) for the folder's digests and for kept_files.
    summary = summary_of(attempt)
    verdict = None
    if attempt.verdict is not None:
        results = list(attempt.check_results.order_by("position"))
        verdict = attempt.verdict_document(check_results=results)
    files = folder_files(dumps, summary=summary, verdict=verdict)
    for filename, spec in ATTEMPT_FILES.items():
        if filename in files:
            continue
        chunks = spec.build(attempt)
        if chunks is not None:
            files[filename] = b"".join(chunks)
    built = AttemptFiles(
        model=attempt.model.slug,
        task=attempt.task.slug,
        files=files,
        summary=summary,
        verdict=verdict,
        score=attempt.score,
        ticket=files.get("problem.md", b"").decode("utf-8", errors="replace"),
        trial=attempt.trial,
    )
    rescore(built, exceptions_rule)
    return built


def kept_files(
    bench: Bench, model: str, task: str, trial: int, exceptions_rule: str
) -> dict[str, bytes]:
    """The files of one kept attempt folder, built again from its rows."""
    row = _rows(bench).get(model__slug=model, task__slug=task, trial=trial)
    return _attempt(row, exceptions_rule).files
