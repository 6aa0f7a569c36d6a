"""Search speed, and what maintaining the index costs the import.

    .venv/bin/python benchmarks/search.py [--events 1000000] [--runs 7] [--pg URL]
    .venv/bin/python benchmarks/search.py --release DIR [--pg-db NAME] [--no-import-ratio]
    .venv/bin/python benchmarks/search.py --worst [--benches 3] [--events 100000] [--release D]

Generates one synthetic release (make_sample_release options: --models,
--tasks, --released, --events), or reads an existing one (--release, only
read), and, on SQLite and on PostgreSQL, each in its own process and fresh
database (the PostgreSQL one dropped after):

1. imports it twice: once with the search index dropped (the import as it was
   before search) and once with it (triggers on SQLite, the generated column
   and GIN index on PostgreSQL), and prints events/s of both and their ratio
   (--no-import-ratio: only the second import);
2. runs ANALYZE, then times the search page (the full view through Django's
   test client, page cache off: parse, match, count, group, facets, render)
   for a rare word, a common word and a phrase, median of --runs, beside a
   query that only counts the events of one attempt, in the same run.

Targets on PostgreSQL: first page under 300 ms for the rare word and the
phrase, under 500 ms for the common word; import with the index at least 80%
of the import without it.

--worst: the searches that once held a worker. Imports --benches releases
(generated with --events each, or the --release folders) into one fresh
database, one after the other, and right after the last import (no ANALYZE
but the import's own; run it where autovacuum is off, as it is on machines
that have no other writes) times each query of WORST on every bench's search
page, once cold and once warm, printing the worst time of each, its status
(200 answered, 400 refused) and what the page said. Target: every one answered
or refused within 3 s. WORST_QUERIES=label,label (environment) runs only those.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
BENCH_DB = "benchview_bench_search"
QUERIES = {
    "rare word": "throughput",
    "common word": "the",
    "phrase": '"verify signature"',
}
WORST = {
    "300 exclusions": "file " + " ".join(f"-x{i}" for i in range(300)),
    "8 exclusions": "file " + " ".join(f"-x{i}" for i in range(8)),
    "common word": "file",
    "commonest word": "the",
    "a type only": "type:message",
    "exclusion only": "-zebra",
    "12 words": "the a to of and in is it for on file run",
}
WORST_TARGET_S = 3.0


def _drop_index() -> None:
    """Undo the search index migration's SQL (the import as it was without it):
    later migrations change the column, not what dropping it takes."""
    from django.db import connection

    migration = importlib.import_module("trajectories.migrations.0006_event_search_index")
    with connection.cursor() as cursor:
        for statement in migration.SQL[connection.vendor][1]:
            cursor.execute(statement)


def child(mode: str, release: str, database_url: str, runs: int) -> None:
    """One measurement in this process, printed as JSON."""
    os.environ["DATABASE_URL"] = database_url
    # Every request reaches the view: a cached page would time the cache.
    os.environ["BENCHVIEW_PAGE_CACHE_S"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    from benchmarks.recorded import import_recorded
    from trajectories.models import Event

    call_command("migrate", verbosity=0, skip_checks=True)
    if mode == "worst":
        print(json.dumps(_worst(release.split(os.pathsep))))
        return
    if mode == "import-without-index":
        _drop_index()
    started = time.perf_counter()
    bench = import_recorded(release).bench
    result = {"import_s": time.perf_counter() - started, "events": Event.objects.count()}
    if mode == "import-and-search":
        # Planner statistics, as autovacuum (PostgreSQL) would have gathered
        # them by now; without them the planner guesses at the new rows.
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        result["search"] = _time_searches(bench, runs)
    print(json.dumps(result))


def _median_ms(fn, runs: int) -> float:
    fn()  # warm: plans, caches, the page's templates
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _time_searches(bench, runs: int) -> dict:
    from django.test import Client
    from django.urls import reverse

    from leaderboard.models import Attempt
    from trajectories.models import Event

    client = Client()
    url = reverse("search", args=[bench.slug])
    found = {}
    for label, q in QUERIES.items():

        def page(q=q):
            response = client.get(url, {"q": q})
            assert response.status_code == 200, response.status_code
            return response

        body = page().content.decode()
        summary = body.split('role="status">', 1)[1].split(".", 1)[0] if "role" in body else "?"
        found[label] = {"q": q, "ms": _median_ms(page, runs), "found": " ".join(summary.split())}
    attempt = Attempt.objects.filter(bench=bench, has_detail=True).order_by("pk").first()
    found["baseline"] = {
        "q": f"count one attempt's events ({attempt.pk})",
        "ms": _median_ms(lambda: Event.objects.filter(attempt=attempt).count(), runs),
        "found": "",
    }
    return found


def _worst(releases: list[str]) -> dict:
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from benchmarks.recorded import import_recorded
    from trajectories.models import Event

    slugs, imports = [], []
    for release in releases:
        started = time.perf_counter()
        slugs.append(import_recorded(release).bench.slug)
        imports.append(time.perf_counter() - started)
    autovacuum = "n/a"
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW autovacuum")
            autovacuum = cursor.fetchone()[0]
    client = Client()
    # The process's first page pays for loading templates, URLs and the
    # database's pages: timed apart, so it is not charged to a query.
    started = time.perf_counter()
    for slug in slugs:
        client.get(reverse("search", args=[slug]))
    warm_up = time.perf_counter() - started
    labels = [label for label in os.environ.get("WORST_QUERIES", "").split(",") if label]
    worst: dict[str, dict] = {}
    for label, q in WORST.items():
        if labels and label not in labels:
            continue
        for slug in slugs:
            for _ in range(2):  # cold, then warm
                started = time.perf_counter()
                response = client.get(reverse("search", args=[slug]), {"q": q})
                seconds = time.perf_counter() - started
                if seconds >= worst.get(label, {}).get("s", -1):
                    worst[label] = {
                        "s": seconds,
                        "status": response.status_code,
                        "said": _said(response.content.decode()),
                        "bench": slug,
                    }
    return {
        "events": Event.objects.count(),
        "imports_s": imports,
        "autovacuum": autovacuum,
        "warm_up_s": warm_up,
        "worst": worst,
    }


def _said(body: str) -> str:
    """The page's one-line answer: its summary or its refusal."""
    for marker in ('role="alert"><p>', 'role="status">'):
        if marker in body:
            said = body.split(marker, 1)[1].split("</p>", 1)[0].split("Download:", 1)[0]
            return " ".join(said.split())[:100]
    return "?"


