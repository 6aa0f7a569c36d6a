"""The leaderboard's repeated cells, built in Python.

A row has a cell per surface plus the flag and interval widgets; with a
hundred models that is thousands of template lookups. Building these
cells here keeps the page well under its 100 ms budget. Every piece of text
is escaped (the values are numbers and surface names from the release).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from leaderboard.models import Model
from leaderboard.queries import FlagReasons
from leaderboard.templatetags.board import heat_class, score


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def surface_cells(model: Model, surfaces: Sequence[str], *, percent: bool) -> SafeString:
    cells = []
    for surface in surfaces:
        entry = model.by_surface.get(surface)
        if not entry:
            cells.append('<td class="num">–</td>')
            continue
        value = entry.get("score", 0.0)
        tasks = _plural(entry.get("tasks", 0), "task")
        cells.append(
            f'<td class="num"><span class="heat-chip {heat_class(value)}" '
            f'title="{escape(surface)}: {tasks}">{score(value, percent)}</span></td>'
        )
    return mark_safe("".join(cells))  # noqa: S308 - escaped above


def flag_reason_text(reasons: FlagReasons) -> str:
    parts = []
    if reasons.missing_verdict:
        parts.append(_plural(reasons.missing_verdict, "missing verdict"))
    if reasons.missing_attempt:
        parts.append(_plural(reasons.missing_attempt, "missing attempt"))
    return ", ".join(parts)
