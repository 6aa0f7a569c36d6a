"""Small charts drawn on the server as inline SVG: no script, no image files.

Every label goes through ``core.html.html``; colours come from CSS
classes so light and dark themes restyle the charts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from core import formatting
from core.html import html, html_join
from formats.v1.scoring import TOLERANCE


@dataclass(frozen=True)
class ChartPoint:
    key: str
    label: str
    cost: float
    score: float
    href: str


def pareto_frontier(points: Sequence[ChartPoint]) -> list[ChartPoint]:
    """The points no other point beats on both axes (cheaper or equal cost and
    higher score), cheapest first."""
    ordered = sorted(points, key=lambda p: (p.cost, -p.score, p.key))
    frontier: list[ChartPoint] = []
    best = -math.inf
    for point in ordered:
        if point.score > best + TOLERANCE:
            frontier.append(point)
            best = point.score
    return frontier


def nice_ticks(high: float, count: int = 5, *, low: float = 0.0) -> list[float]:
    """Round tick values spanning ``low`` to ``high``, about ``count`` steps.

    From 0 when the lowest value is near it (under a quarter of the highest);
    otherwise from a round value at or below ``low``, so that points bunched far
    from 0 (costs of $7.8 to $8.2) spread over the axis instead of sitting in
    one corner of a $0 to $10 axis."""
    if high <= 0:
        return [0.0, 1.0]
    if low < high / 4:
        low = 0.0
    elif high - low < high * 1e-6:
        # Every value the same: a little room on either side.
        low, high = high * 0.9, high * 1.1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    ticks = [round(math.floor(low / step + 1e-9) * step, 10)]
    while ticks[-1] < high - 1e-12:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


# Plot geometry in SVG user units; the SVG scales to its container.
_W, _H = 760, 380
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 24, 16, 48


def score_cost_chart(
    points: Sequence[ChartPoint],
    *,
    score_label: str = "Score",
    percent: bool = False,
    cost_label: str = "Cost (US$, released attempts)",
) -> SafeString:
    """Score (y) against cost (x), every model a linked dot, the Pareto
    frontier drawn as a stepped line through its models."""
    if not points:
        return html("")
    x_ticks = nice_ticks(max(p.cost for p in points), low=min(p.cost for p in points))
    x_min, x_max = x_ticks[0], x_ticks[-1]
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM

    def x(cost: float) -> float:
        return round(_LEFT + plot_w * ((cost - x_min) / (x_max - x_min)), 1)

    def y(score: float) -> float:
        return round(_TOP + plot_h * (1.0 - score), 1)

    frontier = pareto_frontier(points)
    on_frontier = {p.key for p in frontier}
    parts: list[str] = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        label = formatting.score_tick(tick, percent)
        parts.append(
            html(
                '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
                _LEFT, _W - _RIGHT, y(tick), y(tick), _LEFT - 6, y(tick) + 4, label,
            )
        )  # fmt: skip
    for tick in x_ticks:
        cost = formatting.usd_tick(tick)
        parts.append(
            html(
                '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
                x(tick), x(tick), _TOP, _TOP + plot_h, x(tick), _TOP + plot_h + 18, cost,
            )
        )  # fmt: skip
    parts.append(
        html(
            '<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>'
            '<text class="axis-label" x="14" y="{}" text-anchor="middle"'
            ' transform="rotate(-90 14 {})">{}</text>',
            _LEFT + plot_w / 2, _H - 6, cost_label, _TOP + plot_h / 2, _TOP + plot_h / 2,
            score_label,
        )
    )  # fmt: skip
    # The frontier as a staircase: a cheaper model's score holds until the
    # next frontier model raises it.
    steps: list[str] = []
    for i, point in enumerate(frontier):
        if i:
            steps.append(f"{x(point.cost)},{y(frontier[i - 1].score)}")
        steps.append(f"{x(point.cost)},{y(point.score)}")
    if len(steps) > 1:
        parts.append(html('<polyline class="frontier" points="{}"/>', " ".join(steps)))
    labels = _place_labels(
        [(p, x(p.cost), y(p.score)) for p in frontier],
        dots=[(x(p.cost), y(p.score)) for p in points],
    )
    # Dominated models first so frontier dots are drawn on top.
    for point in sorted(points, key=lambda p: (p.key in on_frontier, p.key)):
        shown = formatting.score(point.score, percent)
        tip = f"{point.label}: {shown}, {formatting.usd_tick(point.cost)}"
        css = "dot on-frontier" if point.key in on_frontier else "dot"
        label = ""
        if point.key in labels:
            lx, ly, anchor = labels[point.key]
            label = html(
                '<text class="dot-label" x="{}" y="{}" text-anchor="{}"'
                ' aria-hidden="true">{}</text>',
                lx, ly, anchor, point.label,
            )  # fmt: skip
        parts.append(
            html(
                '<a href="{}" aria-label="{}"><circle class="{}" cx="{}" cy="{}" r="5">'
                "<title>{}</title></circle>{}</a>",
                point.href, tip, css, x(point.cost), y(point.score), tip, label,
            )
        )  # fmt: skip
    # A group, not role="img": the dots are links, and an image holds no controls.
    return html(
        '<svg class="chart score-cost" viewBox="0 0 {} {}" role="group"'
        ' aria-labelledby="chart-title"><title id="chart-title">'
        "{} against cost; the line marks the Pareto frontier</title>{}</svg>",
        _W, _H, score_label, html_join(parts),
    )  # fmt: skip


# Label boxes are estimated from the text length (the server has no fonts):
# generous enough that estimated boxes apart means drawn labels apart.
_CHAR_W, _LABEL_H, _LABEL_GAP = 7.2, 14, 8


def _place_labels(
    placed: Sequence[tuple[ChartPoint, float, float]], *, dots: Sequence[tuple[float, float]]
) -> dict[str, tuple[float, float, str]]:
    """key -> (x, y, anchor) for the frontier labels that fit without touching
    another label or leaving the plot; a label that finds no free spot near
    its dot is left out (its dot keeps its tooltip and accessible name)."""
    # Dots are obstacles too: a label must not hide another model's dot.
    boxes: list[tuple[float, float, float, float]] = [
        (dx - 5, dy - 5, dx + 5, dy + 5) for dx, dy in dots
    ]
    result: dict[str, tuple[float, float, str]] = {}
    for point, px, py in sorted(placed, key=lambda t: (t[2], t[1])):
        width = _CHAR_W * len(point.label)
        for shift in (0, 1, -1, 2, -2, 3, -3):
            ly = py + 4 + shift * _LABEL_H
            for anchor in ("start", "end"):
                left = px + _LABEL_GAP if anchor == "start" else px - _LABEL_GAP - width
                box = (left, ly - _LABEL_H + 3, left + width, ly + 3)
                inside = (
                    box[0] >= _LEFT and box[2] <= _W - 2 and box[1] >= 0 and box[3] <= _H - _BOTTOM
                )
                if inside and not any(_overlap(box, other) for other in boxes):
                    boxes.append(box)
                    lx = px + _LABEL_GAP if anchor == "start" else px - _LABEL_GAP
                    result[point.key] = (round(lx, 1), round(ly, 1), anchor)
                    break
            if point.key in result:
                break
    return result


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def ci_whisker(score: float, low: float | None, high: float | None) -> SafeString:
    """A score's 95% interval on a 0..1 scale, drawn in 80x12 units.

    The leaderboard draws one per row.
    """
    width = 80  # _CI's viewBox

    def at(value: float) -> float:
        return round(2 + (width - 4) * min(max(float(value), 0.0), 1.0), 1)

    whisker = ""
    if low is not None and high is not None:
        a, b = at(low), at(high)
        whisker = html(_WHISKER, a, b, a, a, b, b)
    return html(_CI, whisker, at(score))


_WHISKER = (
    '<line class="ci" x1="{}" x2="{}" y1="6" y2="6"/>'
    '<line class="ci" x1="{}" x2="{}" y1="2" y2="10"/>'
    '<line class="ci" x1="{}" x2="{}" y1="2" y2="10"/>'
)
_CI = (
    '<svg class="whisker" viewBox="0 0 80 12" width="80" height="12"'
    ' aria-hidden="true"><line class="track" x1="2" x2="78" y1="6" y2="6"/>'
    '{}<circle class="point" cx="{}" cy="6" r="3"/></svg>'
)


def surface_bars(rows: Sequence[tuple[str, float, str]], *, percent: bool = False) -> SafeString:
    """Horizontal bars, one per (label, score 0..1, detail) row, as HTML with
    widths in inline styles (allowed by the CSP)."""
    return html(
        '<ul class="bars">{}</ul>',
        html_join(
            html(
                '<li><span class="bar-label">{}</span><span class="bar-track">'
                '<span class="bar" style="width:{}%"></span></span>'
                '<span class="bar-value">{}</span><span class="bar-detail">{}</span></li>',
                label,
                f"{max(0.0, min(score, 1.0)) * 100:.1f}",
                formatting.score(score, percent),
                detail,
            )
            for label, score, detail in rows
        ),
    )
