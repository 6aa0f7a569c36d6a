"""Inspect log import: one long sample (1,000 vs 10,000 turns) and many samples
(a log four times larger), each import in its own process on a fresh SQLite
database; then the long attempt's page.

    .venv/bin/python benchmarks/import_inspect.py [--turns 1000,10000] [--samples 50,200]

Prints, per import: the log's size, trials, events, wall time and the peak
resident memory of the importing process (MiB), and the attempt page's time
and size for the long samples. The sample's model events carry their input
as ``input_refs`` (Inspect's condensed form): a model event's input is never
read, so the file and the import grow with the turns, not with their square.
Targets: the peak for the 10,000-turn sample within the 250 MiB the Harbor
import keeps to; the attempt page under 2 s; for many samples, the peak flat
(the larger log's within 1.2x of the smaller's).
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
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def write_log(path: Path, samples: int, turns: int) -> None:
    from samplegen.inspect_logs import header, sample_record, write_eval

    records = [
        sample_record(n, 1, model="openai/bench", turns=turns, value="C" if n % 2 else "I",
                      flag="flag{b}")
        for n in range(1, samples + 1)
    ]  # fmt: skip
    write_eval(path, header("openai/bench", records), records)


def child(log: str, db: str, page: bool) -> None:
    """Import ``log`` (an Inspect log, or with ``release:`` a v1 release folder)."""
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    os.environ["BENCHVIEW_PAGE_CACHE_S"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, skip_checks=True)
    base = _peak_mib()
    import io

    started = time.perf_counter()
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    if log.startswith("release:"):
        call_command("import_release", log.removeprefix("release:"), **quiet)
    else:
        call_command("import_inspect", log, bench="bench", **quiet)
    took = time.perf_counter() - started
    if os.environ.get("BENCH_EXPORT"):
        call_command("export_release", "bench", os.environ["BENCH_EXPORT"], **quiet)
    from leaderboard.models import Attempt
    from trajectories.models import Event

    result = {
        "seconds": took,
        "peak_mib": _peak_mib(),
        "before_mib": base,
        "trials": Attempt.all_trials.count(),
        "events": Event.objects.count(),
    }
    if page:
        from django.test import Client

        client = Client()
        attempt = Attempt.objects.order_by("task__slug").first()
        url = f"/bench/attempts/{attempt.model.slug}/{attempt.task.slug}/"
        # The first request, templates not yet compiled and no page cached: an upper bound.
        started = time.perf_counter()
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        cold = time.perf_counter() - started
        # Then warm (templates compiled), the rendered-page cache off (BENCHVIEW_PAGE_CACHE_S=0).
        started = time.perf_counter()
        client.get(url)
        result.update(page_s=cold, warm_s=time.perf_counter() - started,
                      page_kb=len(body) / 1024, status=response.status_code)  # fmt: skip
    print(json.dumps(result))


def write_in_child(log: Path, samples: int, turns: int) -> None:
    # Linux keeps a process's peak resident memory across fork and exec: the
    # log is built in a process of its own so the import's peak is its own.
    subprocess.run(
        [sys.executable, __file__, "--write", str(log), str(samples), str(turns)], check=True
    )


def run(log: Path | str, work: Path, page: bool, export: Path | None = None) -> dict:
    db = work / f"{Path(str(log)).stem}-{'v1' if str(log).startswith('release:') else 'in'}.sqlite3"
    db.unlink(missing_ok=True)
    env = {**os.environ, **({"BENCH_EXPORT": str(export)} if export else {})}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(log), str(db), "1" if page else ""],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", default="1000,10000")
    parser.add_argument("--samples", default="50,200")
    parser.add_argument("--child", nargs=3)
    parser.add_argument("--write", nargs=3)
    args = parser.parse_args()
    if args.write:
        write_log(Path(args.write[0]), int(args.write[1]), int(args.write[2]))
        return
    if args.child:
        child(args.child[0], args.child[1], bool(args.child[2]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print("one long sample:")
        for turns in map(int, args.turns.split(",")):
            log = work / f"long-{turns}.eval"
            write_in_child(log, 1, turns)
            got = run(log, work, page=True, export=work / f"v1-{turns}")
            v1 = run(f"release:{work / f'v1-{turns}'}", work, page=False)
            with zipfile.ZipFile(log) as archive:
                inflated = archive.getinfo("samples/1_epoch_1.json").file_size
            print(
                f"  {turns:>6} turns: log {log.stat().st_size / 1024**2:6.1f} MiB "
                f"(sample {inflated / 1024**2:.1f} MiB inflated), "
                f"{got['events']:>6} events, import {got['seconds']:6.2f} s, "
                f"peak {got['peak_mib']:6.1f} MiB (Django at rest {got['before_mib']:.1f}); "
                f"attempt page {got['page_s']:.2f} s cold, {got['warm_s']:.2f} s warm, "
                f"{got['page_kb']:.0f} KiB, "
                f"HTTP {got['status']}"
            )
            print(
                f"  {'':>6}  the same exported as a v1 release, import_release: "
                f"{v1['seconds']:6.2f} s, peak {v1['peak_mib']:6.1f} MiB"
            )
        print("many samples of 50 turns:")
        for samples in map(int, args.samples.split(",")):
            log = work / f"many-{samples}.eval"
            write_in_child(log, samples, 50)
            got = run(log, work, page=False)
            rate = got["trials"] / got["seconds"]
            print(
                f"  {samples:>6} samples: log {log.stat().st_size / 1024**2:6.1f} MiB, "
                f"{got['events']:>7} events, import {got['seconds']:6.2f} s "
                f"({rate:.1f} trials/s), peak {got['peak_mib']:6.1f} MiB"
            )


if __name__ == "__main__":
    main()
