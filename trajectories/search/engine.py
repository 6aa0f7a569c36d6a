"""Run a search: matching events grouped by attempt, facet counts, paging.

Every function answers in a fixed number of queries (the page's query-count
test holds it to that). Counts stop at ``search_count_cap``: past it the
total reads "10,000+" and the facets count the first matches only, so a
common word costs no more than a rare one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, QuerySet, Window
from django.db.models.functions import Lower, RowNumber
from django.http import Http404

from core import formatting
from formats.tools import tool_family, tool_spellings
from leaderboard.models import Attempt, Bench, CheckResult
from trajectories.models import Event
from trajectories.search import backends, snippets
from trajectories.search.bounded import SearchRefused, time_bound
from trajectories.search.query import BOOLEANS, Query
from trajectories.search.visibility import searchable_attempts


def _attempts(bench: Bench, user, query: Query) -> QuerySet[Attempt]:
    attempts = searchable_attempts(user, bench)
    f = query.filters
    if "model" in f:
        attempts = attempts.filter(model__slug__in=f["model"])
    if "harness" in f:
        attempts = attempts.filter(model__harness__in=f["harness"])
    if "task" in f:
        attempts = attempts.filter(task__slug__in=f["task"])
    if "surface" in f:
        attempts = attempts.filter(task__surface__in=f["surface"])
    if "check" in f:
        failed = CheckResult.objects.filter(
            attempt=OuterRef("pk"), name__in=f["check"], passed=False
        )
        attempts = attempts.filter(Exists(failed))
    return attempts


@dataclass(frozen=True)
class Scope:
    """The attempts a search looks into: ``attempts`` (unevaluated, for
    subqueries), and their (pk, model, model name, task, task title) for the
    facets' labels."""

    attempts: QuerySet[Attempt]
    rows: list[tuple[int, str, str, str, str]]


def scope(bench: Bench, user, query: Query) -> Scope:
    """One small query, first: facets then need no join per event. The event
    queries take the attempts as a subquery, not as this list: a literal list
    of thousands of ids costs each query tens of milliseconds to compile and
    plan."""
    attempts = _attempts(bench, user, query).order_by()
    rows = attempts.order_by("pk").values_list(
        "pk", "model__slug", "model__display_name", "task__slug", "task__title"
    )
    return Scope(attempts, list(rows))


def _matching(events: QuerySet[Event], query: Query) -> QuerySet[Event]:
    """``events`` narrowed to those the query's words and event fields match."""
    f = query.filters
    if "type" in f:
        events = events.filter(type__in=f["type"])
    if "tool" in f:
        spellings = sorted({s for name in f["tool"] for s in tool_spellings(name)})
        events = events.annotate(tool_folded=Lower("tool")).filter(tool_folded__in=spellings)
    if "ok" in f:
        events = events.filter(ok__in={BOOLEANS[v.lower()] for v in f["ok"]})
    if "exit" in f:
        events = events.filter(exit_code__in=[int(v) for v in f["exit"]])
    if query.terms or query.excluded:
        events = events.filter(backends.text_condition(query.terms, query.excluded))
    return events


def matching_events(
    bench: Bench, user, query: Query, within: Scope | None = None
) -> QuerySet[Event]:
    """Every event the query matches among the attempts ``user`` may see."""
    attempts = within.attempts if within else _attempts(bench, user, query).order_by()
    return _matching(Event.objects.filter(attempt_id__in=attempts.values("pk")), query)


class PageOutOfRange(Http404):
    """A results page past the last one (the views answer 404, as other lists do)."""


@dataclass
class Tally:
    value: int
    capped: bool  # the true figure is larger

    def __str__(self) -> str:
        return formatting.count_capped(self.value, self.capped)


@dataclass(frozen=True)
class Match:
    index: int
    type: str
    tool: str
    ok: bool | None
    exit_code: int | None
    snippet: snippets.Snippet | None


@dataclass
class Group:
    attempt: Attempt
    matches: list[Match]
    total: int  # matching events in this attempt


@dataclass(frozen=True)
class Facet:
    value: str
    label: str
    count: int


