"""Formatting filters and small widgets shared by the scoreboard pages.

Load with ``{% load board %}``. Numbers are formatted in one place so the
leaderboard, matrix, model and task pages agree on "0.573" versus "57.3%".
"""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString

from core import formatting
from core.html import html, html_join

register = template.Library()

HEAT_STEPS = 10
# breakable: a break opportunity after each of these.
_BREAK_AFTER = re.compile(r"(?<=[_./])")


register.filter("score", formatting.score)
register.filter("usd", formatting.usd)
register.filter("cost", formatting.cost)
register.filter("signed", formatting.signed)
register.filter("duration", formatting.duration)
register.filter("size", formatting.size)
register.filter("figure", formatting.figure)
register.filter("reward", formatting.reward)


@register.filter
def model_cost(model) -> str:
    """A model's summed cost: "$12.30", "$12.30 + 3 unknown" or "unknown"."""
    return formatting.cost_sum(model.cost_usd, model.cost_unknown_trials)


@register.filter
def breakable(name: str) -> SafeString:
    """An identifier (test_fix_etl_checkpoint_resume_bug_happy_path) with a
    break opportunity after each underscore, dot or slash, so a narrow column
    wraps it between words rather than overflowing or splitting a word."""
    return html_join(_BREAK_AFTER.split(str(name)), "<wbr>")


@register.filter
def pass_rate(model) -> str:
    """A pass-fail model's score with its counts: "34.1% (15/44)", or with
    several trials of a task "34.1%: 15 of 46 trials on 44 tasks"; a
    published-only row (no per-task results) "74.4% (published)"."""
    if getattr(model, "published_only", False):
        return f"{model.score * 100:.1f}% (published)"
    return formatting.model_rate(
        model.score, model.passed, max(getattr(model, "trials", 0), model.tasks), model.tasks
    )


@register.filter
def rank_range(model) -> str:
    """The model's rank range ("1", "2–5"); its rank where it has none."""
    return formatting.rank_range(model.rank_low, model.rank_high, model.rank)


@register.filter
def get_key(mapping, key):
    """``mapping[key]`` in a template (None when absent)."""
    return mapping.get(str(key)) if mapping else None


def heat_class(value: float | None) -> str:
    """The heat-map colour class of a score: heat-0 (0) … heat-10 (1)."""
    if value is None:
        return "heat-none"
    return f"heat-{round(min(max(value, 0.0), 1.0) * HEAT_STEPS)}"


register.filter("heat", heat_class)


@register.simple_tag(takes_context=True)
def sort_header(
    context, label: str, key: str, *, descending: bool = False, num: bool = False, cls: str = ""
):
    """A sortable column header: a link that sorts by ``key`` in its natural
    direction, or reverses the sort when it is already the current one.

    The current sort comes from the ``sort`` query parameter ("-key" is
    descending); the link keeps every other parameter, so filters survive.
    """
    request = context["request"]
    current = context.get("sort") or request.GET.get("sort", "")
    natural = f"-{key}" if descending else key
    reverse = key if descending else f"-{key}"
    target = reverse if current == natural else natural
    query = request.GET.copy()
    query["sort"] = target
    query.pop("page", None)
    aria = ""
    if current in (key, f"-{key}"):
        aria = "descending" if current.startswith("-") else "ascending"
    # Every sortable header shows that it sorts, not only on hover: ↕ until it
    # is the current sort, then the direction.
    arrow = {"ascending": "▲", "descending": "▼"}.get(aria, "↕")
    return html(
        '<th scope="col" class="{}"{}><a href="?{}">{}<span class="sort-icon"'
        ' aria-hidden="true">{}</span></a></th>',
        " ".join(filter(None, ["num sortable" if num else "sortable", cls])),
        html(' aria-sort="{}"', aria) if aria else "",
        query.urlencode(),
        label,
        arrow,
    )


@register.simple_tag
def level_label(level: str) -> str:
    """Check levels as the release format names them; others shown as given."""
    return LEVELS.get(level, level)


LEVELS = {"L1": "functional", "L2": "protocol", "L3": "code quality"}


@register.simple_tag(takes_context=True)
def format_url(context, fmt: str) -> str:
    """This page's address with ``format=fmt``: a download that keeps the filters."""
    query = context["request"].GET.copy()
    query["format"] = fmt
    return "?" + query.urlencode()
