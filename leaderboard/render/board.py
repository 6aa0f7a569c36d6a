"""The leaderboard's table rows, built in Python.

A row has a dozen cells, several with tooltips and widgets; with a hundred
models the template language would spend most of the page's 100 ms budget on
lookups. The cells are written here instead, with ``escape`` on every piece
of text that comes from the release (names, harnesses, surfaces, flags).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from leaderboard.facts import ModelFacts
from leaderboard.formatting import cost_sum, model_rate, plural, rank_range, score, usd
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


def facts_html(facts: ModelFacts | None) -> str:
    """The model cell's second line: organisation, results date and labels,
    each only where the release gives it."""
    if facts is None:
        return ""
    parts = []
    if facts.organisation:
        parts.append(f'<span class="org">{escape(facts.organisation)}</span>')
    if facts.results_date:
        parts.append(
            f'<time datetime="{escape(facts.results_date)}" title="results produced">'
            f"{escape(facts.results_date)}</time>"
        )
    labels = [
        ("open_weights", "open weights", "the model's weights are published"),
        ("open_system", "open system", "the agent system's code is published"),
        ("verified", "✓ verified", "the bench's maintainers verified this run"),
    ]
    for name, label, title in labels:
        if getattr(facts, name):
            badge = f'<span class="badge badge-fact fact-{name}" title="{title}">{label}</span>'
            parts.append(badge)
    if facts.site:
        parts.append(
            f'<a class="site" href="{escape(facts.site)}" rel="nofollow noopener">site</a>'
        )
    return f'<span class="model-facts">{" ".join(parts)}</span>' if parts else ""


def rank_cell(model: Model) -> str:
    """The rank range ("1", "2–5") with what it means, for screen readers too."""
    shown = escape(rank_range(model.rank_low, model.rank_high, model.rank))
    if model.rank_low is None or model.rank_high is None:
        return f'<td class="num rank">{shown}</td>'
    if model.rank_low == model.rank_high:
        said = f"rank {model.rank_low} in at least 95% of resamples"
    else:
        said = f"ranks {model.rank_low} to {model.rank_high} over 95% of resamples"
    return (
        f'<td class="num rank" title="{said}; {model.rank} by score">'
        f'<span aria-hidden="true">{shown}</span><span class="visually-hidden">{said}</span></td>'
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
    badge = ""
    if disagreement:
        badge = (
            f' <span class="badge badge-warn" title="{escape(disagreement_text(disagreement))}">'
            "≠ published</span>"
        )
    figure = pass_rate(model) if percent else score(model.score)
    interval_title = interval_text = ""
    if model.ci_low is not None and model.ci_high is not None:
        low, high = score(model.ci_low, percent), score(model.ci_high, percent)
        interval_title = f' title="95% interval {low}–{high}"'
        interval_text = f'<span class="visually-hidden">95% interval {low} to {high}</span>'
    if model.tasks < tasks_total:
        # The exceptions rule left every trial of some tasks out: the mean is over fewer.
        interval_text += (
            f' <span class="covers muted" title="the tasks this figure is a mean over">'
            f"covers {model.tasks} of {tasks_total} tasks</span>"
        )
    cells = [
        f'<tr id="model-{escape(model.slug)}">{rank_cell(model)}',
        f'<th scope="row" class="model-name"><a href="{escape(href)}">'
        f"{escape(model.display_name)}</a>{badge}{facts_html(facts)}</th>",
        f'<td class="num score-cell"{interval_title}>{escape(figure)}'
        f"{ci_whisker(model.score, model.ci_low, model.ci_high)}{interval_text}</td>",
    ]
    if pass_k is not None:
        tasks = model.pass_k_tasks.get(pass_k)
        title = ""
        if tasks:
            title = f' title="over {plural(tasks, "task")} with at least {pass_k} trials"'
        for found in (model.pass_at_k, model.pass_hat_k):
            value = found.get(pass_k)
            cells.append(f'<td class="num"{title}>{score(value, percent)}</td>')
    cells.append(f"<td>{escape(model.harness)}</td><td>{escape(model.provider)}</td>")
    for surface in surfaces:
        entry = model.by_surface.get(surface)
        if not entry:
            cells.append('<td class="num">–</td>')
            continue
        value = entry.get("score", 0.0)
        if percent and "passed" in entry:
            counts = escape(
                model_rate(value, entry["passed"], entry.get("trials", 0), entry.get("tasks", 0))
            )
        else:
            counts = plural(entry.get("tasks", 0), "task")
        cells.append(
            f'<td class="num"><span class="heat-chip {heat_class(value)}" '
            f'title="{escape(surface)}: {counts}">{score(value, percent)}</span></td>'
        )
    if cost_known:
        cells.append(f'<td class="num">{cost_sum(model.cost_usd, model.cost_unknown_trials)}</td>')
        if run_cost:
            cells.append(f'<td class="num">{usd(model.run_cost_usd)}</td>')
    else:
        # No released attempt reported a cost: $0.00 would claim it was free.
        unknown = '<td class="num cost-unknown" title="no cost in the release">unknown</td>'
        cells.append(unknown * (2 if run_cost else 1))
    if errors:
        cells.append(f'<td class="num errors">{model.errors}</td>')
    if model.flagged:
        why = escape(flag_reason_text(reasons))
        cells.append(
            f'<td class="num"><span class="badge badge-flag" title="{why}">{model.flagged}'
            f'<span class="visually-hidden"> flagged: {why}</span></span></td>'
        )
    else:
        cells.append('<td class="num">0</td>')
    cells.append("</tr>")
    return mark_safe("".join(cells))  # noqa: S308 - every piece escaped above
