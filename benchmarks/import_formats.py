"""Every registered format's import beside the v1 import of the same content, at two sizes.

    .venv/bin/python benchmarks/import_formats.py [--scales 1,4] [--formats NAME,...]
                                                  [--pg URL]

For each format with a generator here (``GENERATORS``: format name -> a
function writing synthetic input of that format, ``scale`` times the base
size) and each scale: writes the input, builds the release-v1 folder the
import door makes of it, then imports each into a fresh database, every
import in its own process: ``import_results``'s path (detect the format, read
it through its adapter one attempt at a time, import) and ``import_release``
of the v1 folder. Prints, per import, trials/s and the peak resident memory
of its process (MiB). Targets: the format's peak flat in the input's size
(the largest scale's within 1.2x of the smallest's) and its trials/s within
1.5x of the v1 import's. A registered format without a generator is listed
as not measured.
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
BENCH_DB = "benchview_bench_formats"
FLAT_MAX = 1.2
SLOWER_MAX = 1.5


def _release(root: Path, scale: int) -> list[Path]:
    from samplegen.release import generate_release

    generate_release(root / "release", models=6, tasks=24 * scale, released=24 * scale, seed=3)
    return [root / "release"]


def _harbor(root: Path, scale: int) -> list[Path]:
    from samplegen.harbor import write_sample_harbor

    write_sample_harbor(root / "jobs", tasks=16 * scale, extra_steps=40)
    (root / "jobs" / "models.json").unlink()
    return [root / "jobs"]


def _terminal_bench(root: Path, scale: int) -> list[Path]:
    from samplegen.terminal_bench import write_sample_terminal_bench

    write_sample_terminal_bench(root / "tb", tasks=24 * scale, steps=40)
    return [root / "tb"]


def _inspect_logs(root: Path, scale: int) -> list[Path]:
    """Three models' logs, each 24 samples x 2 epochs (times ``scale``) of 40 turns."""
    from samplegen.inspect_logs import MODELS, header, sample_record, write_eval

    for rank, (model, _solved) in enumerate(MODELS):
        records = [
            sample_record(
                n, epoch, model=model, turns=40, value="C" if (n + rank) % 3 else "I",
                flag="flag{b}",
            )
            for epoch in (1, 2)
            for n in range(1, 24 * scale + 1)
        ]  # fmt: skip
        write_eval(
            root / "logs" / f"{model.split('/', 1)[1]}.eval", header(model, records), records
        )
    return [root / "logs"]


def _swebench_experiments(root: Path, scale: int) -> list[Path]:
    """The three sample submissions (SWE-agent, mini-SWE-agent, OpenHands
    trajectories) on 48 instances (times ``scale``)."""
    from samplegen.swebench import write_sample_swebench

    write_sample_swebench(root / "experiments", count=48 * scale)
    return [root / "experiments" / "evaluation" / "verified"]


# format name -> writes input of that format at a scale; returns the paths to import.
# swebench.com's leaderboards.json and the OpenHands index hold several benches
# each (mostly published figures, few trials): no generator here.
GENERATORS = {
    "release": _release,
    "harbor": _harbor,
    "terminal-bench": _terminal_bench,
    "inspect-logs": _inspect_logs,
    "swebench-experiments": _swebench_experiments,
}


def _setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, skip_checks=True)


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _options(name: str):
    from formats.sources.protocol import ImportOptions

    return ImportOptions() if name == "release" else ImportOptions(bench="bench")


def child(mode: str, name: str, paths: str, database_url: str) -> None:
    _setup(database_url)
    from formats.reader import open_release
    from ingest.running.opening import open_for_import
    from ingest.writing.services import write_release

    started = time.perf_counter()
    if mode == "format":
        found = paths.split(os.pathsep)
        with open_for_import(found, options=_options(name), adapter=name) as source:
            result = write_release(source=source, scrub=getattr(source, "scrubs", False))
    else:
        with open_release(paths) as source:
            result = write_release(source=source, scrub=True)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "seconds": seconds,
                "attempts": len(result.plan.attempts),
                "events": result.plan.events,
                "peak_mib": _peak_mib(),
            }
        )
    )


