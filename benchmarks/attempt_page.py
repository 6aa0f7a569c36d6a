"""The attempt page on a 10,000-event trajectory: server time, queries, HTML size, deep link.

    .venv/bin/python benchmarks/attempt_page.py [--events 10000] [--runs 5]
        [--database-url URL] [--no-browser]

Generates a synthetic release with one long attempt (``generate_release(…,
events=N)``), imports it into a fresh SQLite database (or the database at
``--database-url``, which must be empty or disposable), and measures:

- server render time of the attempt page through Django's test client
  (best and median of ``--runs``; the first, cold run reported apart);
- the number of queries, and that it is the same for a small attempt;
- the HTML size with the default preview settings;
- in headless Chromium (Debian's /usr/bin/chromium), how long after
  navigation start the deep link ``#e9000`` is in the viewport and marked,
  beside a baseline from the same run: the load of the short attempt's page.

Targets (issue 4): render < 1 s with a constant query count, HTML < 10 MB,
deep link in view < 2 s after navigation start.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def setup(database_url: str, events: int, workdir: Path):
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    import django

    django.setup()
    from django.core.management import call_command

    from ingest.reader import open_release
    from ingest.services import release_import
    from samplegen import generate_release

    call_command("migrate", verbosity=0)
    release = workdir / "release"
    started = time.perf_counter()
    # Two attempts: the long one (all but a few hundred events) and a short one,
    # whose query count must equal the long one's.
    generate_release(release, models=1, tasks=2, released=2, events=events + 300, seed=11)
    with open_release(release) as source:
        release_import(source=source)
    print(f"release generated and imported in {time.perf_counter() - started:.1f}s")


def pages():
    """(url of the longest attempt, its event count, url of the shortest attempt)."""
    from django.urls import reverse

    from trajectories.models import Evidence

    ordered = list(
        Evidence.objects.select_related("attempt__bench", "attempt__model", "attempt__task")
        .filter(attempt__task__batch__live=True)
        .order_by("-events_total")
    )

    def url(evidence):
        a = evidence.attempt
        return reverse("attempt", args=[a.bench.slug, a.model.slug, a.task.slug])

    return url(ordered[0]), ordered[0].events_total, url(ordered[-1]), ordered[-1].events_total


def measure_server(url: str, runs: int) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    times = []
    queries = size = 0
    for _ in range(runs + 1):
        with CaptureQueriesContext(connection) as ctx:
            started = time.perf_counter()
            response = client.get(url)
            body = b"".join(response.streaming_content)
            times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
        queries, size = len(ctx.captured_queries), len(body)
    cold, warm = times[0], times[1:]
    return {
        "cold_s": cold,
        "best_s": min(warm),
        "median_s": statistics.median(warm),
        "queries": queries,
        "bytes": size,
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


IN_VIEW = """(id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.top < innerHeight && r.bottom > 0 && el.matches(':target');
}"""


TIMING = """(() => {
  const n = performance.getEntriesByType('navigation')[0];
  return `first byte ${n.responseStart.toFixed(0)} ms, last byte ${n.responseEnd.toFixed(0)} ms, `
    + `parsed ${n.domInteractive.toFixed(0)} ms, load ${n.loadEventEnd.toFixed(0)} ms`;
})()"""

LOAD_END = "performance.getEntriesByType('navigation')[0].loadEventEnd"

DEBUG = """(id) => {
  const el = document.getElementById(id);
  return {exists: !!el, top: el && el.getBoundingClientRect().top,
          target: el && el.matches(':target'), scrollY, ready: document.readyState};
}"""


def measure_browser(base: str, url: str, anchor: str, short_url: str, runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(f"{base}{url}#{anchor}", wait_until="commit")
            try:
                page.wait_for_function(IN_VIEW, arg=anchor, polling="raf", timeout=30_000)
            except Exception:
                page.screenshot(path="/tmp/attempt-page-deeplink-failure.png")
                state = page.evaluate(DEBUG, anchor)
                raise SystemExit(f"#{anchor} never came into view: {state}") from None
            # performance.now() counts from the navigation's start (timeOrigin).
            in_view_ms = page.evaluate("performance.now()")
            page.wait_for_load_state("load")
            top = page.evaluate(f"document.getElementById('{anchor}').getBoundingClientRect().top")
            timing = page.evaluate(TIMING)
            # Baseline from the same browser and moment: the load of the short
            # attempt's page, so a run on a busy machine shows in the ratio.
            page.goto(f"{base}{short_url}", wait_until="load")
            baseline_ms = page.evaluate(LOAD_END)
            results.append((in_view_ms, top, baseline_ms))
            print(f"  run: in view {in_view_ms:.0f} ms; {timing}; baseline {baseline_ms:.0f} ms")
            page.close()
        browser.close()
    ms = [r[0] for r in results]
    return {
        "best_ms": min(ms),
        "median_ms": statistics.median(ms),
        "baseline_ms": statistics.median(r[2] for r in results),
        "top_px_after_load": results[-1][1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database-url")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-attempt-") as tmp:
        workdir = Path(tmp)
        database_url = args.database_url or f"sqlite:///{workdir / 'bench.sqlite3'}"
        setup(database_url, args.events, workdir)
        long_url, long_events, short_url, short_events = pages()
        print(f"long attempt: {long_events} events at {long_url}")
        long = measure_server(long_url, args.runs)
        short = measure_server(short_url, 1)
        print(
            f"server render: cold {long['cold_s']:.3f}s, best {long['best_s']:.3f}s, "
            f"median {long['median_s']:.3f}s (target < 1 s)"
        )
        constant = "constant" if long["queries"] == short["queries"] else "NOT constant"
        print(
            f"queries: {long['queries']} for {long_events} events, "
            f"{short['queries']} for {short_events} events ({constant})"
        )
        print(f"HTML: {long['bytes'] / 1e6:.2f} MB (target < 10 MB)")
        if not args.no_browser:
            anchor = f"e{min(9000, long_events - 1)}"
            server, base = serve()
            try:
                browser = measure_browser(base, long_url, anchor, short_url, runs=args.runs)
            finally:
                server.shutdown()
            print(
                f"deep link #{anchor}: in view and :target {browser['best_ms']:.0f} ms "
                f"(median {browser['median_ms']:.0f} ms) after navigation start "
                f"(target < 2000 ms); top after load {browser['top_px_after_load']:.0f}px"
            )
            ratio = browser["median_ms"] / browser["baseline_ms"]
            print(
                f"baseline: the {short_events}-event page loads in "
                f"{browser['baseline_ms']:.0f} ms; deep link / baseline {ratio:.1f}x"
            )


if __name__ == "__main__":
    main()
