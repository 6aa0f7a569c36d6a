"""Number formatting for the attempt and compare pages. Load with ``{% load attempt_tags %}``."""

from __future__ import annotations

from django import template

from trajectories.render import text

register = template.Library()


@register.filter
def score3(value: float | None) -> str:
    """0.5731 -> "0.573"; a missing figure is a dash."""
    return "–" if value is None else f"{value:.3f}"


@register.filter
def usd(value: float | None) -> str:
    return "–" if value is None else f"${value:,.2f}"


@register.filter
def count(value: int | None) -> str:
    """812344 -> "812,344"."""
    return "–" if value is None else f"{value:,}"


@register.filter
def seconds(value: float | None) -> str:
    """412.5 -> "6m 52s"; 11533 -> "3h 12m"."""
    if value is None:
        return "–"
    whole = round(value)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


@register.filter
def chars(value: int | None) -> str:
    """A length in characters, short: 1234 -> "1.2k", 5242880 -> "5.2M"."""
    if value is None:
        return "–"
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
