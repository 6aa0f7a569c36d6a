"""A raw transcript as HTML lines with anchors, rendered while it streams.

One ``<div id="L<n>">`` per line (blocks, not list items: Chromium renumbers
list items quadratically). Lines are split as the bytes arrive, so a 50 MB
transcript is never one string in memory; every line is decoded leniently,
its control characters made visible and its text escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html import escape

from trajectories.render.text import visible


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of the bytes in ``chunks``, without their ``\\n``; a final
    newline ends the last line (it does not start an empty one)."""
    pending: list[bytes] = []
    for chunk in chunks:
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            pending.append(chunk[start:end])
            yield b"".join(pending)
            pending.clear()
            start = end + 1
        if start < len(chunk):
            pending.append(chunk[start:])
    if pending:
        yield b"".join(pending)


def render_line(number: int, raw: bytes, event: int | None, reason: str | None) -> str:
    text = raw.decode("utf-8", errors="replace")
    if text.endswith("\r"):
        text = text[:-1]
    body = escape(visible(text), quote=False)
    note = ""
    css = "tl"
    if event is not None:
        note = f'<a class="tl-ev" href="../#e{event}">#{event}</a>'
    elif reason is not None:
        css = "tl tl-unmapped"
        note = f'<span class="tl-why">{escape(reason, quote=True)}</span>'
    return (
        f'<div class="{css}" id="L{number}"><a class="ln" href="#L{number}">{number}</a>'
        f"{note}<code>{body}</code></div>\n"
    )


def render_lines(
    chunks: Iterable[bytes],
    *,
    events: dict[int, int],
    unmapped: dict[int, str],
    piece_bytes: int,
) -> Iterator[str]:
    """The transcript's lines as HTML in pieces of about ``piece_bytes``.

    ``events`` maps a line number to the first event that came from it,
    ``unmapped`` a line that gave no event to the normaliser's reason.
    """
    out: list[str] = []
    size = 0
    for number, raw in enumerate(split_lines(chunks), start=1):
        html = render_line(number, raw, events.get(number), unmapped.get(number))
        out.append(html)
        size += len(html)
        if size >= piece_bytes:
            yield "".join(out)
            out.clear()
            size = 0
    if out:
        yield "".join(out)