def report_worst(database: str, result: dict) -> None:
    imports = ", ".join(f"{s:.0f} s" for s in result["imports_s"])
    print(
        f"\n{database}: {result['events']:,} events in {len(result['imports_s'])} benches "
        f"(imports {imports}; autovacuum {result['autovacuum']})"
    )
    print(f"  first page of each bench (warm-up, not a query) {result['warm_up_s'] * 1000:.0f} ms")
    for label, row in result["worst"].items():
        verdict = "ok" if row["s"] <= WORST_TARGET_S and row["status"] in (200, 400) else "SLOW"
        print(
            f"  {label:15} {row['s'] * 1000:8.0f} ms  {row['status']}  {verdict:4}  "
            f"{row['bench']}: {row['said']}"
        )


def run_child(mode: str, release: Path, database_url: str, runs: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(release), database_url, str(runs)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_postgres(base_url: str, name: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as exc:
        print(f"PostgreSQL not reachable ({exc}); skipping it", file=sys.stderr)
        return None
    return base_url.rsplit("/", 1)[0] + f"/{name}"


def report(database: str, results: dict) -> None:
    indexed = results["import-and-search"]
    rate_indexed = indexed["events"] / indexed["import_s"]
    print(f"\n{database} ({indexed['events']:,} events)")
    if "import-without-index" in results:
        plain = results["import-without-index"]
        rate_plain = plain["events"] / plain["import_s"]
        print(f"  import without index {plain['import_s']:7.1f} s {rate_plain:9,.0f} events/s")
    line = f"  import with index    {indexed['import_s']:7.1f} s {rate_indexed:9,.0f} events/s"
    if "import-without-index" in results:
        line += f" ({rate_indexed / rate_plain:.0%} of without)"
    print(line)
    for label, row in indexed["search"].items():
        print(f"  {label:12} {row['ms']:8.1f} ms  {row['q']:28} {row['found']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--release", type=Path, action="append", help="an existing release folder (not written)"
    )
    parser.add_argument("--worst", action="store_true", help="time the worst searches (above)")
    parser.add_argument("--benches", type=int, default=3, help="--worst: releases to generate")
    parser.add_argument("--events", type=int, help="default 1,000,000 (--worst: 100,000 a bench)")
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--released", type=int, default=60)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG_URL", DEFAULT_PG))
    parser.add_argument("--pg-db", default=BENCH_DB, help="database to create, use and drop")
    parser.add_argument("--only", choices=["sqlite", "postgresql"], default=None)
    parser.add_argument(
        "--no-import-ratio", action="store_true", help="skip the import without index"
    )
    parser.add_argument("--child", nargs=4, metavar=("MODE", "RELEASE", "DB", "RUNS"))
    args = parser.parse_args()
    if args.child:
        mode, release, url, runs = args.child
        child(mode, release, url, int(runs))
        return

    if args.events is None:
        args.events = 100_000 if args.worst else 1_000_000
    if args.worst:
        worst(args)
        return
    with tempfile.TemporaryDirectory(prefix="benchview-search-") as tmp:
        release = args.release[0] if args.release else generate(Path(tmp) / "release", args)
        modes = ["import-and-search"]
        if not args.no_import_ratio:
            modes.insert(0, "import-without-index")
        for database in ("sqlite", "postgresql"):
            if args.only and database != args.only:
                continue
            results = {}
            for mode in modes:
                if database == "sqlite":
                    url = f"sqlite:///{tmp}/{mode}.sqlite3"
                else:
                    url = fresh_postgres(args.pg, args.pg_db)
                    if url is None:
                        break
                try:
                    results[mode] = run_child(mode, release, url, args.runs)
                finally:
                    if database == "postgresql":
                        import psycopg

                        with psycopg.connect(args.pg, autocommit=True) as conn:
                            conn.execute(f"DROP DATABASE IF EXISTS {args.pg_db}")
            if len(results) == len(modes):
                report(database, results)
    print(
        "\ntargets (PostgreSQL): rare word and phrase < 300 ms, common word < 500 ms; "
        "import with index >= 80% of without"
    )


