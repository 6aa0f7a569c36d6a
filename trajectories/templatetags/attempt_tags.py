"""Number formatting for the attempt and compare pages. Load with ``{% load attempt_tags %}``."""

from __future__ import annotations

from django import template

from leaderboard import formatting
from trajectories.render import text

register = template.Library()


# The scoreboard's formats, under the names these templates use.
register.filter("score3", formatting.score)
register.filter("usd", formatting.usd)
register.filter("cost", formatting.cost)
register.filter("count", formatting.count)
register.filter("seconds", formatting.duration)


@register.filter
def chars(value: int | None) -> str:
    """A length in characters, short: 1234 -> "1.2k", 5242880 -> "5.2M"."""
    if value is None:
        return formatting.DASH
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 1_000:
        return f"{value / 1_000:.1f}k"
    return str(value)


@register.filter
def get(mapping, key):
    """``mapping[key]`` or None (for dicts keyed by strings with dashes)."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def visible(value: str | None) -> str:
    """Control characters shown as control pictures (the result is still escaped)."""
    return text.visible(value)
