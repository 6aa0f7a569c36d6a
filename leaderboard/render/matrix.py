"""The heat map's table body, built as one string.

A page of the matrix holds up to 100 models × 200 tasks: 20,000 cells. The
template language costs tens of microseconds per cell, so the cells are
written here with ``escape`` on every piece of text and handed to the
template as one safe string (about 30 ms for such a page).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from leaderboard.queries import MatrixTask
from leaderboard.templatetags.board import heat_class


@dataclass(frozen=True)
class MatrixRow:
    pk: int
    slug: str
    display_name: str
    harness: str
    score: float
    rank: int


def _attempt_prefix(bench: str, model: str) -> str:
    # One reverse per row instead of per cell: attempt addresses differ only in
    # their last segment, and release slugs need no URL quoting.
    probe = "probe"
    url = reverse("attempt", args=[bench, model, probe])
    return url[: -len(probe) - 1]


def matrix_body(
    bench: str,
    rows: Sequence[MatrixRow],
    columns: Sequence[MatrixTask],
    cells: dict[tuple[int, int], tuple[float, list[str], bool]],
    *,
    percent: bool,
) -> SafeString:
    """``<tr>`` rows: the model's name and score, then one cell per column."""
    out: list[str] = []
    column_bits = [(c.pk, escape(c.slug), c.released, c.visible) for c in columns]
    for row in rows:
        model_url = escape(reverse("model", args=[bench, row.slug]))
        attempt_prefix = escape(_attempt_prefix(bench, row.slug))
        shown = f"{row.score * 100:.1f}%" if percent else f"{row.score:.3f}"
        out.append(
            f'<tr><th scope="row" class="m-name">'
            f'<a href="{model_url}">{escape(row.display_name)}</a>'
            f'<span class="m-harness">{escape(row.harness)}</span></th>'
            f'<td class="m-score num">{shown}</td>'
        )
        for task_pk, task_slug, released, visible in column_bits:
            cell = cells.get((row.pk, task_pk))
            if cell is None:
                out.append('<td class="c heat-none" title="no attempt (missing-attempt)">–</td>')
                continue
            score, flags, has_detail = cell
            classes = ["c", heat_class(score)]
            tip = f"{score:.3f}"
            if flags:
                classes.append("flagged")
                tip += " · " + ", ".join(flags)
            text = f"{round(score * 100)}"
            if not released:
                classes.append("unreleased")
                tip += " · unreleased: no detail yet"
                inner = text
            elif visible and has_detail:
                inner = f'<a href="{attempt_prefix}{task_slug}/">{text}</a>'
            else:
                # Staged for staff only, or released without an attempt folder.
                classes.append("no-detail")
                tip += " · detail not public" if not visible else " · no attempt folder"
                inner = text
            out.append(f'<td class="{" ".join(classes)}" title="{escape(tip)}">{inner}</td>')
        out.append("</tr>")
    return mark_safe("".join(out))  # noqa: S308 - every piece escaped above
