"""The HTML of trajectory events, written in Python rather than a template.

A Django template costs about a millisecond per event here, ten seconds for a
10,000-event trajectory; this renders the same markup in a few microseconds
per event. Every fragment is made by a template compiled by
``core.html.html_template``, which escapes each value it fills in: nothing
untrusted reaches the page unescaped.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.safestring import SafeString

from core import formatting
from core.html import html, html_join, html_template
from trajectories.render.events import KNOWN_TYPES
from trajectories.render.heights import HEIGHT_BLOCK, MOST_LINES, event_lines
from trajectories.render.transcript_html import page_start

_EMPTY = html("")
_PROBLEM = html(" ev-problem")
_MORE = html("…")
# Type and kind names as they are written: looked up, not escaped, per event
# (a type outside these is escaped as it is filled in).
_NAMES = {name: html("{}", name) for name in (*KNOWN_TYPES, "other")}
_HEAD = html_template(
    '<li class="ev ev-{0} ev-l{1}{2}" id="e{3}"><div class="ev-head">'
    '<a class="ev-anchor" href="#e{3}">#{3}</a> <span class="ev-type">{4}</span>'
)
_HEAD_TOOL = html_template(
    '<li class="ev ev-{0} ev-l{1}{2}" id="e{3}"><div class="ev-head">'
    '<a class="ev-anchor" href="#e{3}">#{3}</a> <span class="ev-type">{4}</span>'
    ' <span class="ev-tool">{5}</span>'
)
_NEVER_RETURNED = html(' <span class="badge badge-warn">never returned</span>')
_OK = html(' <span class="badge badge-ok">ok</span>')
_OK_EXIT = html_template(' <span class="badge badge-ok">ok · exit {}</span>')
_FAILED = html(' <span class="badge badge-fail">failed</span>')
_FAILED_EXIT = html_template(' <span class="badge badge-fail">failed · exit {}</span>')
_SOURCE = html_template(' <span class="badge badge-fail">{}</span>')
# The head's last part: time and offset (the usual case: both, one template),
# duration, tokens, then the links to transcript lines.
_META = html_template(' <span class="ev-meta">{}{}{}{}{}</span></div>')
_META_AT = html_template(' <span class="ev-meta">{} {}{}{}{}{}</span></div>')
_META_SEP = html(" · ")
_ELAPSED = html_template(" {}")
_DURATION = html_template(" · {} ms")
_TOKENS = html_template(" · {} in / {} out tokens")
# Links to one, two or three transcript lines, or to the first and the last of
# more: the transcript's address, then per line its page's query and number.
_SOURCE_LINES = {
    1: html_template(
        '<span class="ev-src" title="transcript.jsonl lines"><a href="{0}{1}#L{2}">L{2}</a></span>'
    ),
    2: html_template(
        '<span class="ev-src" title="transcript.jsonl lines"><a href="{0}{1}#L{2}">L{2}</a>, '
        '<a href="{0}{3}#L{4}">L{4}</a></span>'
    ),
    3: html_template(
        '<span class="ev-src" title="transcript.jsonl lines"><a href="{0}{1}#L{2}">L{2}</a>, '
        '<a href="{0}{3}#L{4}">L{4}</a>, <a href="{0}{5}#L{6}">L{6}</a></span>'
    ),
}
_FIRST_LAST_LINES = html_template(
    '<span class="ev-src" title="transcript.jsonl lines"><a href="{0}{1}#L{2}">L{2}</a> … '
    '<a href="{0}{3}#L{4}">L{4}</a></span>'
)
_PAGE_QUERY = html_template("?from={}")
_TEXT = html_template('<div class="ev-text" dir="auto">{}{}</div>')
_REASONING = html_template(
    '<details class="ev-body"><summary>Reasoning ({} characters)</summary>{}{}</details>'
)
_FULL = html_template('<a class="full" href="{}{}/">{} ({} characters)</a>')
_COMMAND = html_template(
    '<pre class="ev-cmd"><span class="prompt" aria-hidden="true">$ </span>{}{}</pre>'
)
_INPUT = html_template('<pre class="ev-input">{}{}</pre>')
_OUTPUT = html_template('<pre class="ev-out" dir="auto">{}{}</pre>')
_NO_RESULT = html('<p class="ev-note">The call never returned: no result was recorded.</p>')
_EXTRA = html_template(
    '<details class="ev-extra"><summary>More fields</summary><pre>{}{}</pre></details>'
)
_LI_END = html("</li>\n")
# A slice not on the page (render_slice_stubs).
_STUB = html_template(
    '<li class="ev-more" data-from="{0}" data-last="{1}"{2}>'
    '<a href="{3}?from={0}">Events {0}–{1}</a></li>'
)
_LINES_DATA = html_template(' data-lines="{}"')


def _status(e: dict) -> SafeString:
    if e["type"] != "tool_call":
        return _EMPTY
    if not e["returned"]:
        return _NEVER_RETURNED
    code = e["exit_code"]
    if e["ok"]:
        return _OK if code is None else _OK_EXIT(code)
    return _FAILED if code is None else _FAILED_EXIT(code)


def _meta(e: dict, lines: SafeString) -> SafeString:
    clock, elapsed, duration, tokens = e["clock"], e["elapsed"], e["duration_ms"], e["tokens"]
    took = _EMPTY if duration is None else _DURATION(duration)
    used = _TOKENS(tokens.get("input"), tokens.get("output")) if tokens else _EMPTY
    shown = clock or elapsed or duration is not None or tokens
    sep = _META_SEP if shown and lines else _EMPTY
    # Plain text, not <time>: one element less per event on long pages.
    if clock and elapsed:
        return _META_AT(clock, elapsed, took, used, sep, lines)
    moment = clock or (_ELAPSED(elapsed) if elapsed else _EMPTY)
    return _META(moment, took, used, sep, lines)


class _Links:
    """What every event of one render shares: its addresses, escaped once."""

    def __init__(self, event_url: str, transcript_url: str):
        self.events = html("{}", event_url)
        self.transcript = html("{}", transcript_url) if transcript_url else None
        self.per_page = settings.BENCHVIEW_LIMITS["transcript_page_lines"]
        # Per first line of a transcript page, its query ("" for the first
        # page), as ``line_href`` writes it.
        self.queries: dict[int, SafeString] = {1: _EMPTY}

    def _query(self, number: int) -> SafeString:
        start = page_start(number, self.per_page)
        query = self.queries.get(start)
        if query is None:
            query = self.queries[start] = _PAGE_QUERY(start)
        return query

    def lines(self, lines: list[int] | None) -> SafeString:
        """Links to the transcript lines the event came from: each of up to
        three, else the first and the last."""
        if not lines or self.transcript is None:
            return _EMPTY
        shown = lines if len(lines) <= 3 else (lines[0], lines[-1])
        values: list = [self.transcript]
        for n in shown:
            n = int(n)
            values += (self._query(n), n)
        return _SOURCE_LINES.get(len(lines), _FIRST_LAST_LINES)(*values)

    def full(self, index: int, label: str, length: int) -> SafeString:
        return _FULL(self.events, index, label, formatting.chars(length))


def _event(e: dict, links: _Links, out: list[SafeString]) -> None:
    """One event (a view from ``events.event_view``) as an ``<li id="e<index>">``,
    its fragments added to ``out``."""
    index, kind, event_type = e["index"], e["kind"], e["type"]
    # ev-lN: its estimated height, the room it takes until it is first drawn
    # (content-visibility), the same estimate its slice's placeholder used.
    height = min(event_lines(e), MOST_LINES)
    problem = _PROBLEM if e["problem"] else _EMPTY
    kind_name, type_name = _NAMES.get(kind, kind), _NAMES.get(event_type, event_type)
    if tool := e.get("tool"):
        out.append(_HEAD_TOOL(kind_name, height, problem, index, type_name, tool))
    else:
        out.append(_HEAD(kind_name, height, problem, index, type_name))
    out.append(_status(e))
    if e.get("source"):
        out.append(_SOURCE(e["source"]))
    # The copy-link button is added by attempt.js to the event under the pointer
    # or focus: one button instead of ten thousand that do nothing without JS.
    out.append(_meta(e, links.lines(e.get("lines"))))
    if "text" in e:
        cut = e["text_cut"]
        text = _TEXT(e["text"], _MORE if cut else _EMPTY)
        full = links.full(index, "Full text", e["text_length"]) if cut else _EMPTY
        if kind == "reasoning":
            out.append(_REASONING(formatting.chars(e["text_length"]), text, full))
        else:
            out.append(text)
            out.append(full)
    if e.get("command") is not None:
        out.append(_COMMAND(e["command"], _MORE if e["command_cut"] else _EMPTY))
    if e.get("input") is not None:
        out.append(_INPUT(e["input"], _MORE if e["input_cut"] else _EMPTY))
    if e.get("output") is not None:
        out.append(_OUTPUT(e["output"], _MORE if e["output_cut"] else _EMPTY))
        if e["output_cut"]:
            out.append(links.full(index, "Full output", e["output_length"]))
    elif event_type == "tool_call" and not e["returned"]:
        out.append(_NO_RESULT)
    if e.get("extra"):
        out.append(_EXTRA(e["extra"], _MORE if e["extra_cut"] else _EMPTY))
    out.append(_LI_END)


def render_events(views: list[dict], event_url: str, transcript_url: str = "") -> SafeString:
    """All events' HTML; ``event_url`` is the attempt's ``…/events/`` prefix and
    ``transcript_url`` its transcript page (without it, no links to lines)."""
    links = _Links(event_url, transcript_url)
    out: list[SafeString] = []
    # Each event's fragments joined as it ends: a SafeString is an object the
    # garbage collector tracks, and thousands alive at once set off its passes.
    for e in views:
        parts: list[SafeString] = []
        _event(e, links, parts)
        out.append(html_join(parts))
    return html_join(out)


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
    return html_join(
        [
            _STUB(
                first,
                last,
                _LINES_DATA(range_lines(blocks, first, last)) if blocks else _EMPTY,
                event_url,
            )
            for first, last in ranges
        ]
    )
