"""Bytes on the wire with and without gzip, and what compressing costs the server.

    .venv/bin/python benchmarks/compression.py [--events 20000] [--runs 5]

Builds the default sample release plus one attempt of ``--events`` events into
a SQLite database of its own, then fetches the leaderboard, the matrix, the
longest attempt page (first response, and ``?all=1`` streamed), its
``trajectory.json`` and ``/api/attempts/`` through Django's test client
twice: without ``Accept-Encoding`` and with ``gzip``. Prints each response's
size both ways (the ratio is the wire saving) and the median server time both
ways, so the cost of compressing is a ratio measured in the same run.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH = "compression-bench"


def setup(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build(events: int) -> None:
    from django.core.management import call_command

    from benchmarks.recorded import import_recorded
    from samplegen.release import generate_release

    call_command("migrate", verbosity=0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "release"
        generate_release(root, bench=BENCH, events=events)
        import_recorded(root)


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def fetch(client, url: str, runs: int, **headers) -> tuple[float, int, str]:
    times, size, encoding = [], 0, ""
    for _ in range(runs + 1):  # the first is a warm-up
        started = time.perf_counter()
        response = client.get(url, **headers)
        data = body(response)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        size, encoding = len(data), response.get("Content-Encoding", "")
        if encoding == "gzip":
            gzip.decompress(data)  # a real gzip stream, or this raises
    return statistics.median(times[1:]) * 1000, size, encoding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--db", default=str(Path(tempfile.gettempdir()) / "benchview-compression.sqlite3")
    )
    args = parser.parse_args()
    setup(Path(args.db))
    build(args.events)

    from django.db.models import Count
    from django.test import Client

    from leaderboard.models import Attempt

    longest = (
        Attempt.objects.filter(bench__slug=BENCH, has_detail=True)
        .annotate(n=Count("events"))
        .select_related("model", "task")
        .order_by("-n")
        .first()
    )
    page = f"/{BENCH}/attempts/{longest.model.slug}/{longest.task.slug}/"
    file = f"/data/v1/{BENCH}/attempts/{longest.model.slug}/{longest.task.slug}/trajectory.json"
    targets = {
        "leaderboard": f"/{BENCH}/",
        "matrix": f"/{BENCH}/matrix/",
        f"attempt page ({longest.n} events)": page,
        "attempt page ?all=1": page + "?all=1",
        "trajectory.json": file,
        "/api/attempts/": "/api/attempts/",
    }
    client = Client()
    print(f"{'response':34} {'plain':>12} {'gzip':>11} {'wire':>6} {'ms plain':>9} {'ms gzip':>8}")
    for name, url in targets.items():
        plain_ms, plain, _ = fetch(client, url, args.runs)
        packed_ms, packed, encoding = fetch(client, url, args.runs, HTTP_ACCEPT_ENCODING="gzip")
        assert encoding == "gzip", f"{url} was not compressed"
        print(
            f"{name:34} {plain:>12,} {packed:>11,} {packed / plain:>6.1%}"
            f" {plain_ms:>9.1f} {packed_ms:>8.1f}"
        )


if __name__ == "__main__":
    main()
