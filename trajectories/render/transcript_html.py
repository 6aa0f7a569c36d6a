"""A raw transcript as HTML lines with anchors, rendered while it streams.

One ``<div id="L<n>">`` per line (blocks, not list items: Chromium renumbers
list items quadratically). Lines are split as the bytes arrive, so a 50 MB
transcript is never one string in memory; every line is decoded leniently,
its control characters made visible and its text escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.conf import settings
from django.utils.safestring import SafeString

from core.html import content_lines, html_template
from trajectories.render.text import visible


def page_start(line: int, per_page: int | None = None) -> int:
    """The first line of the transcript page that holds ``line``."""
    per_page = per_page or settings.BENCHVIEW_LIMITS["transcript_page_lines"]
    return (max(line, 1) - 1) // per_page * per_page + 1


def line_href(transcript_url: str, line: int) -> str:
    """The address of ``line`` on its page of the transcript."""
    start = page_start(line)
    return f"{transcript_url}?from={start}#L{line}" if start > 1 else f"{transcript_url}#L{line}"


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


# Bytes below 0x20 (but tab, newline, carriage return) and DEL: never part of
# a multi-byte UTF-8 sequence, so a byte test finds every control character.
_CONTROL_BYTES = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def cut_line(raw: bytes, most: int) -> tuple[bytes, int]:
    """The first ``most`` bytes of a line, ended on a character boundary, and
    how many bytes were left out (0: the whole line)."""
    if len(raw) <= most:
        return raw, 0
    end = most
    while end > 0 and raw[end] & 0xC0 == 0x80:  # inside a UTF-8 character
        end -= 1
    return raw[:end], len(raw) - end


def _text_of(raw_lines: list[bytes]) -> list[SafeString]:
    """Lines decoded (bad bytes as U+FFFD), controls made visible, a CR before
    the line's end dropped, escaped.

    Done on the batch joined, in a few C-speed passes, not line by line: the
    page's time is in these passes on a 50 MB transcript.
    """
    block = b"\n".join(raw_lines)
    has_controls = len(block.translate(None, _CONTROL_BYTES)) != len(block)
    text = block.decode("utf-8", errors="replace")
    if has_controls:
        text = visible(text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").removesuffix("\r")
    return content_lines(text)


# One template per kind of line: one call per line of a 50 MB transcript.
_LINE = html_template(
    '<div class="tl" id="L{0}"><a class="ln" href="#L{0}">{0}</a><code>{1}</code>{2}</div>\n'
)
_EVENT_LINE = html_template(
    '<div class="tl" id="L{0}"><a class="ln" href="#L{0}">{0}</a>'
    '<a class="tl-ev" href="../#e{1}">#{1}</a><code>{2}</code>{3}</div>\n'
)
_UNMAPPED_LINE = html_template(
    '<div class="tl tl-unmapped" id="L{0}"><a class="ln" href="#L{0}">{0}</a>'
    '<span class="tl-why">{1}</span><code>{2}</code>{3}</div>\n'
)
# A cut line: the rest is one click away, the whole line as plain text.
_MORE = html_template('<a class="tl-rest" href="?line={0}">… {1:,} more bytes</a>')
_NOTHING = SafeString("")


def render_lines(
    chunks: Iterable[bytes],
    *,
    events: dict[int, int],
    unmapped: dict[int, str],
    piece_bytes: int,
    first_line: int = 1,
    last_line: int | None = None,
    line_bytes: int | None = None,
) -> Iterator[str]:
    """The transcript's lines as HTML, in pieces of lines holding about
    ``piece_bytes`` of transcript.

    ``events`` maps a line number to the first event that came from it,
    ``unmapped`` a line that gave no event to the normaliser's reason. Only
    lines ``first_line`` to ``last_line`` (None: to the end) are rendered; the
    ones before are split but not decoded. A line longer than ``line_bytes``
    shows its first bytes and a link to the whole line (``?line=N``), so a
    page's size is bounded by its lines whatever their length.
    """
    batch: list[bytes] = []
    rests: list[int] = []
    size = 0
    first = first_line
    for number, raw in enumerate(split_lines(chunks), 1):
        if number < first_line:
            continue
        if last_line is not None and number > last_line:
            break
        raw, rest = cut_line(raw, line_bytes) if line_bytes else (raw, 0)
        batch.append(raw)
        rests.append(rest)
        size += len(raw)
        if size >= piece_bytes:
            yield _render_batch(first, batch, rests, events, unmapped)
            first += len(batch)
            batch, rests, size = [], [], 0
    if batch:
        yield _render_batch(first, batch, rests, events, unmapped)


def _render_batch(
    first: int, batch: list[bytes], rests: list[int], events: dict, unmapped: dict
) -> str:
    out = []
    for (number, body), rest in zip(enumerate(_text_of(batch), start=first), rests, strict=True):
        more = _MORE(number, rest) if rest else _NOTHING
        if (event := events.get(number)) is not None:
            out.append(_EVENT_LINE(number, event, body, more))
        elif (reason := unmapped.get(number)) is not None:
            out.append(_UNMAPPED_LINE(number, reason, body, more))
        else:
            out.append(_LINE(number, body, more))
    return "".join(out)


def whole_line(chunks: Iterable[bytes], number: int) -> bytes | None:
    """Line ``number`` (1-based) of the bytes in ``chunks``, or None past the last."""
    for at, raw in enumerate(split_lines(chunks), 1):
        if at == number:
            return raw
    return None
