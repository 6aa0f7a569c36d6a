"""The HTML of trajectory events, written in Python rather than a template.

A Django template costs about a millisecond per event here, ten seconds for a
10,000-event trajectory; this renders the same markup in a few microseconds
per event. Every fragment is made by ``core.html.html``, which escapes each
value it fills in: nothing untrusted reaches the page unescaped.
"""

from __future__ import annotations

from django.utils.safestring import SafeString

from core import formatting
from core.html import html, html_join
from trajectories.render.heights import HEIGHT_BLOCK, MOST_LINES, event_lines
from trajectories.render.transcript_html import line_href

_NEVER_RETURNED = html(' <span class="badge badge-warn">never returned</span>')
_NO_RESULT = html('<p class="ev-note">The call never returned: no result was recorded.</p>')
_EMPTY = html("")


def _status(e: dict) -> SafeString:
    if e["type"] != "tool_call":
        return _EMPTY
    if not e["returned"]:
        return _NEVER_RETURNED
    code = "" if e["exit_code"] is None else f" · exit {e['exit_code']}"
    if e["ok"]:
        return html(' <span class="badge badge-ok">ok{}</span>', code)
    return html(' <span class="badge badge-fail">failed{}</span>', code)


def _meta(e: dict) -> list:
    parts = []
    if e["clock"]:
        # Plain text, not <time>: one element less per event on long pages.
        parts.append(e["clock"])
    if e["elapsed"]:
        parts.append(f" {e['elapsed']}")
    if e["duration_ms"] is not None:
        parts.append(f" · {e['duration_ms']} ms")
    tokens = e["tokens"]
    if tokens:
        parts.append(f" · {tokens.get('input')} in / {tokens.get('output')} out tokens")
    return parts


def _full_link(url: str, label: str, length: int) -> SafeString:
    return html(
        '<a class="full" href="{}">{} ({} characters)</a>', url, label, formatting.chars(length)
    )


def _lines_link(lines: list[int] | None, transcript_url: str) -> SafeString:
    """Links to the transcript lines the event came from: each of up to three,
    else the first and the last."""
    if not lines:
        return _EMPTY
    shown = lines if len(lines) <= 3 else [lines[0], lines[-1]]
    links = [html('<a href="{}">L{}</a>', line_href(transcript_url, int(n)), int(n)) for n in shown]
    joined = html_join(links, ", ") if len(lines) <= 3 else html("{} … {}", *links)
    return html('<span class="ev-src" title="transcript.jsonl lines">{}</span>', joined)


def render_event(e: dict, event_url: str, transcript_url: str = "") -> SafeString:
    """One event (a view from ``events.event_view``) as an ``<li id="e<index>">``."""
    index = e["index"]
    # ev-lN: its estimated height, the room it takes until it is first drawn
    # (content-visibility), the same estimate its slice's placeholder used.
    height = min(event_lines(e), MOST_LINES)
    classes = f"ev ev-{e['kind']} ev-l{height}" + (" ev-problem" if e["problem"] else "")
    full_url = f"{event_url}{index}/"
    out = [
        html(
            '<li class="{}" id="e{}"><div class="ev-head"><a class="ev-anchor" href="#e{}">#{}</a> '
            '<span class="ev-type">{}</span>',
            classes,
            index,
            index,
            index,
            e["type"],
        )
    ]
    if e.get("tool"):
        out.append(html(' <span class="ev-tool">{}</span>', e["tool"]))
    out.append(_status(e))
    if e.get("source"):
        out.append(html(' <span class="badge badge-fail">{}</span>', e["source"]))
    # The copy-link button is added by attempt.js to the event under the pointer
    # or focus: one button instead of ten thousand that do nothing without JS.
    meta = _meta(e)
    lines = _lines_link(e.get("lines"), transcript_url) if transcript_url else _EMPTY
    if meta and lines:
        meta.append(" · ")
    out.append(html(' <span class="ev-meta">{}{}</span></div>', html_join(meta), lines))
    if "text" in e:
        cut = "…" if e["text_cut"] else ""
        text = html('<div class="ev-text" dir="auto">{}{}</div>', e["text"], cut)
        if e["text_cut"]:
            text += _full_link(full_url, "Full text", e["text_length"])
        if e["kind"] == "reasoning":
            summary = f"Reasoning ({formatting.chars(e['text_length'])} characters)"
            text = html('<details class="ev-body"><summary>{}</summary>{}</details>', summary, text)
        out.append(text)
    if e.get("command") is not None:
        out.append(
            html(
                '<pre class="ev-cmd"><span class="prompt" aria-hidden="true">$ </span>{}{}</pre>',
                e["command"],
                "…" if e["command_cut"] else "",
            )
        )
    if e.get("input") is not None:
        cut = "…" if e["input_cut"] else ""
        out.append(html('<pre class="ev-input">{}{}</pre>', e["input"], cut))
    if e.get("output") is not None:
        cut = "…" if e["output_cut"] else ""
        out.append(html('<pre class="ev-out" dir="auto">{}{}</pre>', e["output"], cut))
        if e["output_cut"]:
            out.append(_full_link(full_url, "Full output", e["output_length"]))
    elif e["type"] == "tool_call" and not e["returned"]:
        out.append(_NO_RESULT)
    if e.get("extra"):
        out.append(
            html(
                '<details class="ev-extra"><summary>More fields</summary><pre>{}{}</pre></details>',
                e["extra"],
                "…" if e["extra_cut"] else "",
            )
        )
    out.append(_LI_END)
    return html_join(out)


_LI_END = html("</li>\n")


def render_events(views: list[dict], event_url: str, transcript_url: str = "") -> SafeString:
    """All events' HTML; ``event_url`` is the attempt's ``…/events/`` prefix and
    ``transcript_url`` its transcript page (trusted URLs)."""
    return html_join(render_event(e, event_url, transcript_url) for e in views)


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


def render_slice_stubs(
    ranges: list[tuple[int, int]], event_url: str, blocks: list[int]
) -> SafeString:
    """A placeholder per slice not on the page: a link to its slice page, which
    the attempt page's script replaces by the slice's events when needed, and
    sizes from ``data-lines`` (estimated at import, ``blocks``) meanwhile."""
    out = []
    for first, last in ranges:
        lines = html(' data-lines="{}"', range_lines(blocks, first, last)) if blocks else _EMPTY
        out.append(
            html(
                '<li class="ev-more" data-from="{}" data-last="{}"{}>'
                '<a href="{}?from={}">Events {}–{}</a></li>',
                first,
                last,
                lines,
                event_url,
                first,
                first,
                last,
            )
        )
    return html_join(out)
