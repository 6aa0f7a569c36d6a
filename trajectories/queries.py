"""Reads for the attempt and compare pages: a fixed, small number of queries each.

Event rows of one attempt are ordered by ``index`` explicitly: that is their
order, and the unique (attempt, index) index reads them in it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from django.conf import settings
from django.db.models import QuerySet
from django.db.models.functions import Length, Substr
from django.http import Http404

from leaderboard.models import Attempt, CheckResult, Model, Task
from trajectories.models import Blob, Event, VendorRequest

EVENT_PAGE_FIELDS = ("index", "type", "ts", "tool", "ok", "exit_code", "doc", "lines")


# What the attempt page's header shows beside the attempt itself.
PAGE_RELATIONS = (
    "bench",
    "model",
    "task",
    "task__batch",
    "evidence",
    "evidence__patch",
    "transcript_check",
)
# What a trajectory slice needs: the names for its page and the event count.
# Fewer joins matter there: on PostgreSQL, planning the page's nine-table join
# took longer than running it, and a long trajectory is read slice by slice.
SLICE_RELATIONS = ("bench", "model", "task", "evidence")


def _attempts(
    user, *, every_trial: bool = False, relations: tuple[str, ...] = PAGE_RELATIONS
) -> QuerySet[Attempt]:
    rows = Attempt.all_trials if every_trial else Attempt.objects
    return rows.visible_to(user).select_related(*relations)


def attempt_for_page(
    user,
    *,
    bench: str,
    model: str,
    task: str,
    trial: int = 0,
    relations: tuple[str, ...] = PAGE_RELATIONS,
) -> Attempt:
    """The released attempt this user may see, with ``relations`` read alongside (by
    default everything its page's header needs); else 404.

    ``trial`` n > 0 is the attempt's further trial n (docs/harbor.md)."""
    found = (
        _attempts(user, every_trial=bool(trial), relations=relations)
        .filter(bench__slug=bench, model__slug=model, task__slug=task, trial=trial)
        .first()
    )
    if found is None:
        raise Http404("No such attempt, or its task is not published.")
    return found


def trial_number(trial: int | None) -> int:
    """A page's trial from its address: none is trial 0 (the attempt's own address);
    ``trials/0/`` is no address (trial 0 has only the one), so it is a 404."""
    if trial is None:
        return 0
    if trial < 1:
        raise Http404("Trials are numbered from 1; trial 0 is the attempt's own page.")
    return trial


def task_for_page(user, *, bench: str, task: str) -> Task:
    found = (
        Task.objects.visible_to(user)
        .select_related("bench", "batch")
        .filter(bench__slug=bench, slug=task)
        .first()
    )
    if found is None:
        raise Http404("No such task, or it is not published.")
    return found


def attempt_pair(user, *, task: Task, model_a: str, model_b: str) -> tuple[Attempt, Attempt]:
    """The two released attempts on ``task`` (one query); 404 when either is missing."""
    found = {
        a.model.slug: a
        for a in _attempts(user).filter(task=task, model__slug__in=[model_a, model_b])
    }
    if model_a not in found or model_b not in found:
        raise Http404("One of the two models has no released attempt on this task.")
    return found[model_a], found[model_b]


def other_models(task: Task) -> list[Model]:
    """Models with a released attempt on ``task``, in leaderboard order (to compare with)."""
    return list(
        # The join sees every row: trial 0 only, or a model with further trials repeats.
        Model.objects.filter(attempts__task=task, attempts__has_detail=True, attempts__trial=0)
        .ranked()
        .only("slug", "display_name", "harness")
    )


def page_events(attempt: Attempt, start: int = 0, stop: int | None = None) -> Iterator[dict]:
    """Every event of the attempt in one query, streamed, with only a preview of the long text.

    The database cuts ``text`` and ``output`` (one character past the preview, so
    the page knows whether it was cut) and reports their full lengths.
    """
    limit = settings.BENCHVIEW_LIMITS["event_preview_chars"]
    # A slice is an index range (the unique (attempt, index) index serves it),
    # never an OFFSET, which would read every row before it.
    rows = Event.objects.filter(attempt=attempt, index__gte=start)
    if stop is not None:
        rows = rows.filter(index__lt=stop)
    return (
        rows.order_by("index")
        .values(
            *EVENT_PAGE_FIELDS,
            text_preview=Substr("text", 1, limit + 1),
            output_preview=Substr("output", 1, limit + 1),
            text_length=Length("text"),
            output_length=Length("output"),
        )
        .iterator(chunk_size=settings.BENCHVIEW_LIMITS["event_query_chunk_rows"])
    )


def first_event_time(attempt: Attempt) -> str | None:
    """The time of the attempt's first timed event: elapsed times count from it."""
    return (
        Event.objects.filter(attempt=attempt)
        .exclude(ts="")
        .order_by("index")
        .values_list("ts", flat=True)
        .first()
    )


def event_full(attempt: Attempt, index: int) -> Event:
    found = Event.objects.filter(attempt=attempt, index=index).first()
    if found is None:
        raise Http404("No such event.")
    return found


def transcript_blob(attempt: Attempt) -> Blob:
    """The attempt's transcript.jsonl (its bytes, if kept in the database), one query."""
    return Blob.objects.get(pk=attempt.evidence.transcript_id)


def event_of_line(attempt: Attempt) -> dict[int, int]:
    """Transcript line number -> the first event that came from it; one query."""
    found: dict[int, int] = {}
    rows = (
        Event.objects.filter(attempt=attempt, lines__isnull=False)
        .order_by("index")
        .values_list("index", "lines")
    )
    for index, lines in rows:
        for line in lines:
            found.setdefault(line, index)
    return found


def vendor_requests(attempt: Attempt) -> list[VendorRequest]:
    """The attempt's vendor log entries (bodies included), one query."""
    return list(VendorRequest.objects.filter(attempt=attempt).order_by("vendor", "ts", "position"))


def endpoint_counts(attempts: list[Attempt]) -> dict[int, Counter]:
    """Per attempt: how often each (vendor, direction, method, path) was called; one query."""
    counts: dict[int, Counter] = {a.pk: Counter() for a in attempts}
    rows = VendorRequest.objects.filter(attempt__in=attempts).values_list(
        "attempt_id", "vendor", "direction", "method", "path"
    )
    for attempt_id, vendor, direction, method, path in rows:
        counts[attempt_id][(vendor, direction, method, path)] += 1
    return counts


def tool_calls(attempts: list[Attempt]) -> dict[int, list[dict]]:
    """Per attempt: its tool calls in order (index, tool, ok, input), one query.

    The session's ``system`` events come along (their ``cwd`` makes paths comparable).
    """
    calls: dict[int, list[dict]] = {a.pk: [] for a in attempts}
    rows = (
        Event.objects.filter(attempt__in=attempts, type__in=["tool_call", "system"])
        .order_by("attempt_id", "index")
        .values("attempt_id", "index", "type", "tool", "ok", "exit_code", "doc")
    )
    for row in rows:
        calls[row["attempt_id"]].append(row)
    return calls


def check_results(attempts: list[Attempt]) -> dict[int, list]:
    """Per attempt: its verdict's check results in verdict order, one query."""
    found: dict[int, list] = {a.pk: [] for a in attempts}
    rows = CheckResult.objects.filter(attempt__in=attempts).order_by("attempt_id", "position")
    for result in rows:
        found[result.attempt_id].append(result)
    return found
