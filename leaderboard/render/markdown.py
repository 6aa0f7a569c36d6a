"""Ticket Markdown to safe HTML.

markdown-it-py renders CommonMark with raw HTML switched off (so an inline
``<script>`` stays text), then nh3 keeps only a strict allow-list of tags and
attributes and only http(s)/mailto links. Either layer alone would do for
today's renderer; both together mean a future renderer option cannot open a
hole on its own.
"""

from __future__ import annotations

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

ALLOWED_TAGS = frozenset(
    {
        "a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6",
        "hr", "li", "ol", "p", "pre", "s", "strong", "table", "tbody", "td", "th",
        "thead", "tr", "ul",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
ALLOWED_URL_SCHEMES = frozenset({"http", "https", "mailto"})

# "commonmark" with html=False: raw HTML blocks and inline tags are escaped;
# tables and strikethrough come from the GFM-like extras tickets use.
_renderer = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(
    ["table", "strikethrough"]
)


def render_markdown(text: str, *, heading_shift: int = 0) -> SafeString:
    """Untrusted Markdown to HTML that is safe to put in a page as is.

    ``heading_shift`` demotes headings (``#`` becomes ``<h3>`` with 2) so a
    ticket's own title never becomes a second ``<h1>`` on the page.
    """
    env: dict = {}
    tokens = _renderer.parse(text or "", env)
    if heading_shift:
        for token in tokens:
            if token.type in ("heading_open", "heading_close"):
                token.tag = f"h{min(int(token.tag[1]) + heading_shift, 6)}"
    html = _renderer.renderer.render(tokens, _renderer.options, env)
    cleaned = nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(ALLOWED_URL_SCHEMES),
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
    return mark_safe(cleaned)  # noqa: S308 - sanitized by nh3 just above
