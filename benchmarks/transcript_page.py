"""The transcript page's line rendering on a large transcript: MB/s and memory.

    .venv/bin/python benchmarks/transcript_page.py [--mb 50] [--line-bytes 600]

Builds a transcript of about ``--mb`` MB of JSON lines (tool outputs with
HTML and control characters in them, so escaping does real work), feeds it to
``render_lines`` in the pieces file storage gives the page, and reports the
rendering rate beside a same-run baseline (one bare decode and escape of the
whole file, the floor for any escaped page), the HTML size, and in a second
pass the peak memory the rendering allocated (tracemalloc), which must stay
near one piece, not grow with the file. That is the ``?all=1`` page; the
default page holds ``transcript_page_lines`` lines, and the first and the last
such page are timed too (the last reads past every line before it).
Nothing touches a database: the page's queries are fixed (3; see
tests/trajectories/test_transcript_page.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tracemalloc
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def transcript(mb: int, line_bytes: int) -> bytes:
    filler = "<b>out</b> & \x1b[31mred\x1b[0m " * (line_bytes // 30)
    lines = []
    size = 0
    n = 0
    while size < mb * 1_000_000:
        line = json.dumps({"type": "item.completed", "item": {"id": f"i{n}", "text": filler}})
        lines.append(line)
        size += len(line) + 1
        n += 1
    return ("\n".join(lines) + "\n").encode()


def pieces(data: bytes, size: int):
    for start in range(0, len(data), size):
        yield data[start : start + size]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--line-bytes", type=int, default=600)
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    from trajectories.render.transcript_html import page_start, render_lines

    limits = settings.BENCHVIEW_LIMITS
    data = transcript(options.mb, options.line_bytes)
    lines = data.count(b"\n")
    events = {n: n // 2 for n in range(1, lines + 1, 2)}
    unmapped = {n: "not JSON (stderr or other text)" for n in range(2, lines + 1, 50)}

    def render(first: int = 1, last: int | None = None) -> int:
        html = 0
        for piece in render_lines(
            pieces(data, limits["mirror_stream_chunk_bytes"]),
            events=events,
            unmapped=unmapped,
            piece_bytes=limits["transcript_page_chunk_bytes"],
            first_line=first,
            last_line=last,
        ):
            html += len(piece)
        return html

    started = time.perf_counter()
    escape(data.decode("utf-8", errors="replace"), quote=False)
    baseline = time.perf_counter() - started
    started = time.perf_counter()
    html = render()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    render()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    mb = len(data) / 1e6
    print(f"transcript: {mb:.1f} MB, {lines} lines")
    print(f"rendered in {seconds:.2f} s ({mb / seconds:.1f} MB/s), HTML {html / 1e6:.1f} MB")
    print(f"baseline, one decode and escape of the whole file: {baseline:.2f} s")
    print(f"peak memory while rendering (tracemalloc): {peak / 1e6:.1f} MB")
    per_page = limits["transcript_page_lines"]
    for label, first in (("first", 1), ("last", page_start(lines, per_page))):
        started = time.perf_counter()
        html = render(first, first + per_page - 1)
        seconds = time.perf_counter() - started
        print(f"{label} page of {per_page} lines: {seconds:.3f} s, HTML {html / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