@dataclass
class Results:
    query: Query
    total: Tally
    attempts: Tally
    groups: list[Group]
    page: int
    has_next: bool
    facets: dict[str, list[Facet]] = field(default_factory=dict)
    facets_capped: bool = False


def _needle(query: Query) -> str | None:
    return query.terms[0].split()[0] if query.terms else None


def page_groups(
    within: Scope, query: Query, *, page: int, holding: list[int] | None = None
) -> tuple[list[Group], bool]:
    """One page of the attempts in ``within`` holding matches (in attempt
    order), each with its first matching events: three or four queries.
    ``holding``: every attempt with a match, when the caller already knows
    them all."""
    limits = settings.BENCHVIEW_LIMITS
    size, per_attempt = limits["search_attempts_per_page"], limits["search_events_per_attempt"]
    start = (page - 1) * size
    if start >= len(holding if holding is not None else within.rows):
        # Past every attempt there is: no query (an offset of 10**18 is one
        # the database cannot take).
        raise PageOutOfRange(f"no results page {page}")
    if holding is not None:
        ids = sorted(holding)[start : start + size + 1]
    else:
        # Attempt by attempt, stopping at the page's end: for a common word
        # this stops early instead of listing every match. The probe needs no
        # scope of its own: the attempts probed are the scope.
        probe = _matching(Event.objects.filter(attempt_id=OuterRef("pk")), query)
        ids = list(
            within.attempts.filter(Exists(probe))
            .order_by("pk")
            .values_list("pk", flat=True)[start : start + size + 1]
        )
    has_next = len(ids) > size
    ids = ids[:size]
    if not ids:
        raise PageOutOfRange(f"no results page {page}")
    # The page's attempts are in scope already: matched by their ids alone, so
    # the planner reads their events by (attempt, index) instead of every match.
    firsts = list(
        _matching(Event.objects.filter(attempt_id__in=ids), query)
        .annotate(
            position=Window(RowNumber(), partition_by=[F("attempt_id")], order_by=F("index").asc()),
            in_attempt=Window(Count("id"), partition_by=[F("attempt_id")]),
        )
        .filter(position__lte=per_attempt)
        .values_list("id", "attempt_id", "in_attempt")
    )
    totals = {attempt_id: n for _, attempt_id, n in firsts}
    # Snippets for the shown events only: cutting every match would read them all.
    cuts = snippets.annotations(_needle(query))
    rows = (
        Event.objects.filter(id__in=[pk for pk, _, _ in firsts])
        .annotate(**cuts)
        .order_by("attempt_id", "index")
        .values("attempt_id", "index", "type", "tool", "ok", "exit_code", *cuts)
    )
    words = query.highlight_words
    found: dict[int, list[Match]] = defaultdict(list)
    for row in rows:
        found[row["attempt_id"]].append(
            Match(
                index=row["index"],
                type=row["type"],
                tool=row["tool"],
                ok=row["ok"],
                exit_code=row["exit_code"],
                snippet=snippets.pick(row, words),
            )
        )
    attempts = (
        Attempt.objects.filter(pk__in=ids)
        .select_related("model", "task")
        .only(
            "score",
            "model__slug",
            "model__display_name",
            "model__rank",
            "task__slug",
            "task__title",
            "task__surface",
            "bench_id",
        )
    )
    by_pk = {a.pk: a for a in attempts}
    groups = [Group(by_pk[pk], found[pk], totals.get(pk, 0)) for pk in ids if pk in by_pk]
    return groups, has_next


