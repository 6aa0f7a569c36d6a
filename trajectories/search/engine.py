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

from leaderboard.models import Attempt, Bench, CheckResult
from trajectories.models import Event
from trajectories.search import backends, snippets
from trajectories.search.query import BOOLEANS, Query
from trajectories.search.visibility import searchable_attempts
from trajectories.tools import canonical_tool, tool_spellings


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


def matching_events(bench: Bench, user, query: Query) -> QuerySet[Event]:
    """Every event the query matches among the attempts ``user`` may see."""
    events = Event.objects.filter(attempt__in=_attempts(bench, user, query).values("pk"))
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
    if query.terms:
        events = events.filter(id__in=backends.matching_ids(query.terms, query.excluded))
    elif query.excluded:
        events = events.exclude(id__in=backends.any_ids(query.excluded))
    return events.order_by()


@dataclass
class Tally:
    value: int
    capped: bool  # the true figure is larger

    def __str__(self) -> str:
        return f"{self.value:,}+" if self.capped else f"{self.value:,}"


def capped_count(queryset: QuerySet, cap: int) -> Tally:
    n = queryset[: cap + 1].count()
    return Tally(min(n, cap), n > cap)


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


def page_groups(events: QuerySet[Event], query: Query, *, page: int) -> tuple[list[Group], bool]:
    """One page of attempts holding matches (in attempt order), each with its
    first matching events: three queries."""
    limits = settings.BENCHVIEW_LIMITS
    size, per_attempt = limits["search_attempts_per_page"], limits["search_events_per_attempt"]
    start = (page - 1) * size
    ids = list(
        events.order_by("attempt_id")
        .values_list("attempt_id", flat=True)
        .distinct()[start : start + size + 1]
    )
    has_next = len(ids) > size
    ids = ids[:size]
    if not ids:
        return [], False
    cuts = snippets.annotations(_needle(query))
    rows = (
        events.filter(attempt_id__in=ids)
        .annotate(
            position=Window(RowNumber(), partition_by=[F("attempt_id")], order_by=F("index").asc()),
            in_attempt=Window(Count("id"), partition_by=[F("attempt_id")]),
            **cuts,
        )
        .filter(position__lte=per_attempt)
        .order_by("attempt_id", "index")
        .values(
            "attempt_id",
            "index",
            "type",
            "tool",
            "ok",
            "exit_code",
            "in_attempt",
            *cuts,
        )
    )
    words = query.highlight_words
    found: dict[int, list[Match]] = defaultdict(list)
    totals: dict[int, int] = {}
    for row in rows:
        totals[row["attempt_id"]] = row["in_attempt"]
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


def facets(events: QuerySet[Event], cap: int) -> dict[str, list[Facet]]:
    """Matches by model, tool (normalised) and task, over the first ``cap`` + 1
    matches: three queries."""
    sample = Event.objects.filter(id__in=events.values("id")[: cap + 1]).order_by()
    models = sample.values("attempt__model__slug", "attempt__model__display_name").annotate(
        n=Count("id")
    )
    tasks = sample.values("attempt__task__slug", "attempt__task__title").annotate(n=Count("id"))
    tools: Counter = Counter()
    for tool, n in (
        sample.exclude(tool="").values("tool").annotate(n=Count("id")).values_list("tool", "n")
    ):
        tools[canonical_tool(tool)] += n

    def ordered(items):
        return sorted(items, key=lambda f: (-f.count, f.value))

    return {
        "model": ordered(
            Facet(r["attempt__model__slug"], r["attempt__model__display_name"], r["n"])
            for r in models
        ),
        "tool": ordered(Facet(name, name, n) for name, n in tools.items()),
        "task": ordered(
            Facet(r["attempt__task__slug"], r["attempt__task__title"], r["n"]) for r in tasks
        ),
    }


def search(*, bench: Bench, user, query: Query, page: int = 1) -> Results:
    """The results page for ``query`` (an empty query finds nothing)."""
    cap = settings.BENCHVIEW_LIMITS["search_count_cap"]
    if query.is_empty:
        return Results(query, Tally(0, False), Tally(0, False), [], page, False)
    events = matching_events(bench, user, query)
    total = capped_count(events, cap)
    if total.value == 0:
        return Results(query, total, Tally(0, False), [], page, False)
    attempts = capped_count(events.values("attempt_id").distinct(), cap)
    groups, has_next = page_groups(events, query, page=page)
    return Results(
        query=query,
        total=total,
        attempts=attempts,
        groups=groups,
        page=page,
        has_next=has_next,
        facets=facets(events, cap),
        facets_capped=total.capped,
    )


def download_rows(bench: Bench, user, query: Query):
    """Every match (up to ``search_download_max_rows``) as flat rows, in
    attempt and index order, streamed."""
    limit = settings.BENCHVIEW_LIMITS["search_download_max_rows"]
    if query.is_empty:
        return iter(())
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
    for row in rows.iterator(chunk_size=1000):
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
