"""The attempt page at 100 to 100,000 events: does opening any event cost the same at any length?

    .venv/bin/python benchmarks/attempt_page.py [--sizes 100,1000,10000,100000] [--runs 5]
        [--database-url URL] [--no-browser]

Generates one synthetic release per size (one model, one task: the attempt has
all the events; ``generate_release(…, events=N)``), imports them into a fresh
SQLite database (or the database at ``--database-url``, which must be empty
or disposable), and measures for each, medians of ``--runs``:

- server time of the attempt page (rendered: the page cache is cleared before
  each run) and of a slice in the middle, through Django's test client, wall
  clock and this process's CPU time, with their query counts (constant in N
  is the goal);
- bytes on the wire of the page, gzipped as browsers ask, beside the
  uncompressed size;
- in a fresh headless Chromium per load (Debian's /usr/bin/chromium), served
  by this process: the time from navigation start until the deep-linked
  middle event is in view and marked, until the first event is, the
  renderer's peak memory (VmHWM of its process), the same deep link without
  JavaScript through the slice page (``…/events/?from=S#eM``), and the frames
  drawn during 3 s of wheel scrolling from the middle event;
- the layout-shift score of that deep link (PerformanceObserver
  ``layout-shift`` entries without recent input, summed, until 2 s after the
  event is shown), and the time from one End press at the top of the page
  until the last event is in view, then from one Home press until the first is.

Targets (issue 14), as ratios of the largest size to the smallest, same run:
deep link, renderer memory and no-JS deep link <= 1.5x; frames >= 80%; server
time of the page <= 100 ms and of a slice <= 50 ms at the largest size (on
PostgreSQL); query counts constant. Issue 35: layout shift < 0.1 and End and
Home within 2 s at every size.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.sized import sized_benches  # noqa: E402 (after the path is set)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1366, "height": 900}
SCROLL_S = 3.0


def setup(database_url: str, sizes: list[int], workdir: Path) -> None:
    sized_benches(database_url, sizes, workdir, prefix="b")


def attempt_url(n: int) -> tuple[str, int]:
    from django.urls import reverse

    from leaderboard.models import Attempt

    a = Attempt.objects.select_related("bench", "model", "task", "evidence").get(
        bench__slug=f"b{n}"
    )
    return reverse(
        "attempt", args=[a.bench.slug, a.model.slug, a.task.slug]
    ), a.evidence.events_total


def measure_server(url: str, slice_url: str, runs: int) -> dict:
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()

    def timed(address: str, **headers) -> tuple[float, int, bytes, float]:
        caches["pages"].clear()
        with CaptureQueriesContext(connection) as ctx:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(address, headers=headers)
            body = response.content
            spent, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        assert response.status_code == 200, (address, response.status_code)
        return spent, len(ctx.captured_queries), body, cpu

    timed(url)  # warm Python's caches (templates, imports)
    page = [timed(url) for _ in range(runs)]
    piece = [timed(slice_url) for _ in range(runs)]
    zipped = timed(url, accept_encoding="gzip")[2]
    return {
        "page_ms": statistics.median(t[0] for t in page) * 1000,
        # This process's CPU time (SQLite's queries included, not a server's):
        # steadier than wall-clock time when other work shares the machine.
        "page_cpu_ms": statistics.median(t[3] for t in page) * 1000,
        "page_queries": page[-1][1],
        "slice_ms": statistics.median(t[0] for t in piece) * 1000,
        "slice_cpu_ms": statistics.median(t[3] for t in piece) * 1000,
        "slice_queries": piece[-1][1],
        "bytes": len(page[-1][2]),
        "gzip_bytes": len(zipped),
        "gzip_ok": gzip.decompress(zipped) == page[-1][2],
    }


def serve():
    """This process's Django site on a free local port, in a thread (static files included)."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


