"""SWE-bench experiments import speed and memory beside the v1 import of the same
content, at several sizes.

    .venv/bin/python benchmarks/import_swebench.py [--systems 4] [--instances 100]
                                                   [--steps 40] [--tests 200] [--scales 1,4]

For each scale, writes ``systems x scale`` synthetic submissions of
``instances`` instances each (an ``evaluation_details.jsonl`` line with a
patch and ``tests`` PASS_TO_PASS names, and a SWE-agent ``.traj`` of
``steps`` steps of about 2 KB), writes the release-v1 folder the adapter makes
of them, then imports each into a fresh SQLite database, every import in its
own process. Prints, per import, the peak resident memory of its process
(MiB) and attempts/s. Memory should be flat in the number of systems (each
is read, and built again, one at a time).
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


def _setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, skip_checks=True)


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_submissions(root: Path, systems: int, instances: int, steps: int, tests: int) -> int:
    filler = "x" * 2000
    for s in range(systems):
        folder = root / f"20250101_system_{s:03d}"
        (folder / "trajs").mkdir(parents=True)
        (folder / "metadata.yaml").write_text(
            "info:\n  name: System\ntags:\n  model: [m]\n  org: Org\n  checked: false\n"
        )
        with open(folder / "evaluation_details.jsonl", "w") as out:
            for i in range(instances):
                ident = f"repo__repo-{i:05d}"
                resolved = (i + s) % 3 == 0
                out.write(
                    json.dumps(
                        {
                            "instance_id": ident,
                            "resolved": resolved,
                            "applied": True,
                            "model_patch": f"diff --git a/f{i}.py b/f{i}.py\n+{filler}\n",
                            "F2P": {"success": ["t::new"] if resolved else [], "failure": []},
                            "P2P": {"success": [f"tests/t.py::k[{n}]" for n in range(tests)]},
                        }
                    )
                    + "\n"
                )
                traj = {
                    "trajectory": [
                        {"thought": "t", "action": "ls", "observation": filler, "state": {}}
                        for _ in range(steps)
                    ],
                    "history": [{"role": "user", "content": f"Solve {ident}"}],
                    "info": {"exit_status": "submitted"},
                }
                (folder / "trajs" / f"{ident}.traj").write_text(json.dumps(traj))
    return systems * instances


def child(mode: str, path: str, database_url: str) -> None:
    _setup(database_url)
    from benchmarks.recorded import import_recorded

    started = time.perf_counter()
    if mode == "swebench":
        result = import_recorded(path, adapter="swebench-experiments", bench="bench")
    else:
        result = import_recorded(path)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {"seconds": seconds, "attempts": len(result.plan.attempts), "peak_mib": _peak_mib()}
        )
    )


def prepare(work: Path, systems: int, instances: int, steps: int, tests: int) -> tuple[int, int]:
    _setup(f"sqlite:///{work / 'prepare.sqlite3'}")
    from formats.sources import ImportOptions
    from ingest.running.opening import open_for_import

    subs = work / "submissions"
    count = write_submissions(subs, systems, instances, steps, tests)
    size = sum(p.stat().st_size for p in subs.rglob("*") if p.is_file())
    release = work / "release"
    with open_for_import([subs], options=ImportOptions(bench="bench")) as source:
        for name in source.names():
            target = release / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read(name))
    return count, size


def run(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=4, help="submissions at scale 1")
    parser.add_argument("--instances", type=int, default=100)
    parser.add_argument("--steps", type=int, default=40, help="2 KB steps per trajectory")
    parser.add_argument("--tests", type=int, default=200, help="PASS_TO_PASS tests per instance")
    parser.add_argument("--scales", default="1,4", help="comma-separated multiples of --systems")
    args = parser.parse_args()
    peaks: dict[str, dict[int, float]] = {}
    scales = [int(s) for s in args.scales.split(",")]
    for scale in scales:
        with tempfile.TemporaryDirectory(prefix="benchview-swebench-") as tmp:
            work = Path(tmp)
            shape = [args.systems * scale, args.instances, args.steps, args.tests]
            got = run(["--prepare", str(work), *map(str, shape)])
            print(f"{scale}x: {got['attempts']} attempts, {got['size'] / 2**20:.0f} MiB")
            for mode, path in (("swebench", work / "submissions"), ("v1", work / "release")):
                found = run(["--child", mode, str(path), f"sqlite:///{work / mode}.sqlite3"])
                peaks.setdefault(mode, {})[scale] = found["peak_mib"]
                print(
                    f"  {mode:8}: peak {found['peak_mib']:.0f} MiB, "
                    f"{found['attempts'] / found['seconds']:.1f} attempts/s "
                    f"({found['seconds']:.1f} s)"
                )
    low, high = min(scales), max(scales)
    for mode, by_scale in peaks.items():
        print(f"{mode}: peak {high}x/{low}x {by_scale[high] / by_scale[low]:.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5])
    elif len(sys.argv) > 1 and sys.argv[1] == "--prepare":
        count, size = prepare(Path(sys.argv[2]), *map(int, sys.argv[3:7]))
        print(json.dumps({"attempts": count, "size": size}))
    else:
        main()
