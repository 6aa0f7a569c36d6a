"""/<bench>/: the leaderboard, sortable by any column, filterable by harness and provider."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString

from leaderboard import facts as model_facts
from leaderboard import queries
from leaderboard.models import Attempt, Model, Task
from leaderboard.render import download
from leaderboard.render.board import EXCEPTIONS_NOTES, board_row
from leaderboard.render.svg import ChartPoint, pareto_frontier, score_cost_chart
from leaderboard.views.revisions import citation

# Sort keys in their natural direction (the one a first click gives). Every
# key ends with rank and slug, so the order is total whatever the column.
SORTS: dict[str, Callable[[Model], Any]] = {
    "rank": lambda m: (m.rank, m.slug),
    # The range: best rank first, then the narrower range.
    "range": lambda m: (
        m.rank_low if m.rank_low is not None else m.rank,
        m.rank_high if m.rank_high is not None else m.rank,
        m.rank,
        m.slug,
    ),
    "model": lambda m: (m.display_name.casefold(), m.slug),
    "harness": lambda m: (m.harness, m.rank, m.slug),
    "provider": lambda m: (m.provider, m.rank, m.slug),
    "score": lambda m: (m.score, -m.rank, m.slug),
    "cost": lambda m: (m.cost_usd, m.rank, m.slug),
    "flagged": lambda m: (m.flagged, m.rank, m.slug),
    "errors": lambda m: (m.errors, m.rank, m.slug),
}
SURFACE_PREFIX = "surface:"


PASS_K_SORTS = ("pass_at_k", "pass_hat_k")


def _pass_k_key(name: str, k: str) -> Callable[[Model], Any]:
    def key(m: Model) -> Any:
        value = getattr(m, name).get(k)
        return (value if value is not None else -1.0, -m.rank, m.slug)

    return key


def most_trials(models: list[Model]) -> int:
    """K: the most trials any task of the bench has (pass@k runs k = 1 .. K)."""
    return max((len(m.pass_at_k) for m in models), default=0)


def chosen_k(request, most: int) -> int | None:
    """The k of the pass@k columns (``?k=``, default K); None when K < 2."""
    if most < 2:
        return None
    try:
        k = int(request.GET.get("k", most))
    except ValueError:
        k = most
    return min(max(k, 1), most)


def _surface_key(surface: str) -> Callable[[Model], Any]:
    def key(m: Model) -> Any:
        entry = m.by_surface.get(surface) or {}
        return (entry.get("score", -1.0), -m.rank, m.slug)

    return key


def sort_models(
    models: list[Model], sort: str, costed: set[int] | None = None, k: int | None = None
) -> tuple[list[Model], str]:
    """Order by ``sort`` ("key" or "-key" for reversed); unknown keys fall back
    to rank. Returns the rows and the sort actually applied.

    ``costed`` holds the models with cost data: by cost, the others come last
    whichever the direction (their stored 0 would rank them as free)."""
    name = sort.removeprefix("-")
    if name.startswith(SURFACE_PREFIX):
        key = _surface_key(name.removeprefix(SURFACE_PREFIX))
    elif name in PASS_K_SORTS and k is not None:
        key = _pass_k_key(name, str(k))
    elif name in SORTS:
        key = SORTS[name]
    else:
        return sorted(models, key=SORTS["rank"]), "rank"
    reverse = sort.startswith("-")
    if name == "cost" and costed is not None:
        known = [m for m in models if m.pk in costed]
        unknown = [m for m in models if m.pk not in costed]
        return sorted(known, key=key, reverse=reverse) + sorted(unknown, key=SORTS["rank"]), sort
    return sorted(models, key=key, reverse=reverse), sort


@dataclass
class BoardRow:
    model: Model
    href: str
    disagrees: queries.ModelDisagreements | None
    html: SafeString


def board(request, bench: str):
    bench = queries.bench_or_404(bench)
    harness = request.GET.get("harness", "")
    provider = request.GET.get("provider", "")
    models = queries.board_models(bench, harness=harness, provider=provider)
    harnesses, providers = queries.board_facets(bench)
    finished = queries.last_finished(bench)
    facts = {m.pk: model_facts.facts_of(m, finished.get(m.pk)) for m in models}
    chosen = model_facts.wanted(request.GET)
    organisations = sorted({f.organisation for f in facts.values() if f.organisation})
    known = {k for f in facts.values() for k, v in f.as_dict().items() if v is not None}
    models = model_facts.keep(models, facts, chosen)
    surfaces = list(
        Task.objects.filter(bench=bench)
        .order_by("surface")
        .values_list("surface", flat=True)
        .distinct()
    )
    reasons = queries.flag_reasons(models)
    # Models whose released attempts report a cost; the others' cost is unknown.
    costed = set(
        Attempt.objects.filter(bench=bench, has_detail=True, cost_usd__gt=0)
        # By the distinct column alone: the default ordering's would join the DISTINCT.
        .order_by("model_id")
        .values_list("model_id", flat=True)
        .distinct()
    ) - {m.pk for m in models if m.cost_usd is None}
    disagreements = queries.disagreements_by_model(bench)
    # K: the most trials of any task among the rows shown.
    most = most_trials(models) if bench.is_pass_fail else 0
    k = chosen_k(request, most)
    models, sort = sort_models(models, request.GET.get("sort", ""), costed, k)
    # Some model ran a task several times: the cost of one run differs from the total.
    several = any(m.trials > m.tasks for m in models)
    # Benches whose runs can raise (Harbor's) have an Errors column.
    errors = bool(bench.exceptions_rule)
    tasks_total = Task.objects.filter(bench=bench).count() if errors else 0
    # Some model's cost sum lacks some attempts' costs: the table says how many.
    partly = any(m.cost_unknown_trials for m in models)
    fmt = download.wanted(request)
    if fmt:
        ks = [str(i) for i in range(1, most + 1)] if bench.is_pass_fail else []
        return download.table_response(
            fmt,
            name=f"{bench.slug}-leaderboard",
            columns=["rank", "rank_low", "rank_high", "model", "display_name", "harness",
                     "provider", *model_facts.FIELDS, "score", "passed", "trials", "tasks",
                     "ci_low", "ci_high",
                     *(f"surface:{s}" for s in surfaces), "cost_usd",
                     *(["cost_unknown_trials"] if partly else []), "run_cost_usd",
                     *(["errors"] if errors else []), "flagged",
                     *(f"pass_at_k:{i}" for i in ks), *(f"pass_hat_k:{i}" for i in ks),
                     "published_score", "published_only"],
            rows=(
                [m.rank, m.rank_low, m.rank_high, m.slug, m.display_name, m.harness,
                 m.provider, *facts[m.pk].as_dict().values(), m.score,
                 *((None, None) if m.published_only else (m.passed, m.trials)),
                 m.tasks, m.ci_low, m.ci_high,
                 *((m.by_surface.get(s) or {}).get("score") for s in surfaces),
                 m.cost_usd if m.pk in costed else None,
                 *([m.cost_unknown_trials] if partly else []),
                 m.run_cost_usd if m.pk in costed else None,
                 *([m.errors] if errors else []), m.flagged,
                 *(m.pass_at_k.get(i) for i in ks), *(m.pass_hat_k.get(i) for i in ks),
                 m.published_score, m.published_only]
                for m in models
            ),
        )  # fmt: skip
    # Model pages differ only in their last segment: one reverse() for all rows.
    model_prefix = reverse("model", args=[bench.slug, "probe"]).removesuffix("probe/")
    rows = []
    for m in models:
        href = f"{model_prefix}{m.slug}/"
        html = board_row(
            m,
            href=href,
            reasons=reasons[m.pk],
            disagreement=disagreements.get(m.pk),
            surfaces=surfaces,
            percent=bench.is_pass_fail,
            cost_known=m.pk in costed,
            facts=facts[m.pk],
            pass_k=str(k) if k else None,
            run_cost=several,
            errors=errors,
            tasks_total=tasks_total,
        )
        rows.append(BoardRow(model=m, href=href, disagrees=disagreements.get(m.pk), html=html))
    # A model without cost data has no place on a cost axis, nor on its frontier.
    plotted = [r for r in rows if r.model.pk in costed]
    chart_points = [
        # One run's cost: models that ran tasks more often are not pushed right.
        ChartPoint(r.model.slug, r.model.display_name, r.model.run_cost_usd, r.model.score, r.href)
        for r in plotted
    ]
    chart = score_cost_chart(
        chart_points,
        score_label="Pass rate" if bench.is_pass_fail else "Score",
        percent=bench.is_pass_fail,
        cost_label="Cost of one run (US$, released attempts)"
        if several
        else "Cost (US$, released attempts)",
    )
    disagreeing = [r for r in rows if r.disagrees]
    return render(
        request,
        "leaderboard/board.html",
        {
            "bench": bench,
            "rows": rows,
            "surfaces": surfaces,
            "sort": sort,
            "harness": harness,
            "provider": provider,
            "harnesses": harnesses,
            "providers": providers,
            "organisations": organisations,
            "known_facts": known,
            "chosen": chosen,
            "chart": chart,
            "frontier": pareto_frontier(chart_points),
            "not_plotted": [r for r in rows if r.model.pk not in costed],
            "disagreeing": disagreeing,
            "disagreeing_attempts": sum(r.disagrees.attempts for r in disagreeing),
            "percent": bench.is_pass_fail,
            # Some model ran a task several times: its pass rate counts trials.
            "counts_trials": several,
            "k": k,
            "k_text": str(k) if k else "",
            "ks": list(range(1, most + 1)) if k else [],
            "extra_columns": (2 if k else 0) + (1 if several else 0) + errors,
            "errors": errors,
            "exceptions_note": EXCEPTIONS_NOTES.get(bench.exceptions_rule, ""),
            **citation(request, bench),
        },
    )