def worst(args) -> None:
    with tempfile.TemporaryDirectory(prefix="benchview-search-") as tmp:
        releases = args.release or [
            generate(Path(tmp) / f"release{n}", args, seed=11 + n, bench=f"bench-{n}")
            for n in range(args.benches)
        ]
        joined = os.pathsep.join(str(r) for r in releases)
        for database in ("sqlite", "postgresql"):
            if args.only and database != args.only:
                continue
            if database == "sqlite":
                url = f"sqlite:///{tmp}/worst.sqlite3"
            else:
                url = fresh_postgres(args.pg, args.pg_db)
                if url is None:
                    continue
            try:
                report_worst(database, run_child("worst", Path(joined), url, 0))
            finally:
                if database == "postgresql":
                    import psycopg

                    with psycopg.connect(args.pg, autocommit=True) as conn:
                        conn.execute(f"DROP DATABASE IF EXISTS {args.pg_db}")
    print(f"\ntarget: each answered (200) or refused (400) within {WORST_TARGET_S:g} s")


def generate(root: Path, args, *, seed: int = 11, bench: str | None = None) -> Path:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from samplegen.release import generate_release

    started = time.perf_counter()
    summary = generate_release(
        root,
        models=args.models,
        tasks=args.tasks,
        released=args.released,
        events=args.events,
        seed=seed,
        **({"bench": bench} if bench else {}),
    )
    print(
        f"release: {summary['attempts']} attempts, {summary['events']:,} events "
        f"(generated in {time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    return root


if __name__ == "__main__":
    main()