def tally(
    events: QuerySet[Event], within: Scope, cap: int
) -> tuple[Tally, Tally, dict[str, list[Facet]], list[int]]:
    """Matches, attempts holding them, facets by model, tool (normalised) and
    task, and the attempts seen, counted over the first ``cap`` + 1 matches
    in (attempt, index) order: one query."""
    # The first ones in a stated order, not whichever the database meets
    # first: past the cap the counts then read the same on every database
    # (and from one plan to the next). With the planner's statistics fresh
    # (ingest.writing.services) it walks the (attempt, index) index for a common word
    # and sorts the few matches of a rare one.
    sample = list(
        events.order_by("attempt_id", "index").values_list("attempt_id", "tool")[: cap + 1]
    )
    capped = len(sample) > cap
    counts: Counter = Counter(sample[:cap])
    about = {pk: rest for pk, *rest in within.rows}
    models: Counter = Counter()
    tasks: Counter = Counter()
    tools: Counter = Counter()
    labels: dict[tuple[str, str], str] = {}
    for (attempt_id, tool), n in counts.items():
        model, model_name, task, task_title = about[attempt_id]
        models[model] += n
        tasks[task] += n
        labels[("model", model)], labels[("task", task)] = model_name, task_title
        if tool:
            tools[tool_family(tool)] += n
    total = sum(counts.values())

    def ordered(name: str, found: Counter) -> list[Facet]:
        facets = [Facet(v, labels.get((name, v), v), n) for v, n in found.items()]
        return sorted(facets, key=lambda f: (-f.count, f.value))

    facets = {
        "model": ordered("model", models),
        "tool": ordered("tool", tools),
        "task": ordered("task", tasks),
    }
    holding = sorted({attempt_id for attempt_id, _ in counts})
    return Tally(total, capped), Tally(len(holding), capped), facets, holding


def search(*, bench: Bench, user, query: Query, page: int = 1) -> Results:
    """The results page for ``query`` (an empty query finds nothing): five
    queries, six past the count cap. Raises SearchRefused for a query past
    the limits or one that takes longer than ``search_time_limit_ms``
    (SearchTooBroad), and PageOutOfRange for a page past the last."""
    if query.refusal:
        raise SearchRefused(query.refusal)
    if query.is_empty:
        if page > 1:
            raise PageOutOfRange(f"no results page {page}")
        return Results(query, Tally(0, False), Tally(0, False), [], page, False)
    with time_bound():
        # Raised outside the bound: an exception inside it rolls back its transaction.
        try:
            return _search(bench, user, query, page)
        except PageOutOfRange as exc:
            out_of_range = exc
    raise out_of_range


def _search(bench: Bench, user, query: Query, page: int) -> Results:
    cap = settings.BENCHVIEW_LIMITS["search_count_cap"]
    within = scope(bench, user, query)
    events = matching_events(bench, user, query, within)
    total, attempts, facets, holding = tally(events, within, cap)
    if total.value == 0:
        if page > 1:
            raise PageOutOfRange(f"no results page {page}")
        return Results(query, total, attempts, [], page, False)
    # Below the cap the tally saw every match, so it knows every attempt.
    groups, has_next = page_groups(
        within, query, page=page, holding=None if total.capped else holding
    )
    return Results(
        query=query,
        total=total,
        attempts=attempts,
        groups=groups,
        page=page,
        has_next=has_next,
        facets=facets,
        facets_capped=total.capped,
    )


def download_rows(bench: Bench, user, query: Query) -> list[dict]:
    """Every match (up to ``search_download_max_rows``) as flat rows, in
    attempt and index order; refused as ``search`` refuses."""
    if query.refusal:
        raise SearchRefused(query.refusal)
    if query.is_empty:
        return []
    with time_bound():
        return list(_download_rows(bench, user, query))


def _download_rows(bench: Bench, user, query: Query):
    limit = settings.BENCHVIEW_LIMITS["search_download_max_rows"]
    words = query.highlight_words
    cuts = snippets.annotations(_needle(query))
    rows = (
        matching_events(bench, user, query)
        .annotate(**cuts)
        .order_by("attempt_id", "index")
        .values(
            "attempt__model__slug",
            "attempt__task__slug",
            "attempt__score",
            "index",
            "type",
            "tool",
            "ok",
            "exit_code",
            *cuts,
        )[:limit]
    )
    for row in rows:
        snippet = snippets.pick(row, words)
        yield {
            "model": row["attempt__model__slug"],
            "task": row["attempt__task__slug"],
            "score": row["attempt__score"],
            "index": row["index"],
            "type": row["type"],
            "tool": row["tool"],
            "ok": row["ok"],
            "exit_code": row["exit_code"],
            "field": snippet.field if snippet else "",
            "snippet": snippet.plain if snippet else "",
        }