def prepare(name: str, work: Path, scale: int) -> None:
    """Writes the input and the v1 folder the door makes of it; prints their paths."""
    _setup(f"sqlite:///{work / 'prepare.sqlite3'}")
    from ingest.running.opening import open_for_import

    paths = GENERATORS[name](work / "input", scale)
    size = sum(p.stat().st_size for path in paths for p in path.rglob("*") if p.is_file())
    release = work / "v1"
    with open_for_import(list(paths), options=_options(name), adapter=name) as source:
        for file in source.names():
            target = release / file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read(file))
    print(json.dumps({"paths": [str(p) for p in paths], "v1": str(release), "size": size}))


def _run(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, cwd=ROOT
    )
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_postgres(base_url: str) -> str:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    return base_url.rsplit("/", 1)[0] + f"/{BENCH_DB}"


def _registered() -> list[str]:
    out = subprocess.run(
        [sys.executable, __file__, "--registered"], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,4", help="comma-separated multiples of the base")
    parser.add_argument("--formats", help="comma-separated format names (default: all)")
    parser.add_argument("--pg", help="also run on PostgreSQL (a server URL)")
    args = parser.parse_args()
    scales = [int(s) for s in args.scales.split(",")]
    registered = _registered()
    names = args.formats.split(",") if args.formats else registered
    for name in registered:
        if name not in GENERATORS:
            print(f"{name}: registered, no generator here: not measured")
    for name in [n for n in names if n in GENERATORS]:
        peaks: dict[str, dict[int, float]] = {}
        for scale in scales:
            # Not "benchview-release-...": the safe reader sweeps stale unpack
            # folders by that prefix.
            with tempfile.TemporaryDirectory(prefix=f"bvbench-formats-{name}-") as tmp:
                work = Path(tmp)
                found = _run("--prepare", name, str(work), str(scale))
                databases = [("sqlite", lambda n, work=work: f"sqlite:///{work / n}.sqlite3")]
                if args.pg:
                    databases.append(("postgresql", lambda n: fresh_postgres(args.pg)))
                for label, url in databases:
                    fmt = _run("--child", "format", name, os.pathsep.join(found["paths"]), url("f"))
                    v1 = _run("--child", "v1", name, found["v1"], url("v1"))
                    trials = fmt["attempts"]
                    print(
                        f"{name} {scale}x ({trials} trials, {found['size'] / 2**20:.1f} MiB input)"
                        f" on {label}:"
                    )
                    for mode, got in (("format", fmt), ("v1", v1)):
                        peaks.setdefault(f"{label} {mode}", {})[scale] = got["peak_mib"]
                        print(
                            f"  {mode:6}: {trials / got['seconds']:7.1f} trials/s, "
                            f"peak {got['peak_mib']:.0f} MiB ({got['seconds']:.1f} s, "
                            f"{got['events']} events)"
                        )
                    ratio = fmt["seconds"] / v1["seconds"]
                    print(f"  {name}/v1 time {ratio:.2f} (target <= {SLOWER_MAX})")
                shutil.rmtree(work, ignore_errors=True)
        low, high = min(scales), max(scales)
        for label, by_scale in peaks.items():
            if high != low:
                flat = by_scale[high] / by_scale[low]
                print(f"{name} {label}: peak {high}x/{low}x {flat:.2f} (target <= {FLAT_MAX})")


def _registered_main() -> None:
    _setup("sqlite://:memory:")
    from formats.sources.registry import ADAPTERS  # Harbor's is added as the apps load

    print(json.dumps(list(ADAPTERS)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:6])
    elif len(sys.argv) > 1 and sys.argv[1] == "--prepare":
        prepare(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--registered":
        _registered_main()
    else:
        main()
