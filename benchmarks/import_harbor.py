"""Harbor import speed and memory beside the v1 import of the same content, at several sizes.

    .venv/bin/python benchmarks/import_harbor.py [--tasks 64] [--steps 150] [--scales 1,4]
                                                 [--pg URL]

For each scale, writes the synthetic Harbor jobs (``write_sample_harbor``: six
models, ``tasks x scale`` tasks, every trajectory with ``steps`` extra steps of
about 6 KB: the defaults make trials of about 1 MB, as public Harbor jobs'
are, and about 420 MB at 1x), writes the release-v1
folder the adapter makes of them, then imports each into a fresh database,
every import in its own process: ``import_harbor``'s path (read the trial
folders, build the release one trial at a time, import it) and
``import_release`` of the folder. Prints, per import, the peak resident memory
of its process (MiB), trials/s and events/s. Targets: the Harbor import's peak
at most 250 MiB at any size and flat (the largest scale's peak within 1.2x of
the smallest's), its time within 1.5x of the v1 import's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH_DB = "benchview_bench_harbor"
PEAK_MAX_MIB = 250
FLAT_MAX = 1.2


def _setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, skip_checks=True)


def _peak_mib() -> float:
    # ru_maxrss is in KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(mode: str, path: str, database_url: str) -> None:
    _setup(database_url)
    from benchmarks.recorded import import_recorded

    started = time.perf_counter()
    if mode == "harbor":
        result = import_recorded(path, adapter="harbor", bench="bench")
    else:
        result = import_recorded(path)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "seconds": seconds,
                "events": result.plan.events,
                "attempts": len(result.plan.attempts),
                "peak_mib": _peak_mib(),
            }
        )
    )


def run_child(mode: str, path: Path, database_url: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path), database_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def prepare(work: Path, tasks: int, steps: int) -> tuple[Path, Path, int, int]:
    """The jobs folder, the v1 folder of the same release, the trial count and the
    jobs' size in bytes."""
    _setup(f"sqlite:///{work / 'prepare.sqlite3'}")
    from formats.reader import open_tree
    from ingest.reading.harbor.build import harbor_release
    from samplegen.harbor import write_sample_harbor

    jobs = work / "jobs"
    counts = write_sample_harbor(jobs, tasks=tasks, extra_steps=steps)
    (jobs / "models.json").unlink()  # not part of the jobs
    size = sum(p.stat().st_size for p in jobs.rglob("*") if p.is_file())
    release = work / "release"
    with open_tree(jobs) as tree:
        source = harbor_release([(tree, str(jobs))], bench="bench").source
        for name in source.names():
            target = release / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read(name))
    return jobs, release, counts["trials"], size


def fresh_postgres(base_url: str) -> str:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    return base_url.rsplit("/", 1)[0] + f"/{BENCH_DB}"


def _prepare_in_child(work: Path, tasks: int, steps: int) -> tuple[Path, Path, int, int]:
    # In its own process, so that Django's set-up for it leaves nothing behind here.
    out = subprocess.run(
        [sys.executable, __file__, "--prepare", str(work), str(tasks), str(steps)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return Path(found["jobs"]), Path(found["release"]), found["trials"], found["size"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=64, help="tasks at scale 1")
    parser.add_argument("--steps", type=int, default=150, help="extra 6 KB steps per trial")
    parser.add_argument("--scales", default="1,4", help="comma-separated multiples of --tasks")
    parser.add_argument("--pg", help="also run on PostgreSQL (a server URL)")
    args = parser.parse_args()
    scales = [int(s) for s in args.scales.split(",")]
    peaks: dict[str, dict[int, float]] = {}
    for scale in scales:
        with tempfile.TemporaryDirectory(prefix="benchview-harbor-") as tmp:
            work = Path(tmp)
            jobs, release, trials, size = _prepare_in_child(work, args.tasks * scale, args.steps)
            print(f"{scale}x: {trials} trials, {size / 2**20:.0f} MiB of jobs")
            databases = [("sqlite", lambda n, work=work: f"sqlite:///{work / n}.sqlite3")]
            if args.pg:
                databases.append(("postgresql", lambda n: fresh_postgres(args.pg)))
            for label, url in databases:
                harbor = run_child("harbor", jobs, url("harbor"))
                v1 = run_child("v1", release, url("v1"))
                for mode, got in (("harbor", harbor), ("v1", v1)):
                    peaks.setdefault(f"{label} {mode}", {})[scale] = got["peak_mib"]
                    print(
                        f"  {label} {mode:6}: peak {got['peak_mib']:.0f} MiB, "
                        f"{trials / got['seconds']:.1f} trials/s, "
                        f"{got['events'] / got['seconds']:.0f} events/s "
                        f"({got['seconds']:.1f} s, {got['events']} events)"
                    )
                ratio = harbor["seconds"] / v1["seconds"]
                print(f"  {label}: harbor/v1 time {ratio:.2f} (target <= 1.5)")
            shutil.rmtree(work, ignore_errors=True)
    low, high = min(scales), max(scales)
    for label, by_scale in peaks.items():
        flat = by_scale[high] / by_scale[low]
        worst = max(by_scale.values())
        print(
            f"{label}: peak {worst:.0f} MiB (target <= {PEAK_MAX_MIB} for harbor); "
            f"{high}x/{low}x {flat:.2f} (target <= {FLAT_MAX} for harbor)"
        )


def _prepare_main(work: str, tasks: str, steps: str) -> None:
    jobs, release, trials, size = prepare(Path(work), int(tasks), int(steps))
    print(json.dumps({"jobs": str(jobs), "release": str(release), "trials": trials, "size": size}))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
    elif len(sys.argv) > 1 and sys.argv[1] == "--prepare":
        _prepare_main(*sys.argv[2:5])
    else:
        main()
