"""Import speed and memory: events per second against the read-and-parse floor.

    .venv/bin/python benchmarks/import_release.py [--events 50000] [--pg URL]
    .venv/bin/python benchmarks/import_release.py --shape seed      # the seed's scale
    .venv/bin/python benchmarks/import_release.py --release DIR     # a release folder

By default generates two synthetic releases (about N and 2N events, the
second with twice the attempts). ``--shape seed`` generates one at the seed's
scale instead (40 models x 500 tasks, 100 released, 1M events: about 4,000
attempts and 1.3 GB); ``--release`` measures an existing release folder,
which is only read. Each release is imported into a fresh SQLite database and
a fresh PostgreSQL database, then imported again unchanged, every run in its
own process so that peak memory (ru_maxrss) belongs to that run alone, with
DEBUG off as in production.

Prints, per run, seconds, events/s, SQL statements, peak memory, CPU time
(this process's threads, and PostgreSQL's processes when the server is on
this machine) and that CPU time over the machine's cores: no run here can
be faster than it. Then the floor
(reading, hashing and parsing every file of the same release, nothing else,
measured in the same run, before and after the imports: the faster counts)
and the ratio to it. Targets on a 2-core machine: a
fresh import at most 5x the floor on each database, an unchanged re-import at
most 2x, peak memory at most 200 MiB and flat from 1x to 2x.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
BENCH_DB = "benchview_bench_import"
SHAPES = {
    # Every fifth attempt a long one, so that only the count grows from 1x to 2x.
    "default": lambda events: [
        ("1x", {"models": 6, "tasks": 12, "released": 6, "events": events, "long_every": 5}),
        ("2x", {"models": 12, "tasks": 12, "released": 6, "events": 2 * events, "long_every": 5}),
    ],
    # make_sample_release --models 40 --tasks 500 --released 100 --events 1000000
    "seed": lambda events: [
        ("seed", {"models": 40, "tasks": 500, "released": 100, "events": 1_000_000}),
    ],
}


def child(mode: str, release: str, database_url: str) -> None:
    """Run one measurement in this process and print it as JSON."""
    os.environ["DATABASE_URL"] = database_url
    # As in production: with DEBUG on, Django also formats every statement
    # with its parameters for its query log, a tenth of an import's time.
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(32))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from formats.reader import open_release
    from formats.v1.schema import parse_json

    statements, sizes = 0, {}

    def count(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    if mode == "floor":
        cpu, database_cpu = _cpu_seconds(), None
        started = time.perf_counter()
        with open_release(release) as source:
            for name in source.names():
                data = source.read(name)
                hashlib.sha256(data).hexdigest()
                if name.endswith(".json"):
                    parse_json(data)
        seconds = time.perf_counter() - started
    else:
        from benchmarks.recorded import import_recorded

        call_command("migrate", verbosity=0, skip_checks=True)
        database_cpu = _database_cpu_seconds() if connection.vendor == "postgresql" else None
        cpu = _cpu_seconds()
        started = time.perf_counter()
        with connection.execute_wrapper(count):
            plan = import_recorded(release).plan
        seconds = time.perf_counter() - started
        sizes = {"attempts": len(plan.attempts), "events": plan.events}
    cpu = _cpu_seconds() - cpu
    if database_cpu is not None:
        database_cpu = _database_cpu_seconds() - database_cpu
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "seconds": seconds,
                "peak_mib": peak_mib,
                "statements": statements,
                "cpu": cpu,
                "database_cpu": database_cpu or 0.0,
                **sizes,
            }
        )
    )


def _cpu_seconds() -> float:
    """CPU time of every thread of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _database_cpu_seconds() -> float:
    """CPU time of every PostgreSQL process on this machine so far (the
    import's backend, and the WAL writer and checkpointer it keeps busy).
    The benchmark's server is local; elsewhere this reads 0."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # the process ended
        name, _, rest = text.partition(") ")
        if name.endswith("(postgres"):
            fields = rest.split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def run_child(mode: str, release: Path, database_url: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(release), database_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_postgres(base_url: str, name: str) -> str | None:
    """Create an empty database for one run; None when PostgreSQL is unreachable."""
    import psycopg

    try:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as exc:
        print(f"PostgreSQL not reachable ({exc}); skipping it", file=sys.stderr)
        return None
    return base_url.rsplit("/", 1)[0] + f"/{name}"


def drop_postgres(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")


def measure(label, release, args, tmp, rows) -> None:
    # The floor is read before and after the imports and the faster kept: on a
    # shared machine one reading varied from 15 s to 28 s, and a slow floor
    # would flatter every ratio.
    floor = run_child("floor", release, f"sqlite:///{tmp}/floor.sqlite3")
    first: list = []
    targets = []
    if "sqlite" in args.databases:
        targets.append(("sqlite", f"sqlite:///{tmp}/import-{label}.sqlite3"))
    pg = fresh_postgres(args.pg, args.pg_db) if "postgresql" in args.databases else None
    if pg:
        targets.append(("postgresql", pg))
    try:
        for database, url in targets:
            for run in ("fresh", "again"):
                result = run_child("import", release, url)
                first.append((label, run, database, result))
                print(_line(*first[-1], floor), flush=True)
    finally:
        if pg:
            drop_postgres(args.pg, args.pg_db)
    again = run_child("floor", release, f"sqlite:///{tmp}/floor.sqlite3")
    print(f"floor read twice: {floor['seconds']:.2f} s and {again['seconds']:.2f} s", flush=True)
    if again["seconds"] < floor["seconds"]:
        floor = again
        print("with the faster floor:", flush=True)
        for row in first:
            print(_line(*row, floor), flush=True)
    rows.extend((*row, floor) for row in first)


HEADER = (
    f"{'size':4} {'run':5} {'db':10} {'attempts':>8} {'events':>7} {'import s':>8} "
    f"{'events/s':>9} {'stmts':>6} {'floor s':>7} {'ratio':>6} {'peak MiB':>8} "
    f"{'cpu s':>6} {'db cpu':>6} {'cpu/cores':>9}"
)
CORES = os.cpu_count() or 1


def _line(label, run, database, result, floor) -> str:
    rate = result["events"] / result["seconds"]
    return (
        f"{label:4} {run:5} {database:10} {result['attempts']:8d} {result['events']:7d} "
        f"{result['seconds']:8.2f} {rate:9.0f} {result['statements']:6d} "
        f"{floor['seconds']:7.2f} {result['seconds'] / floor['seconds']:6.1f} "
        f"{result['peak_mib']:8.0f} {result['cpu']:6.1f} {result['database_cpu']:6.1f} "
        # No run on this machine can be faster than its CPU time spread over
        # every core: the bound the ratio is up against.
        f"{(result['cpu'] + result['database_cpu']) / CORES:9.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="default")
    parser.add_argument("--release", type=Path, help="measure this release folder (only read)")
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG_URL", DEFAULT_PG))
    parser.add_argument("--pg-db", default=BENCH_DB, help="scratch database, dropped after")
    parser.add_argument(
        "--databases", default="sqlite,postgresql", help="comma-separated: sqlite,postgresql"
    )
    parser.add_argument("--child", nargs=3, metavar=("MODE", "RELEASE", "DB"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from samplegen.release import generate_release

    rows: list = []
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory(prefix="benchview-import-") as tmp:
        if args.release:
            release = args.release.resolve()
            measure("rel", release, args, tmp, rows)
        else:
            for label, options in SHAPES[args.shape](args.events):
                release = Path(tmp) / f"release-{label}"
                generate_release(release, seed=11, **options)
                measure(label, release, args, tmp, rows)
    print("targets: fresh <= 5x the floor, unchanged re-import ('again') <= 2x, peak <= 200 MiB")


if __name__ == "__main__":
    main()
