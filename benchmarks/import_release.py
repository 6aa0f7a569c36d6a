"""Import speed and memory: events per second against the read-and-parse floor.

    .venv/bin/python benchmarks/import_release.py [--events 50000] [--pg URL]

Generates two synthetic releases (about N and 2N events, the second with
twice the attempts), and imports each into a fresh SQLite database and a
fresh PostgreSQL database, every run in its own process so that peak memory
(ru_maxrss) belongs to that run alone. Prints events/s, the floor (reading and
parsing the same files, nothing else) and the ratio, and peak memory.
Targets on a 2-core machine: at least 25,000 events/s on each database, and
peak memory that does not grow with the number of attempts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
BENCH_DB = "benchview_bench_import"


def child(mode: str, release: str, database_url: str) -> None:
    """Run one measurement in this process and print it as JSON."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from ingest.reader import open_release
    from ingest.schema import parse_json

    if mode == "floor":
        started = time.perf_counter()
        with open_release(release) as source:
            for name in source.names():
                data = source.read(name)
                if name.endswith(".json"):
                    parse_json(data)
        seconds = time.perf_counter() - started
    else:
        from ingest.services import release_import

        call_command("migrate", verbosity=0, skip_checks=True)
        started = time.perf_counter()
        with open_release(release) as source:
            release_import(source=source)
        seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024}))


def run_child(mode: str, release: Path, database_url: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(release), database_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_postgres(base_url: str) -> str | None:
    """Create an empty database for one run; None when PostgreSQL is unreachable."""
    import psycopg

    try:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
            conn.execute(f"CREATE DATABASE {BENCH_DB}")
    except psycopg.OperationalError as exc:
        print(f"PostgreSQL not reachable ({exc}); skipping it", file=sys.stderr)
        return None
    return base_url.rsplit("/", 1)[0] + f"/{BENCH_DB}"


def drop_postgres(base_url: str) -> None:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG_URL", DEFAULT_PG))
    parser.add_argument("--child", nargs=3, metavar=("MODE", "RELEASE", "DB"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from samplegen import generate_release

    rows = []
    with tempfile.TemporaryDirectory(prefix="benchview-import-") as tmp:
        # Two sizes: twice the events over twice the attempts, with the same mix
        # of attempt lengths (every fifth one long), so only the count grows.
        sizes = [
            ("1x", {"models": 6, "tasks": 12, "released": 6, "events": args.events}),
            ("2x", {"models": 12, "tasks": 12, "released": 6, "events": 2 * args.events}),
        ]
        for _, options in sizes:
            options["long_every"] = 5
        for label, options in sizes:
            release = Path(tmp) / f"release-{label}"
            summary = generate_release(release, seed=11, **options)
            floor = run_child("floor", release, f"sqlite:///{tmp}/floor.sqlite3")
            targets = [("sqlite", f"sqlite:///{tmp}/import-{label}.sqlite3")]
            pg = fresh_postgres(args.pg)
            if pg:
                targets.append(("postgresql", pg))
            for database, url in targets:
                result = run_child("import", release, url)
                rows.append((label, summary, database, result, floor))
            if pg:
                drop_postgres(args.pg)

    print(
        f"{'size':4} {'db':10} {'attempts':>8} {'events':>7} {'import s':>8} {'events/s':>9} "
        f"{'floor s':>7} {'ratio':>6} {'peak MiB':>8}"
    )
    for label, summary, database, result, floor in rows:
        rate = summary["events"] / result["seconds"]
        print(
            f"{label:4} {database:10} {summary['attempts']:8d} {summary['events']:7d} "
            f"{result['seconds']:8.2f} {rate:9.0f} {floor['seconds']:7.2f} "
            f"{result['seconds'] / floor['seconds']:6.1f} {result['peak_mib']:8.0f}"
        )
    print("targets: >= 25,000 events/s on each database; peak memory flat from 1x to 2x")


if __name__ == "__main__":
    main()
