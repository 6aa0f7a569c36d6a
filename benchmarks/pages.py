"""Server-side time of the leaderboard, matrix, model and task pages at scale.

    .venv/bin/python benchmarks/pages.py [--db /tmp/benchview-pages.sqlite3] [--reuse]
                                         [--models 100] [--tasks 1000] [--runs 7]

Builds a synthetic release of 100 models × 1,000 tasks (ten released, few
events, so it builds in seconds and imports in about a minute and a half)
into a SQLite database of its own, never the developer's ``db.sqlite3``.
``--reuse`` keeps a database an earlier run built (same sizes), to time
again after a change without importing again. ``--database-url`` times
another database (for example PostgreSQL) instead; it must be empty or hold
this benchmark's bench.

Each page is fetched once to warm up, then ``--runs`` times with Django's
test client (the whole request: URL routing, middleware, queries, template);
the median wall-clock time (or CPU time, when the load average says other
work is sharing the cores) is compared with its target on these 2-core machines:
leaderboard < 100 ms, each matrix page < 500 ms (task columns are paged),
model and task pages < 200 ms. The full matrix (every page) is reported too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = "pages-bench"

TARGETS_MS = {"leaderboard": 100, "matrix page": 500, "model": 200, "task": 200}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db", default=str(Path(tempfile.gettempdir()) / "benchview-pages.sqlite3")
    )
    parser.add_argument("--database-url", default=None, help="time this database instead")
    parser.add_argument("--reuse", action="store_true", help="keep an already built database")
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--released", type=int, default=10)
    parser.add_argument("--runs", type=int, default=7)
    return parser.parse_args()


def setup_django(args: argparse.Namespace) -> None:
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        db = Path(args.db).resolve()
        if db == (ROOT / "db.sqlite3").resolve():
            sys.exit("refusing to use the developer's db.sqlite3; pick another --db")
        if not args.reuse:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build(args: argparse.Namespace) -> None:
    from django.core.management import call_command

    from benchmarks.recorded import import_recorded
    from leaderboard.models import Bench
    from samplegen.release import generate_release

    call_command("migrate", verbosity=0)
    bench = Bench.objects.filter(slug=BENCH).first()
    if bench is not None and args.reuse:
        counts = (bench.models.count(), bench.tasks.count())
        if counts == (args.models, args.tasks):
            print(f"reusing {BENCH}: {counts[0]} models × {counts[1]} tasks")
            return
        sys.exit(f"the database holds {counts[0]} × {counts[1]}; drop --reuse to rebuild")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "release"
        started = time.perf_counter()
        summary = generate_release(
            root,
            models=args.models,
            tasks=args.tasks,
            released=args.released,
            events=4 * args.models * args.released,
            bench=BENCH,
        )
        print(f"generated {summary} in {time.perf_counter() - started:.1f}s")
        started = time.perf_counter()
        import_recorded(root)
        print(f"imported in {time.perf_counter() - started:.1f}s")


def timed(client, url: str, runs: int) -> tuple[float, float, int]:
    """Median wall-clock and median CPU time in ms of ``runs`` fetches, after
    one warm-up, and the page's size in bytes.

    SQLite runs inside this process, so CPU time covers the queries too; it is
    the steadier figure when other work shares the machine (wall-clock time
    then mostly measures waiting for a core). The rendered-page cache is
    cleared before each fetch: the page is rendered every time."""
    from django.core.cache import caches

    caches["pages"].clear()
    response = client.get(url)
    if response.status_code != 200:
        sys.exit(f"{url} answered {response.status_code}")
    wall, cpu = [], []
    for _ in range(runs):
        caches["pages"].clear()
        started, started_cpu = time.perf_counter(), time.process_time()
        client.get(url)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu), len(response.content)


def main() -> None:
    args = parse_args()
    setup_django(args)
    build(args)

    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    from leaderboard.models import Model, Task

    model = Model.objects.filter(bench__slug=BENCH).order_by("rank", "slug").first()
    task = Task.objects.filter(bench__slug=BENCH).live().order_by("slug").first()
    per_page = settings.BENCHVIEW_LIMITS["matrix_tasks_per_page"]
    pages = -(-args.tasks // per_page)
    client = Client()
    matrix = reverse("matrix", args=[BENCH])
    rows = [
        ("leaderboard", reverse("bench", args=[BENCH])),
        ("matrix page", matrix),
        ("matrix page", f"{matrix}?page={pages}"),
        ("model", reverse("model", args=[BENCH, model.slug])),
        ("task", reverse("task", args=[BENCH, task.slug])),
    ]
    # Other work on the machine slows every page alike: the load average and a
    # tiny page's time, taken in the same run, tell how far to trust the rest.
    baseline, baseline_cpu, _ = timed(client, reverse("home"), args.runs)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average {load} on {os.cpu_count()} cores")
    print(f"home page (tiny): {baseline:.1f} ms wall, {baseline_cpu:.1f} ms CPU")
    busy = os.getloadavg()[0] > (os.cpu_count() or 1)
    judged = "CPU" if busy else "wall"
    print(f"judged on {judged} time{' (the machine is busy)' if busy else ''}\n")
    print(f"{'page':<12} {'wall ms':>8} {'CPU ms':>8} {'target':>8} {'KiB':>6}  url")
    failed = False
    for name, url in rows:
        wall, cpu, size = timed(client, url, args.runs)
        ok = (cpu if busy else wall) < TARGETS_MS[name]
        failed |= not ok
        print(
            f"{name:<12} {wall:8.1f} {cpu:8.1f} {'<' + str(TARGETS_MS[name]):>8} "
            f"{size / 1024:6.0f}  {url}  {'ok' if ok else 'SLOW'}"
        )
    wall_total = cpu_total = 0.0
    for number in range(1, pages + 1):
        wall, cpu, _ = timed(client, f"{matrix}?page={number}", max(3, args.runs // 2))
        wall_total += wall
        cpu_total += cpu
    print(
        f"full matrix: {pages} pages of {per_page} task columns: {wall_total:.0f} ms wall, "
        f"{cpu_total:.0f} ms CPU in all (target for an unpaged matrix: < 2000 ms)"
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
