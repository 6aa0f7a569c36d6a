"""The leaderboard's table rows, built in Python.

A row has a dozen cells, several with tooltips and widgets; with a hundred
models the template language would spend most of the page's 100 ms budget on
lookups. The cells are written here instead, each by ``core.html.html``,
which escapes every value it fills in (names, harnesses, surfaces, flags).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString

from core.formatting import cost_sum, model_rate, plural, rank_range, score, usd
from core.html import html, html_join
from leaderboard.facts import ModelFacts, site_link
from leaderboard.models import Model
from leaderboard.queries import FlagReasons, ModelDisagreements
from leaderboard.render.svg import ci_whisker
from leaderboard.templatetags.board import heat_class, pass_rate

# What the leaderboard's note says of the bench's exceptions rule.
EXCEPTIONS_NOTES = {
    "harbor": "A trial that raised still counts its reward, as the job's own result.json does.",
    "fail": "A trial that raised fails, whatever its reward.",
    "terminal-bench": "A trial that raised anything but a timeout is left out, as "
    "Terminal-Bench counts it.",
}


def flag_reason_text(reasons: FlagReasons) -> str:
    parts = []
    if reasons.missing_verdict:
        parts.append(plural(reasons.missing_verdict, "missing verdict"))
    if reasons.missing_attempt:
        parts.append(plural(reasons.missing_attempt, "missing attempt"))
    return ", ".join(parts)


def disagreement_text(found: ModelDisagreements) -> str:
    parts = [
        f"{d.source} {d.field}: published {d.published}, recomputed {d.recomputed}."
        for d in found.figures
    ]
    if found.attempts:
        verb = "differs" if found.attempts == 1 else "differ"
        parts.append(
            f"{plural(found.attempts, 'attempt score')} {verb} from summary.json or matrix.json."
        )
    return " ".join(parts)


def facts_html(facts: ModelFacts | None) -> SafeString:
    """The model cell's second line: organisation, results date and labels,
    each only where the release gives it."""
    if facts is None:
        return _EMPTY
    parts = []
    if facts.organisation:
        parts.append(html('<span class="org">{}</span>', facts.organisation))
    if facts.results_date:
        parts.append(
            html(
                '<time datetime="{}" title="results produced">{}</time>',
                facts.results_date,
                facts.results_date,
            )
        )
    link = site_link(facts.site)
    if link:
        parts.append(html('<a class="fact-site" href="{}" rel="nofollow noopener">site</a>', link))
    for name, label, title in _FACT_LABELS:
        if getattr(facts, name):
            parts.append(
                html(
                    '<span class="badge badge-fact fact-{}" title="{}">{}</span>',
                    name,
                    title,
                    label,
                )
            )
    if not parts:
        return _EMPTY
    return html('<span class="model-facts">{}</span>', html_join(parts, " "))


_EMPTY = html("")
# A row the source published only an aggregate for (docs/statistics.md).
PUBLISHED_ONLY_BADGE = html(
    ' <span class="badge badge-published" title="the source published this score without '
    'per-task results: it has no interval, rank range, pass@k, matrix row or comparison">'
    "published; no per-task results</span>"
)
_FACT_LABELS = [
    ("open_weights", "open weights", "the model's weights are published"),
    ("open_system", "open system", "the agent system's code is published"),
    ("verified", "✓ verified", "the bench's maintainers verified this run"),
]


def rank_cell(model: Model) -> SafeString:
    """The rank range ("1", "2–5") with what it means, for screen readers too."""
    shown = rank_range(model.rank_low, model.rank_high, model.rank)
    if model.rank_low is None or model.rank_high is None:
        return html('<td class="num rank">{}</td>', shown)
    if model.rank_low == model.rank_high:
        said = f"rank {model.rank_low} in at least 95% of resamples"
    else:
        said = f"ranks {model.rank_low} to {model.rank_high} over 95% of resamples"
    return html(
        '<td class="num rank" title="{}; {} by score">'
        '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span></td>',
        said,
        model.rank,
        shown,
        said,
    )


def board_row(
    model: Model,
    *,
    href: str,
    reasons: FlagReasons,
    disagreement: ModelDisagreements | None,
    surfaces: Sequence[str],
    percent: bool,
    cost_known: bool = True,
    facts: ModelFacts | None = None,
    pass_k: str | None = None,
    run_cost: bool = False,
    errors: bool = False,
    tasks_total: int = 0,
) -> SafeString:
    """One ``<tr>`` of the leaderboard, cells in the order of the header
    (``pass_k``: the k whose pass@k and pass^k columns are shown; ``run_cost``:
    show the cost of one run beside the cost of every trial)."""
    badge = _EMPTY
    if disagreement:
        badge = html(
            ' <span class="badge badge-warn" title="{}">≠ published</span>',
            disagreement_text(disagreement),
        )
    figure = pass_rate(model) if percent else score(model.score)
    if model.published_only:
        figure = score(model.score, percent)
        badge += PUBLISHED_ONLY_BADGE
    interval_title = interval_text = _EMPTY
    if model.ci_low is not None and model.ci_high is not None:
        low, high = score(model.ci_low, percent), score(model.ci_high, percent)
        interval_title = html(' title="95% interval {}–{}"', low, high)
        interval_text = html(
            '<span class="visually-hidden">95% interval {} to {}</span>', low, high
        )
    if model.tasks < tasks_total:
        # The exceptions rule left every trial of some tasks out: the mean is over fewer.
        interval_text += html(
            ' <span class="covers muted" title="the tasks this figure is a mean over">'
            "covers {} of {} tasks</span>",
            model.tasks,
            tasks_total,
        )
    cells = [
        html('<tr id="model-{}">', model.slug),
        rank_cell(model),
        html(
            '<th scope="row" class="model-name"><a href="{}">{}</a>{}{}</th>',
            href,
            model.display_name,
            badge,
            facts_html(facts),
        ),
        html(
            '<td class="num score-cell"{}>{}{}{}</td>',
            interval_title,
            figure,
            ci_whisker(model.score, model.ci_low, model.ci_high),
            interval_text,
        ),
    ]
    if pass_k is not None:
        tasks = model.pass_k_tasks.get(pass_k)
        title = _EMPTY
        if tasks:
            title = html(' title="over {} with at least {} trials"', plural(tasks, "task"), pass_k)
        for found in (model.pass_at_k, model.pass_hat_k):
            value = found.get(pass_k)
            cells.append(html('<td class="num"{}>{}</td>', title, score(value, percent)))
    cells.append(html("<td>{}</td><td>{}</td>", model.harness, model.provider))
    for surface in surfaces:
        entry = model.by_surface.get(surface)
        if not entry:
            cells.append(_NO_SURFACE)
            continue
        value = entry.get("score", 0.0)
        if percent and "passed" in entry:
            counts = model_rate(
                value, entry["passed"], entry.get("trials", 0), entry.get("tasks", 0)
            )
        else:
            counts = plural(entry.get("tasks", 0), "task")
        cells.append(
            html(
                '<td class="num"><span class="heat-chip {}" title="{}: {}">{}</span></td>',
                heat_class(value),
                surface,
                counts,
                score(value, percent),
            )
        )
    if cost_known:
        cost = cost_sum(model.cost_usd, model.cost_unknown_trials)
        cells.append(html('<td class="num">{}</td>', cost))
        if run_cost:
            cells.append(html('<td class="num">{}</td>', usd(model.run_cost_usd)))
    else:
        # No released attempt reported a cost: $0.00 would claim it was free.
        cells.append(_COST_UNKNOWN_2 if run_cost else _COST_UNKNOWN)
    if errors:
        cells.append(html('<td class="num errors">{}</td>', model.errors))
    if model.flagged:
        why = flag_reason_text(reasons)
        cells.append(
            html(
                '<td class="num"><span class="badge badge-flag" title="{}">{}'
                '<span class="visually-hidden"> flagged: {}</span></span></td>',
                why,
                model.flagged,
                why,
            )
        )
    else:
        cells.append(_NONE_FLAGGED)
    cells.append(_ROW_END)
    return html_join(cells)


_NO_SURFACE = html('<td class="num">–</td>')
_COST_UNKNOWN = html('<td class="num cost-unknown" title="no cost in the release">unknown</td>')
_COST_UNKNOWN_2 = _COST_UNKNOWN + _COST_UNKNOWN
_NONE_FLAGGED = html('<td class="num">0</td>')
_ROW_END = html("</tr>")
