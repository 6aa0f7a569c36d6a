"""The compare page of two long attempts: HTML bytes, server time, aligned rows on the page.

    .venv/bin/python benchmarks/compare_page.py [--sizes 1000,100000] [--runs 3]
        [--database-url URL] [--workdir DIR]

Generates one synthetic release per size (two models, one task: each attempt
has N events; ``generate_release(…, models=2, events=N)``), imports it into a
fresh SQLite database (or ``--database-url``; ``--workdir`` keeps and reuses
it), and prints for the compare page of the two attempts, through Django's
test client with the page cache cleared: the median server time of ``--runs``,
the HTML bytes, the aligned rows shown as rows, and the element ids that
occur more than once. "server ms" is the first page with every cache cleared
(the alignment made anew); "page 2 ms" the next page of rows right after, the
alignment reused from the cache where the checkout keeps it. Target (issue
35): under 300 KB of HTML at any length.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.sized import sized_benches  # noqa: E402 (after the path is set)


def setup(database_url: str, sizes: list[int], workdir: Path) -> None:
    sized_benches(database_url, sizes, workdir, prefix="c", models=2)


def measure(n: int, runs: int) -> dict:
    from django.conf import settings
    from django.core.cache import caches
    from django.test import Client
    from django.urls import reverse

    from leaderboard.models import Attempt

    a, b = Attempt.objects.filter(bench__slug=f"c{n}").select_related("task").order_by("pk")[:2]
    url = reverse("compare", args=[f"c{n}", a.task.slug, a.model.slug, b.model.slug])
    client = Client()

    def timed(address: str, *, cold: bool) -> tuple[float, object]:
        caches["pages"].clear()
        if cold:  # the pair's alignment too (trajectories.compare_rows)
            caches["default"].clear()
        started = time.perf_counter()
        response = client.get(address)
        assert response.status_code == 200, response.status_code
        return time.perf_counter() - started, response

    times = [timed(url, cold=True)[0] for _ in range(runs + 1)]
    response = timed(url, cold=True)[1]
    # A later page: the alignment made by the page before is reused, if kept.
    later = f"{url}?rows={settings.BENCHVIEW_LIMITS.get('compare_rows_per_page', 300)}"
    paged = (
        [timed(later, cold=False)[0] for _ in range(runs)]
        if b'rel="next"' in response.content
        else []
    )
    html = response.content.decode()
    ids = Counter(re.findall(r'\sid="([^"]*)"', html))
    return {
        "ms": statistics.median(times[1:]) * 1000,
        "later_ms": statistics.median(paged) * 1000 if paged else None,
        "bytes": len(response.content),
        "rows": len(re.findall(r'<tr id="step-', html)),
        "folded": html.count('class="only fold'),
        "twice": sorted(k for k, c in ids.items() if c > 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database-url")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        setup(args.database_url or f"sqlite:///{workdir / 'bench.sqlite3'}", sizes, workdir)
        results = {n: measure(n, args.runs) for n in sizes}
    print(
        f"\n{'events':>7} {'server ms':>9} {'page 2 ms':>9} {'HTML KB':>8} {'rows':>6}"
        f" {'folded':>6}  ids twice"
    )
    for n, r in results.items():
        later = f"{r['later_ms']:9.0f}" if r["later_ms"] is not None else f"{'-':>9}"
        print(
            f"{n:>7} {r['ms']:9.0f} {later} {r['bytes'] / 1024:8.0f} {r['rows']:6d}"
            f" {r['folded']:6d}  {', '.join(r['twice']) or '-'}"
        )


if __name__ == "__main__":
    main()