# Function strings (not expressions): Playwright calls them over the devtools
# protocol, which the page's Content-Security-Policy (no eval) does not block.
IN_VIEW = """(id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.top < innerHeight && r.bottom > 0 && el.matches(':target');
}"""
NOW = "() => performance.now()"
COUNT_FRAMES = """() => { window.__frames = 0;
  const tick = () => { window.__frames++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""
FRAMES = "() => window.__frames"
# Layout shift (Core Web Vitals' CLS, summed without session windows: a
# stricter figure), gathered from the first paint on. An init script, not an
# evaluation: it runs before the page's own scripts, whatever the page's CSP.
WATCH_SHIFTS = """window.__shift = 0; window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) {
  if (!e.hadRecentInput) { window.__shift += e.value; window.__shifts.push(e); } } })
  .observe({type: 'layout-shift', buffered: true});"""
SHIFT = "() => window.__shift"


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            found.append(child)
            todo.append(child)
    return found


def renderer_peak_mb(before: set[int]) -> float:
    """The peak resident memory of the largest renderer this process's browser
    started (a descendant of this process that was not running before)."""
    peak = 0
    for pid in _descendants(os.getpid()):
        if pid in before:
            continue
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            continue
    return peak / 1024


def _pids() -> set[int]:
    return {int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit()}


def one_load(p, address: str, anchor: str, *, javascript: bool = True, scroll: bool = False):
    """(ms until #anchor is in view and marked, renderer peak MB, frames while scrolling)."""
    before = _pids()
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        context = browser.new_context(viewport=VIEWPORT, java_script_enabled=javascript)
        context.add_init_script(WATCH_SHIFTS)
        page = context.new_page()
        page.goto(f"{address}#{anchor}", wait_until="commit")
        if javascript:
            page.wait_for_function(IN_VIEW, arg=anchor, polling=16, timeout=60_000)
        else:
            # Without JavaScript the page runs no timers, so the page-side wait
            # would look once only: look from here instead.
            deadline = time.perf_counter() + 60
            while not page.evaluate(IN_VIEW, anchor):
                if time.perf_counter() > deadline:
                    raise TimeoutError(f"#{anchor} never came into view without JavaScript")
                time.sleep(0.016)
        ms = page.evaluate(NOW)
        frames = None
        if scroll:
            page.wait_for_timeout(500)
            page.evaluate(COUNT_FRAMES)
            end = time.perf_counter() + SCROLL_S
            while time.perf_counter() < end:
                page.mouse.wheel(0, 120)
                page.wait_for_timeout(16)
            frames = page.evaluate(FRAMES)
        page.wait_for_timeout(300)
        memory = renderer_peak_mb(before)
        context.close()
        return ms, memory, frames
    finally:
        browser.close()


VISIBLE = """(id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.top < innerHeight && r.bottom > 0;
}"""


def shift_load(p, address: str, anchor: str) -> float:
    """The layout-shift score of a deep link to #anchor, from navigation until
    the page has settled (its event marked, then 2 s for the slices around it)."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        context = browser.new_context(viewport=VIEWPORT)
        context.add_init_script(WATCH_SHIFTS)
        page = context.new_page()
        page.goto(f"{address}#{anchor}", wait_until="commit")
        page.wait_for_function(IN_VIEW, arg=anchor, polling=16, timeout=60_000)
        page.wait_for_timeout(2000)
        return page.evaluate(SHIFT)
    finally:
        browser.close()


def end_home_load(p, address: str, total: int) -> tuple[float, float]:
    """ms from one End press at the top until the last event is in view, and
    from one Home press there until the first is."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.goto(address, wait_until="load")
        page.wait_for_timeout(500)
        times = []
        for key, anchor in (("End", f"e{total - 1}"), ("Home", "e0")):
            started = page.evaluate(NOW)
            page.keyboard.press(key)
            page.wait_for_function(VISIBLE, arg=anchor, polling=16, timeout=60_000)
            times.append(page.evaluate(NOW) - started)
            page.wait_for_timeout(500)
        return times[0], times[1]
    finally:
        browser.close()


def measure_browser(base: str, url: str, total: int, slice_size: int, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    middle = total // 2
    start = middle // slice_size * slice_size
    deep, first, memory, nojs, frames, shift, end, home = [], [], [], [], [], [], [], []
    with sync_playwright() as p:
        for _ in range(runs):
            shift.append(shift_load(p, base + url, f"e{middle}"))
            to_end, to_home = end_home_load(p, base + url, total)
            end.append(to_end)
            home.append(to_home)
            ms, mb, _ = one_load(p, base + url, f"e{middle}")
            deep.append(ms)
            memory.append(mb)
            first.append(one_load(p, base + url, "e0")[0])
            plain = f"{base}{url}events/?from={start}"
            nojs.append(one_load(p, plain, f"e{middle}", javascript=False)[0])
            frames.append(one_load(p, base + url, f"e{middle}", scroll=True)[2])
    return {
        "deep_ms": statistics.median(deep),
        "first_ms": statistics.median(first),
        "memory_mb": statistics.median(memory),
        "nojs_ms": statistics.median(nojs),
        "frames": statistics.median(frames),
        "shift": statistics.median(shift),
        "end_ms": statistics.median(end),
        "home_ms": statistics.median(home),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database-url")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    with tempfile.TemporaryDirectory(prefix="bench-attempt-") as tmp:
        workdir = Path(tmp)
        database_url = args.database_url or f"sqlite:///{workdir / 'bench.sqlite3'}"
        setup(database_url, sizes, workdir)
        from django.conf import settings

        slice_size = settings.BENCHVIEW_LIMITS["event_slice_size"]
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        rows = {}
        server, base = (None, None) if args.no_browser else serve()
        try:
            for n in sizes:
                url, total = attempt_url(n)
                middle = total // 2 // slice_size * slice_size
                row = measure_server(url, f"{url}events/?from={middle}&fragment=1", args.runs)
                if not args.no_browser:
                    row.update(measure_browser(base, url, total, slice_size, args.runs))
                rows[n] = row
                print(f"{n:>7} events measured")
        finally:
            if server is not None:
                server.shutdown()

    print(f"\nmedians of {args.runs}; server on {engine}; slices of {slice_size} events")
    head = (
        f"{'events':>7} {'page ms':>8} {'CPU':>6} {'q':>3} {'slice ms':>8} {'CPU':>6} {'q':>3}"
        f" {'KB':>7} {'gzip KB':>8}"
    )
    if not args.no_browser:
        head += f" {'deep ms':>8} {'first ms':>8} {'MB':>6} {'no-JS ms':>8} {'frames':>6}"
        head += f" {'shift':>6} {'End ms':>7} {'Home ms':>7}"
    print(head)
    for n, r in rows.items():
        line = (
            f"{n:>7} {r['page_ms']:8.1f} {r['page_cpu_ms']:6.1f} {r['page_queries']:3d}"
            f" {r['slice_ms']:8.1f} {r['slice_cpu_ms']:6.1f} {r['slice_queries']:3d}"
            f" {r['bytes'] / 1024:7.0f} {r['gzip_bytes'] / 1024:8.0f}"
        )
        if not args.no_browser:
            line += (
                f" {r['deep_ms']:8.0f} {r['first_ms']:8.0f} {r['memory_mb']:6.0f}"
                f" {r['nojs_ms']:8.0f} {r['frames']:6.0f}"
                f" {r['shift']:6.3f} {r['end_ms']:7.0f} {r['home_ms']:7.0f}"
            )
        print(line)
    small, large = rows[sizes[0]], rows[sizes[-1]]
    constant = all(
        r["page_queries"] == small["page_queries"] and r["slice_queries"] == small["slice_queries"]
        for r in rows.values()
    )
    print(f"\nquery counts constant in N: {'yes' if constant else 'NO'}")
    print(
        f"server at {sizes[-1]}: page {large['page_ms']:.1f} ms (target <= 100), "
        f"slice {large['slice_ms']:.1f} ms (target <= 50)"
    )
    if not args.no_browser:
        for name, key, goal, better in (
            ("deep link", "deep_ms", 1.5, "<="),
            ("renderer memory", "memory_mb", 1.5, "<="),
            ("no-JS deep link", "nojs_ms", 1.5, "<="),
            ("frames while scrolling", "frames", 0.8, ">="),
        ):
            ratio = large[key] / small[key]
            ok = ratio <= goal if better == "<=" else ratio >= goal
            print(
                f"{name}: {sizes[-1]} / {sizes[0]} events = {ratio:.2f}x "
                f"(target {better} {goal}x) {'ok' if ok else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
