"""Harbor import speed beside the v1 import of the same events, in the same run.

    .venv/bin/python benchmarks/import_harbor.py [--tasks 44] [--pg URL]

Writes the synthetic Harbor jobs (``make_sample_harbor``: six models), builds
the release-v1 files the adapter makes of them and writes those to a folder,
then imports each into a fresh database, every import in its own process:
``import_harbor``'s path (read the trial folders, map them, build the release
in memory, import it) and ``import_release`` of the folder. Prints trials/s,
events/s and the ratio of the two times. Target: the Harbor import within
1.5x of the v1 import.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH_DB = "benchview_bench_harbor"


def _setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, skip_checks=True)


def child(mode: str, path: str, database_url: str) -> None:
    _setup(database_url)
    from ingest.harbor.build import harbor_release
    from ingest.reader import open_release, open_tree
    from ingest.services import release_import

    started = time.perf_counter()
    if mode == "harbor":
        with open_tree(path) as tree:
            built = harbor_release(
                [(tree, path)], bench="bench", models_file=None, allow_partial=False
            )
            result = release_import(source=built.source)
    else:
        with open_release(path) as source:
            result = release_import(source=source)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "events": result.plan.events}))


def run_child(mode: str, path: Path, database_url: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path), database_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def prepare(work: Path, tasks: int) -> tuple[Path, Path, int]:
    """The jobs folder, the v1 folder of the same release, and the trial count."""
    _setup(f"sqlite:///{work / 'prepare.sqlite3'}")
    from ingest.harbor.build import harbor_release
    from ingest.reader import open_tree
    from samplegen.harbor import write_sample_harbor

    jobs = work / "jobs"
    counts = write_sample_harbor(jobs, tasks=tasks)
    release = work / "release"
    with open_tree(jobs) as tree:
        source = harbor_release([(tree, str(jobs))], bench="bench").source
        for name in source.names():
            target = release / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read(name))
    return jobs, release, counts["trials"]


def fresh_postgres(base_url: str) -> str:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    return base_url.rsplit("/", 1)[0] + f"/{BENCH_DB}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=44)
    parser.add_argument("--pg", help="also run on PostgreSQL (a server URL)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="benchview-harbor-") as tmp:
        work = Path(tmp)
        jobs, release, trials = prepare(work, args.tasks)
        databases = [("sqlite", lambda n: f"sqlite:///{work / n}.sqlite3")]
        if args.pg:
            databases.append(("postgresql", lambda n: fresh_postgres(args.pg)))
        for label, url in databases:
            harbor = run_child("harbor", jobs, url("harbor"))
            v1 = run_child("v1", release, url("v1"))
            ratio = harbor["seconds"] / v1["seconds"]
            print(
                f"{label}: harbor {trials / harbor['seconds']:.0f} trials/s, "
                f"{harbor['events'] / harbor['seconds']:.0f} events/s ({harbor['seconds']:.2f}s); "
                f"v1 {v1['events'] / v1['seconds']:.0f} events/s ({v1['seconds']:.2f}s); "
                f"ratio {ratio:.2f} (target <= 1.5)"
            )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
    else:
        main()
