"""The heat map's table body, built as one string.

A page of the matrix holds up to 100 models × 200 tasks: 20,000 cells. The
template language costs tens of microseconds per cell, so the cells are
written here, each by a template compiled by ``core.html.html_template``
(which escapes every value it fills in), and handed to the page's template as
one safe string (about 20 ms for such a page). Text from the release (names,
titles, slugs) is escaped once per row or column; a cell's own values are
numbers and class names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString

from core.formatting import score
from core.html import html, html_join, html_template
from formats.v1.scoring import EXCEPTION_FLAG_PREFIX
from leaderboard.queries import (
    CELL_DETAIL,
    CELL_FLAGS,
    CELL_SCORE,
    NO_FLAGS,
    MatrixTask,
    cell_flags,
)
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

# The classes of a cell for each of the 101 scores it can show, looked up
# instead of computed: as it is, flagged, and flagged with a trial that raised.
_HEAT = [html("{}", heat_class(i / 100)) for i in range(101)]
_HEAT_FLAGGED = [html("{} flagged", heat) for heat in _HEAT]
_HEAT_FLAGGED_RAISED = [html("{} flagged raised", heat) for heat in _HEAT]
_HEAT_RAISED = [html("{} raised", heat) for heat in _HEAT]

_EMPTY = html("")
_ROW_START = html_template(
    '<tr><th scope="row" class="m-name"><a href="{}{}/">{}</a>'
    '<span class="m-harness">{}</span></th><td class="m-score num">{}</td>'
)
_ROW_END = html("</tr>")
_MISSING = html('<td class="heat-none" title="no attempt (missing-attempt)">–</td>')
# Values: classes, the row's attempt address, the task's slug, the model's
# name, the task's title, trials passed, trials, ", n raised an exception" or
# nothing, the raised mark or nothing.
_TRIALS = html_template(
    '<td class="{0} trials"><a href="{1}{2}/" title="{3} on {4}: {5} of {6} trials passed{7}" '
    'aria-label="{3} on {4}: {5} of {6} trials passed{7}">{5}/{6}{8}</a></td>'
)
_RAISED_TRIALS = html_template(", {} raised an exception")
# A cell's title, when it has flags: its exact score and its flags.
_FLAGS_TIP = html_template("{} · {}")
_UNRELEASED = html_template('<td class="{} unreleased">{}</td>')
_UNRELEASED_TIP = html_template('<td class="{} unreleased" title="{}">{}</td>')
# Values: classes, the row's attempt address, the task's slug, the model's
# name, the task's title, the figure, the raised mark or nothing (and the tip).
_LINKED = html_template(
    '<td class="{0}"><a href="{1}{2}/" title="{3} on {4}: {5}" '
    'aria-label="{3} on {4}: {5}">{5}{6}</a></td>'
)
_LINKED_TIP = html_template(
    '<td class="{0}"><a href="{1}{2}/" title="{3} on {4}: {5} ({7})" '
    'aria-label="{3} on {4}: {5} ({7})">{5}{6}</a></td>'
)
_NO_DETAIL = html_template('<td class="{} no-detail" title="{} · {}">{}</td>')


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
    out: list[SafeString] = []  # one SafeString per row (see below)
    column_bits = [
        (c.pk, html("{}", c.slug), c.released, c.visible, html("{}", c.title)) for c in columns
    ]
    model_prefix = _address_prefix("model", bench)
    for row in rows:
        attempt_prefix = html("{}", _address_prefix("attempt", bench, row.slug))
        name = html("{}", row.display_name)
        shown = pass_rate(row) if percent else score(row.score)
        # Each row joined as it ends: a SafeString is an object the garbage
        # collector tracks, and 20,000 of them alive at once would set off its
        # full passes (tens of ms each); 200 at a time do not.
        cells_out = [_ROW_START(model_prefix, row.slug, name, row.harness, shown)]
        row_cells = cells.get(row.pk, {})
        row_trials = trials.get(row.pk, {}) if trials else {}
        for task_pk, task_slug, released, visible, title in column_bits:
            cell = row_cells.get(task_pk)
            if cell is None:
                cells_out.append(_MISSING)
                continue
            value, has_detail = cell[CELL_SCORE], cell[CELL_DETAIL]
            # In range (the usual case) clamping changes nothing: two calls saved.
            shown = (
                round(value * 100)
                if 0.0 <= value <= 1.0
                else round(min(max(value, 0.0), 1.0) * 100)
            )
            counted = row_trials.get(task_pk)
            if counted is not None:
                passed, total, raised = counted
                heat = round(passed / total * 100) if total else 0
                if raised:
                    classes, said, mark = _HEAT_RAISED[heat], _RAISED_TRIALS(raised), RAISED_MARK
                else:
                    classes, said, mark = _HEAT[heat], _EMPTY, _EMPTY
                cells_out.append(
                    _TRIALS(
                        classes, attempt_prefix, task_slug, name, title, passed, total, said, mark
                    )
                )
                continue
            # The visible number is the score ×100; a title adds only what the
            # cell cannot show (flags, why there is no link), keeping a
            # 20,000-cell page small.
            mark = _EMPTY
            # cell_flags only when there are any: most cells have none.
            flags = None if cell[CELL_FLAGS] in NO_FLAGS else cell_flags(cell)
            if not flags:
                classes, tip = _HEAT[shown], None
            else:
                tip = _FLAGS_TIP(score(value), ", ".join(flags))
                if any(f.startswith(EXCEPTION_FLAG_PREFIX) for f in flags):
                    classes, mark = _HEAT_FLAGGED_RAISED[shown], RAISED_MARK
                else:
                    classes = _HEAT_FLAGGED[shown]
            if not released:
                # The column header and the hatch say "unreleased".
                if tip is None:
                    cells_out.append(_UNRELEASED(classes, shown))
                else:
                    cells_out.append(_UNRELEASED_TIP(classes, tip, shown))
            elif visible and has_detail:
                # The link names its model, task and score for a screen reader
                # and as a tooltip: "12" alone says nothing out of the grid.
                if tip is None:
                    cells_out.append(
                        _LINKED(classes, attempt_prefix, task_slug, name, title, shown, mark)
                    )
                else:
                    cells_out.append(
                        _LINKED_TIP(
                            classes, attempt_prefix, task_slug, name, title, shown, mark, tip
                        )
                    )
            else:
                # Staged (staff only), or released without an attempt folder.
                why = "detail not public" if not visible else "no attempt folder"
                cells_out.append(
                    _NO_DETAIL(classes, score(value) if tip is None else tip, why, shown)
                )
        cells_out.append(_ROW_END)
        out.append(html_join(cells_out))
    return html_join(out)
