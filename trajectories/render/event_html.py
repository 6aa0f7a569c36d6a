"""The HTML of trajectory events, written in Python rather than a template.

A Django template costs about a millisecond per event here, ten seconds for a
10,000-event trajectory; this renders the same markup in a few microseconds
per event. Every value that comes from the release goes through ``esc``
(``html.escape`` with quotes): nothing untrusted reaches the page unescaped.
"""

from __future__ import annotations

from html import escape as _escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from core import formatting
from trajectories.render.heights import HEIGHT_BLOCK, MOST_LINES, event_lines
from trajectories.render.transcript_html import line_href


def esc(value: Any) -> str:
    return _escape(str(value), quote=True)


def _status(e: dict) -> str:
    if e["type"] != "tool_call":
        return ""
    if not e["returned"]:
        return ' <span class="badge badge-warn">never returned</span>'
    code = "" if e["exit_code"] is None else f" · exit {esc(e['exit_code'])}"
    if e["ok"]:
        return f' <span class="badge badge-ok">ok{code}</span>'
    return f' <span class="badge badge-fail">failed{code}</span>'


def _meta(e: dict) -> str:
    parts = []
    if e["clock"]:
        # Plain text, not <time>: one element less per event on long pages.
        parts.append(esc(e["clock"]))
    if e["elapsed"]:
        parts.append(f" {e['elapsed']}")
    if e["duration_ms"] is not None:
        parts.append(f" · {esc(e['duration_ms'])} ms")
    tokens = e["tokens"]
    if tokens:
        parts.append(f" · {esc(tokens.get('input'))} in / {esc(tokens.get('output'))} out tokens")
    return "".join(parts)


def _full_link(url: str, label: str, length: int) -> str:
    return f'<a class="full" href="{url}">{label} ({formatting.chars(length)} characters)</a>'


def _lines_link(lines: list[int] | None, transcript_url: str) -> str:
    """Links to the transcript lines the event came from: each of up to three,
    else the first and the last."""
    if not lines:
        return ""
    shown = lines if len(lines) <= 3 else [lines[0], lines[-1]]
    links = [f'<a href="{line_href(transcript_url, int(n))}">L{int(n)}</a>' for n in shown]
    joined = ", ".join(links) if len(lines) <= 3 else f"{links[0]} … {links[1]}"
    return f'<span class="ev-src" title="transcript.jsonl lines">{joined}</span>'


def render_event(e: dict, event_url: str, transcript_url: str = "") -> str:
    """One event (a view from ``events.event_view``) as an ``<li id="e<index>">``."""
    index = e["index"]
    # ev-lN: its estimated height, the room it takes until it is first drawn
    # (content-visibility), the same estimate its slice's placeholder used.
    height = min(event_lines(e), MOST_LINES)
    classes = f"ev ev-{e['kind']} ev-l{height}" + (" ev-problem" if e["problem"] else "")
    full_url = f"{event_url}{index}/"
    out = [
        f'<li class="{classes}" id="e{index}"><div class="ev-head">',
        f'<a class="ev-anchor" href="#e{index}">#{index}</a> ',
        f'<span class="ev-type">{esc(e["type"])}</span>',
    ]
    if e.get("tool"):
        out.append(f' <span class="ev-tool">{esc(e["tool"])}</span>')
    out.append(_status(e))
    if e.get("source"):
        out.append(f' <span class="badge badge-fail">{esc(e["source"])}</span>')
    # The copy-link button is added by attempt.js to the event under the pointer
    # or focus: one button instead of ten thousand that do nothing without JS.
    meta = _meta(e)
    lines = _lines_link(e.get("lines"), transcript_url) if transcript_url else ""
    if meta and lines:
        meta += " · "
    out.append(f' <span class="ev-meta">{meta}{lines}</span></div>')
    if "text" in e:
        text = (
            f'<div class="ev-text" dir="auto">{esc(e["text"])}{"…" if e["text_cut"] else ""}</div>'
        )
        if e["text_cut"]:
            text += _full_link(full_url, "Full text", e["text_length"])
        if e["kind"] == "reasoning":
            summary = f"Reasoning ({formatting.chars(e['text_length'])} characters)"
            text = f'<details class="ev-body"><summary>{summary}</summary>{text}</details>'
        out.append(text)
    if e.get("command") is not None:
        more = "…" if e["command_cut"] else ""
        out.append(
            '<pre class="ev-cmd"><span class="prompt" aria-hidden="true">$ </span>'
            f"{esc(e['command'])}{more}</pre>"
        )
    if e.get("input") is not None:
        out.append(f'<pre class="ev-input">{esc(e["input"])}{"…" if e["input_cut"] else ""}</pre>')
    if e.get("output") is not None:
        more = "…" if e["output_cut"] else ""
        out.append(f'<pre class="ev-out" dir="auto">{esc(e["output"])}{more}</pre>')
        if e["output_cut"]:
            out.append(_full_link(full_url, "Full output", e["output_length"]))
    elif e["type"] == "tool_call" and not e["returned"]:
        out.append('<p class="ev-note">The call never returned: no result was recorded.</p>')
    if e.get("extra"):
        more = "…" if e["extra_cut"] else ""
        out.append(
            f'<details class="ev-extra"><summary>More fields</summary>'
            f"<pre>{esc(e['extra'])}{more}</pre></details>"
        )
    out.append("</li>\n")
    return "".join(out)


def render_events(views: list[dict], event_url: str, transcript_url: str = "") -> SafeString:
    """All events' HTML; ``event_url`` is the attempt's ``…/events/`` prefix and
    ``transcript_url`` its transcript page (trusted URLs)."""
    return mark_safe("".join(render_event(e, event_url, transcript_url) for e in views))  # noqa: S308 - escaped above


def range_lines(blocks: list[int], first: int, last: int) -> int:
    """Estimated lines of events ``first`` to ``last`` from the import's
    per-block figures (a block cut by the range counts pro rata)."""
    total = 0.0
    for block in range(first // HEIGHT_BLOCK, last // HEIGHT_BLOCK + 1):
        if block >= len(blocks):
            break
        start = block * HEIGHT_BLOCK
        inside = min(last, start + HEIGHT_BLOCK - 1) - max(first, start) + 1
        total += blocks[block] * inside / HEIGHT_BLOCK
    return round(total)


def render_slice_stubs(ranges: list[tuple[int, int]], event_url: str, blocks: list[int]) -> str:
    """A placeholder per slice not on the page: a link to its slice page, which
    the attempt page's script replaces by the slice's events when needed, and
    sizes from ``data-lines`` (estimated at import, ``blocks``) meanwhile."""
    out = []
    for first, last in ranges:
        lines = f' data-lines="{range_lines(blocks, first, last)}"' if blocks else ""
        out.append(
            f'<li class="ev-more" data-from="{first}" data-last="{last}"{lines}>'
            f'<a href="{event_url}?from={first}">Events {first}–{last}</a></li>'
        )
    return "".join(out)
