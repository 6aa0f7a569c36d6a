"""Number formatting for the attempt and compare pages. Load with ``{% load attempt_tags %}``."""

from __future__ import annotations

from django import template
from django.urls import reverse

from core import formatting
from trajectories.render import text
from trajectories.render.transcript_html import line_href

register = template.Library()


# The scoreboard's formats, under the names the ``board`` library gives them.
register.filter("score", formatting.score)
register.filter("usd", formatting.usd)
register.filter("cost", formatting.cost)
register.filter("count", formatting.count)
register.filter("duration", formatting.duration)
register.filter("chars", formatting.chars)
# {{ transcript_url|line_href:n }}: line n on the transcript page that holds it.
register.filter("line_href", line_href)


@register.filter
def get(mapping, key):
    """``mapping[key]`` or None (for dicts keyed by strings with dashes)."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def visible(value: str | None) -> str:
    """Control characters shown as control pictures (the result is still escaped)."""
    return text.visible(value)


@register.simple_tag
def attempt_page(attempt, trial: int | None = None) -> str:
    """The attempt's page; a further trial's is under ``trials/<n>/`` (docs/harbor.md).
    With ``trial``, that trial's page of the same model on the same task."""
    args = [attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    trial = attempt.trial if trial is None else trial
    if trial:
        return reverse("attempt-trial", args=[*args, trial])
    return reverse("attempt", args=args)


@register.simple_tag
def attempt_file(attempt, filename: str) -> str:
    """One of the attempt's files in the /data/v1 mirror (a trial's from its folder)."""
    args = [attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    if attempt.trial:
        return reverse("mirror-trial-file", args=[*args, attempt.trial, filename])
    return reverse("mirror-attempt-file", args=[*args, filename])


@register.simple_tag(takes_context=True)
def event_href(context, index: int) -> str:
    """The link to event ``index`` from the attempt page: its anchor when the page
    holds it, else its slice page (which marks it), so the link works without the
    page's script; the script keeps such links on the page and loads the slice."""
    index = int(index)
    if index < context.get("shown", index + 1):
        return f"#e{index}"
    start = index // context["slice_size"] * context["slice_size"]
    return f"{context['events_url']}?from={start}#e{index}"
