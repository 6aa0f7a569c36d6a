"""Serving speed of pages, API and /data/v1 mirror against the trivial view, under gunicorn.

    .venv/bin/python benchmarks/serve.py [--seconds 5] [--rounds 3] [--connections 16] [--pg URL]
        [--models 20 --tasks 200 --events 300000]

Creates a dedicated PostgreSQL database (benchview_bench_serve), imports the
default sample release into it, runs gunicorn (2 workers, 127.0.0.1 only) and
drives it with wrk (Debian's package) for a fixed time per target (targets take turns over
several rounds): /healthz (the ceiling on this
machine), leaderboard.json, matrix.json, the largest trajectory.json, and
conditional requests answered 304, and the HTML pages (leaderboard, matrix,
task, model, the attempt page of the largest trajectory) and /api/attempts/,
warm (the rendered-page cache), as a browser asks for them (gzip accepted).
Prints requests/s, p99 latency and each as a ratio to /healthz measured in the
same round (medians over rounds), then stops gunicorn and drops the database.
Targets: leaderboard.json, matrix.json, every page and /api/attempts/ >= 50%
of /healthz, the pages with p99 < 50 ms; a 304 >= 70%; no errors.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
DB_NAME = "benchview_bench_serve"
TARGETS = {"leaderboard.json": 0.5, "matrix.json": 0.5, "matrix.json 304": 0.7}
PAGES = (
    "leaderboard page",
    "matrix page",
    "task page",
    "model page",
    "attempt page",
    "api/attempts",
)
TARGETS.update({name: 0.5 for name in PAGES})
P99_MS = 50.0
BROWSER = {"Accept-Encoding": "gzip", "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def _admin(pg_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(sql)


def _redis_running() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [str(PYTHON), "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def _largest_trajectory(env: dict) -> str:
    code = (
        "from trajectories.models import Evidence;"
        "e = Evidence.objects.select_related('attempt__model', 'attempt__task',"
        " 'attempt__bench').order_by('-events_total').first();"
        "a = e.attempt;"
        "print(f'{a.bench.slug} {a.model.slug} {a.task.slug} {e.events_total}')"
    )
    # The last line: Django's shell may print its own notes first.
    line = _manage(env, "shell", "-c", code).strip().splitlines()[-1]
    bench, model, task, events = line.split()
    print(f"largest trajectory: {model}/{task}, {events} events")
    return bench, model, task


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def _wrk(url: str, seconds: int, connections: int, headers: dict[str, str]) -> dict:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run(command + [url], check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()
    errors = 0
    if match := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        errors += int(match.group(1))
    if match := re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    ):
        errors += sum(int(x) for x in match.groups())
    return {"rps": rps, "p99_ms": float(value) * _UNITS[unit], "errors": errors}


def _get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), b""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5, help="per target and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--pg", default=DEFAULT_PG, help="an admin URL of the PostgreSQL server")
    parser.add_argument("--models", type=int, help="sample release shape (default: the sample's)")
    parser.add_argument("--tasks", type=int)
    parser.add_argument("--released", type=int)
    parser.add_argument("--events", type=int)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("serve.py drives the server with wrk: apt-get install wrk")

    db_url = args.pg.rsplit("/", 1)[0] + f"/{DB_NAME}"
    _admin(args.pg, f"DROP DATABASE IF EXISTS {DB_NAME}")
    _admin(args.pg, f"CREATE DATABASE {DB_NAME}")
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DEBUG": "false",
        # Production settings refuse to start without one; this run's own.
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1",
        # Keep each worker's connection open, as production does.
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # The API's throttle still counts every request, but never refuses one here.
        "BENCHVIEW_API_ANON_RATE": "100000000/minute",
    }
    if _redis_running():
        # Several workers share the throttle's counts: Redis where there is one,
        # as a deployment of several machines would (else the database cache).
        env["BENCHVIEW_REDIS_URL"] = "redis://127.0.0.1:6379/14"
    server = None
    try:
        with tempfile.TemporaryDirectory(prefix="benchview-serve-") as tmp:
            release = Path(tmp) / "release"
            print("generating and importing the sample release…")
            shape = [
                f"--{name}={value}"
                for name in ("models", "tasks", "released", "events")
                if (value := getattr(args, name)) is not None
            ]
            _manage(env, "make_sample_release", str(release), *shape)
            _manage(env, "migrate", "--verbosity", "0")
            _manage(env, "import_release", str(release))
        bench, model, task = _largest_trajectory(env)
        trajectory = f"/data/v1/{bench}/attempts/{model}/{task}/trajectory.json"

        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [
                str(GUNICORN),
                "config.wsgi",
                "--workers",
                "2",
                "--bind",
                f"127.0.0.1:{port}",
                "--no-control-socket",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not answer /healthz within 60 s")
            time.sleep(0.3)

        urls = {
            "healthz (trivial)": "/healthz",
            "leaderboard.json": f"/data/v1/{bench}/leaderboard.json",
            "matrix.json": f"/data/v1/{bench}/matrix.json",
            "trajectory.json (largest)": trajectory,
            "leaderboard page": f"/{bench}/",
            "matrix page": f"/{bench}/matrix/",
            "task page": f"/{bench}/tasks/{task}/",
            "model page": f"/{bench}/models/{model}/",
            "attempt page": f"/{bench}/attempts/{model}/{task}/",
            "api/attempts": f"/api/attempts/?bench={bench}",
        }
        runs: dict[str, tuple[str, dict]] = {
            name: (path, BROWSER if name in PAGES else {}) for name, path in urls.items()
        }
        for name, path in list(urls.items()):
            for _ in range(5):  # warm both workers' caches
                status, headers, body = _get(base + path, runs[name][1])
                assert status == 200, (path, status)
            if name == "matrix.json":
                runs["matrix.json 304"] = (path, {"If-None-Match": headers["ETag"]})
            if name.startswith("trajectory.json"):
                print(f"trajectory.json is {len(body) / 1e6:.1f} MB")
                runs["trajectory.json 304"] = (path, {"If-None-Match": headers["ETag"]})
        for name, (path, headers) in runs.items():
            if name.endswith(" 304"):
                assert _get(base + path, headers)[0] == 304, name

        # Targets take turns, round after round, and each ratio is taken against
        # the trivial view of its own round: a machine whose load drifts (other
        # jobs, CPU boost) then shifts both sides of a ratio alike. Medians are printed.
        rounds: list[dict[str, dict]] = []
        for _ in range(args.rounds):
            rounds.append(
                {
                    name: _wrk(base + path, args.seconds, args.connections, headers)
                    for name, (path, headers) in runs.items()
                }
            )

        def median(values: list[float]) -> float:
            ordered = sorted(values)
            return ordered[len(ordered) // 2]

        setup = f"{args.rounds} rounds x {args.seconds}s per target, {args.connections} connections"
        store = "Redis" if "BENCHVIEW_REDIS_URL" in env else "the database cache"
        print(f"\n{setup}, gunicorn 2 workers, PostgreSQL; API throttle counts in {store}")
        print(f"{'target':28} {'req/s':>9} {'p99 ms':>8} {'ratio':>7} {'errors':>7}  goal")
        failed = False
        for name in runs:
            rps = median([r[name]["rps"] for r in rounds])
            p99 = median([r[name]["p99_ms"] for r in rounds])
            ratio = median([r[name]["rps"] / r["healthz (trivial)"]["rps"] for r in rounds])
            errors = sum(r[name]["errors"] for r in rounds)
            goal = TARGETS.get(name)
            verdict = ""
            if goal is not None:
                ok = ratio >= goal and errors == 0 and (name not in PAGES or p99 < P99_MS)
                failed |= not ok
                p99_goal = f", p99 < {P99_MS:.0f} ms" if name in PAGES else ""
                verdict = f">= {goal:.0%}{p99_goal} {'ok' if ok else 'MISSED'}"
            failed |= errors > 0
            figures = f"{rps:9.0f} {p99:8.2f} {ratio:7.1%} {errors:7d}"
            print(f"{name:28} {figures}  {verdict}")
        return 1 if failed else 0
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        _admin(args.pg, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


if __name__ == "__main__":
    sys.exit(main())
