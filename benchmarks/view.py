"""`benchview view` on a folder of Harbor jobs: time to the first page and peak memory.

    .venv/bin/python benchmarks/view.py JOBS [--port 8110] [--runs 2]

Starts ``benchview view JOBS --no-browser`` with an empty cache folder, times
until the leaderboard answers (import included), then again with the cache
reused. Peak memory is each process's high-water resident set (VmHWM, Linux):
the view process (importer and server) and its import worker. Target: the
first page within 15 s on 400 MB of jobs; a second start serving within 2 s.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _peak_kib(pid: int) -> int:
    """VmHWM of ``pid`` and its children, in KiB (0 once they are gone)."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for one in pids:
        try:
            status = Path(f"/proc/{one}/status").read_text()
        except OSError:
            continue
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        total += int(found[1]) if found else 0
    return total


def _run(jobs: Path, port: int, cache: str) -> tuple[float, float, int, str]:
    """Seconds to "Serving", seconds to the first leaderboard page, peak KiB, output."""
    env = {**os.environ, "XDG_CACHE_HOME": cache}
    env.pop("DATABASE_URL", None)
    benchview = Path(sys.executable).with_name("benchview")
    command = [str(benchview), "view", str(jobs), "--no-browser", "--port", str(port)]
    started = time.monotonic()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines: list[str] = []
    serving: list[float] = []

    def read() -> None:
        for line in process.stdout:
            lines.append(line)
            if "Serving Benchview" in line:
                serving.append(time.monotonic() - started)

    threading.Thread(target=read, daemon=True).start()
    slug = re.sub(r"[^a-z0-9-]+", "-", jobs.resolve().name.lower()).strip("-")
    url = f"http://127.0.0.1:{port}/{slug}/"
    first_page = None
    while process.poll() is None and time.monotonic() - started < 600:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                response.read()
            first_page = time.monotonic() - started
            break
        except OSError:
            time.sleep(0.1)
    peak = _peak_kib(process.pid)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    if first_page is None:
        sys.exit("".join(lines[-30:]))
    return (serving[0] if serving else float("nan")), first_page, peak, "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs", type=Path)
    parser.add_argument("--port", type=int, default=8110)
    args = parser.parse_args()
    print(f"{args.jobs}: {_size(args.jobs) / 1e6:.0f} MB")
    with tempfile.TemporaryDirectory(prefix="benchview-view-") as cache:
        for label in ("first run (imports)", "second run (cache reused)"):
            serving, page, peak, output = _run(args.jobs, args.port, cache)
            imported = re.search(r"imported \S+ revision \S+: (\d+) attempt", output)
            note = f", {imported[1]} attempts imported" if imported else ""
            print(
                f"{label}: serving after {serving:.1f} s, first page after {page:.1f} s, "
                f"peak memory {peak / 1024:.0f} MiB (view + worker){note}"
            )


if __name__ == "__main__":
    main()
