"""The leaderboard's tie-group cell: a band shared by models whose gap is noise.

Tie groups come from a paired bootstrap over tasks (leaderboard.paired),
stored at import; the cell links to the paired comparison with the next
model down, the one the group boundary is about.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from leaderboard.formatting import signed
from leaderboard.models import Model


def tie_cell(model: Model, *, next_model: Model | None, href: str, percent: bool) -> SafeString:
    """One ``<td>``: the model's tie group, and how it compares with the next model."""
    if model.tie_group is None:
        return mark_safe('<td class="tie">–</td>')
    band = "tie-band-even" if model.tie_group % 2 == 0 else "tie-band-odd"
    link = ""
    title = f"Tie group {model.tie_group}."
    if next_model is not None and model.next_gap_low is not None:
        tied = model.next_gap_low <= 0.0 <= model.next_gap_high
        low = signed(model.next_gap_low, percent)
        high = signed(model.next_gap_high, percent)
        verdict = "not significant: same group" if tied else "significant: a new group starts"
        title += (
            f" Minus {next_model.display_name}: 95% paired interval {low} to {high} ({verdict})."
        )
        link = (
            f' <a class="tie-next" href="{escape(href)}" aria-label="compare with '
            f'{escape(next_model.display_name)}">{"≈" if tied else ">"} next</a>'
        )
    return mark_safe(  # noqa: S308 - every piece escaped above
        f'<td class="tie {band}" title="{escape(title)}">{model.tie_group}{link}</td>'
    )
