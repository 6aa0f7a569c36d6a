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

from core.formatting import score
from formats.v1.scoring import EXCEPTION_FLAG_PREFIX
from leaderboard.queries import CELL_DETAIL, CELL_SCORE, MatrixTask, cell_flags
from leaderboard.templatetags.board import heat_class, pass_rate


@dataclass(frozen=True)
class MatrixRow:
    pk: int
    slug: str
    display_name: str
    harness: str
    score: float
    rank: int
    passed: int = 0
    tasks: int = 0
    trials: int = 0


def _address_prefix(name: str, *args: str) -> str:
    # Addresses that differ only in their last slug share everything before
    # it; one reverse() per row or page instead of one per cell. Release slugs
    # need no URL quoting.
    probe = "probe"
    url = reverse(name, args=[*args, probe])
    return url[: -len(probe) - 1]


# Shown after the figure of a cell whose trial raised; the label says it in words.
RAISED_MARK = '<span class="raised-mark" aria-hidden="true">!</span>'

# heat_class for the 101 scores a cell can show, looked up instead of called.
_HEAT = [heat_class(i / 100) for i in range(101)]


def matrix_body(
    bench: str,
    rows: Sequence[MatrixRow],
    columns: Sequence[MatrixTask],
    cells: dict[int, dict[int, tuple]],
    *,
    percent: bool,
    trials: dict[int, dict[int, tuple[int, int, int]]] | None = None,
) -> SafeString:
    """``<tr>`` rows: the model's name and score, then one cell per column.

    A cell in ``trials`` (the model ran the task several times) shows its
    passed/total trials, e.g. "2/3", coloured by their pass rate. A cell whose
    trial raised an exception (Harbor) is marked "!" and its label says so."""
    out: list[str] = []
    column_bits = [(c.pk, escape(c.slug), c.released, c.visible, escape(c.title)) for c in columns]
    model_prefix = escape(_address_prefix("model", bench))
    missing = '<td class="heat-none" title="no attempt (missing-attempt)">–</td>'
    for row in rows:
        slug = escape(row.slug)
        attempt_prefix = escape(_address_prefix("attempt", bench, row.slug))
        shown = escape(pass_rate(row)) if percent else score(row.score)
        out.append(
            f'<tr><th scope="row" class="m-name">'
            f'<a href="{model_prefix}{slug}/">{escape(row.display_name)}</a>'
            f'<span class="m-harness">{escape(row.harness)}</span></th>'
            f'<td class="m-score num">{shown}</td>'
        )
        row_cells = cells.get(row.pk, {})
        row_trials = trials.get(row.pk, {}) if trials else {}
        name = escape(row.display_name)
        for task_pk, task_slug, released, visible, title in column_bits:
            cell = row_cells.get(task_pk)
            if cell is None:
                out.append(missing)
                continue
            value, flags, has_detail = cell[CELL_SCORE], cell_flags(cell), cell[CELL_DETAIL]
            shown = round(min(max(value, 0.0), 1.0) * 100)
            counted = row_trials.get(task_pk)
            if counted is not None:
                passed, total, raised = counted
                heat = _HEAT[round(passed / total * 100)] if total else _HEAT[0]
                label = f"{name} on {title}: {passed} of {total} trials passed"
                mark = ""
                if raised:
                    label += f", {raised} raised an exception"
                    heat += " raised"
                    mark = RAISED_MARK
                out.append(
                    f'<td class="{heat} trials"><a href="{attempt_prefix}{task_slug}/" '
                    f'title="{label}" aria-label="{label}">{passed}/{total}{mark}</a></td>'
                )
                continue
            # The visible number is the score ×100; a title adds only what the
            # cell cannot show (flags, why there is no link), keeping a
            # 20,000-cell page small.
            mark = ""
            if flags:
                classes = f"{_HEAT[shown]} flagged"
                tip = f"{score(value)} · " + escape(", ".join(flags))
                if any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags):
                    classes += " raised"
                    mark = RAISED_MARK
            else:
                classes, tip = _HEAT[shown], ""
            if not released:
                # The column header and the hatch say "unreleased".
                attrs = f' title="{tip}"' if tip else ""
                out.append(f'<td class="{classes} unreleased"{attrs}>{shown}</td>')
            elif visible and has_detail:
                # The link names its model, task and score for a screen reader
                # and as a tooltip: "12" alone says nothing out of the grid.
                label = f"{name} on {title}: {shown}" + (f" ({tip})" if tip else "")
                out.append(
                    f'<td class="{classes}"><a href="{attempt_prefix}{task_slug}/" '
                    f'title="{label}" aria-label="{label}">{shown}{mark}</a></td>'
                )
            else:
                # Staged (staff only), or released without an attempt folder.
                why = "detail not public" if not visible else "no attempt folder"
                tip = f"{tip} · {why}" if tip else f"{score(value)} · {why}"
                out.append(f'<td class="{classes} no-detail" title="{tip}">{shown}</td>')
        out.append("</tr>")
    return mark_safe("".join(out))  # noqa: S308 - every piece escaped above
