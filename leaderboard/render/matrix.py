"""The heat map's table body, built as one string.

A page of the matrix holds up to 100 models × 200 tasks: 20,000 cells. The
template language costs tens of microseconds per cell, so the cells are
written here, each by ``core.html.html`` (which escapes every value it fills
in), and handed to the template as one safe string.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString

from core.formatting import score
from core.html import html, html_join
from leaderboard.queries import CELL_DETAIL, CELL_SCORE, MatrixTask, cell_flags
from leaderboard.scoring import EXCEPTION_FLAG_PREFIX
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
RAISED_MARK = html('<span class="raised-mark" aria-hidden="true">!</span>')

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
    # Escaped once per page or row, not once per cell.
    column_bits = [(c.pk, html("{}", c.slug), c.released, c.visible, c.title) for c in columns]
    model_prefix = _address_prefix("model", bench)
    missing = html('<td class="heat-none" title="no attempt (missing-attempt)">–</td>')
    for row in rows:
        attempt_prefix = html("{}", _address_prefix("attempt", bench, row.slug))
        shown = pass_rate(row) if percent else score(row.score)
        out.append(
            html(
                '<tr><th scope="row" class="m-name"><a href="{}{}/">{}</a>'
                '<span class="m-harness">{}</span></th><td class="m-score num">{}</td>',
                model_prefix,
                row.slug,
                row.display_name,
                row.harness,
                shown,
            )
        )
        row_cells = cells.get(row.pk, {})
        row_trials = trials.get(row.pk, {}) if trials else {}
        name = row.display_name
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
                label = html("{}", label)
                out.append(
                    html(
                        '<td class="{} trials"><a href="{}{}/" title="{}" aria-label="{}">'
                        "{}/{}{}</a></td>",
                        heat,
                        attempt_prefix,
                        task_slug,
                        label,
                        label,
                        passed,
                        total,
                        mark,
                    )
                )
                continue
            # The visible number is the score ×100; a title adds only what the
            # cell cannot show (flags, why there is no link), keeping a
            # 20,000-cell page small.
            mark = ""
            if flags:
                classes = f"{_HEAT[shown]} flagged"
                tip = f"{score(value)} · " + ", ".join(flags)
                if any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags):
                    classes += " raised"
                    mark = RAISED_MARK
            else:
                classes, tip = _HEAT[shown], ""
            if not released:
                # The column header and the hatch say "unreleased".
                attrs = html(' title="{}"', tip) if tip else ""
                out.append(html('<td class="{} unreleased"{}>{}</td>', classes, attrs, shown))
            elif visible and has_detail:
                # The link names its model, task and score for a screen reader
                # and as a tooltip: "12" alone says nothing out of the grid.
                label = html("{}", f"{name} on {title}: {shown}" + (f" ({tip})" if tip else ""))
                out.append(
                    html(
                        '<td class="{}"><a href="{}{}/" title="{}" aria-label="{}">{}{}</a></td>',
                        classes,
                        attempt_prefix,
                        task_slug,
                        label,
                        label,
                        shown,
                        mark,
                    )
                )
            else:
                # Staged (staff only), or released without an attempt folder.
                why = "detail not public" if not visible else "no attempt folder"
                tip = f"{tip} · {why}" if tip else f"{score(value)} · {why}"
                out.append(html('<td class="{} no-detail" title="{}">{}</td>', classes, tip, shown))
        out.append(_ROW_END)
    return html_join(out)


_ROW_END = html("</tr>")
