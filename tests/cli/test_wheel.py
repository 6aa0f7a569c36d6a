"""The built wheel, installed into a fresh virtual environment on Python 3.12 and
3.13: `benchview view` imports sample Harbor jobs, serves the leaderboard and an
attempt page, stops on Ctrl-C, and a second start reuses its cache.

CI runs the suite twice (SQLite, then PostgreSQL); this test does not touch the
test database, so it runs in the SQLite pass only. In CI (CI=true) a missing
interpreter fails the test instead of skipping it.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSIONS = ("3.12", "3.13")
UV = [sys.executable, "-m", "uv"]

pytestmark = [
    pytest.mark.wheel,
    pytest.mark.skipif(
        (os.environ.get("DATABASE_URL") or "").startswith("postgres"),
        reason="runs once per CI run, in the SQLite pass",
    ),
]


def interpreter(version: str) -> str | None:
    """pyenv's interpreter of that version, else one on PATH (pyenv's shims
    answer only for the versions selected, so they are passed over)."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    candidates = sorted(glob.glob(str(pyenv / f"{version}.*" / "bin" / f"python{version}")))
    if candidates:
        return candidates[-1]
    found = shutil.which(f"python{version}")
    return found if found and "/shims/" not in found else None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [*UV, "build", "--wheel", "--out-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"},
    )
    (built,) = out.glob("benchview-*.whl")
    return built


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class View:
    """`benchview view` in its own process group, its output collected."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.address: str | None = None
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)
            found = re.search(r"Serving Benchview on (\S+)", line)
            if found:
                self.address = found[1]
                self.ready.set()
        self.ready.set()

    def wait_ready(self, timeout: float) -> float:
        assert self.ready.wait(timeout), "".join(self.lines[-40:])
        assert self.address, "".join(self.lines[-40:])
        return time.monotonic() - self.started

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)

    @property
    def output(self) -> str:
        return "".join(self.lines)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.status == 200
        return response.read().decode()


@pytest.mark.parametrize("version", VERSIONS)
def test_the_installed_wheel_views_harbor_jobs_and_reuses_its_cache(wheel, tmp_path, version):
    python = interpreter(version)
    if python is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Python {version} is missing: CI checks the wheel on it")
        pytest.skip(f"no Python {version} here")
    venv = tmp_path / "venv"
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "VIRTUAL_ENV": str(venv)}
    for name in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "BENCHVIEW_DATA_DIR"):
        env.pop(name, None)
    subprocess.run([*UV, "venv", "--python", python, str(venv)], check=True, env=env)
    subprocess.run(
        [*UV, "pip", "install", "--python", str(venv / "bin" / "python"), str(wheel)],
        check=True,
        env=env,
    )
    benchview = str(venv / "bin" / "benchview")
    # Away from the checkout: the installed copy must find its templates and
    # static files in the package, and write nothing beside it.
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    jobs = tmp_path / "jobs"
    subprocess.run(
        [benchview, "manage", "make_sample_harbor", str(jobs)],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
    )
    port = free_port()
    command = [benchview, "view", str(jobs), "--no-browser", "--port", str(port)]

    first = View(command, env)
    try:
        first_start = first.wait_ready(240)
        assert first.address == f"http://127.0.0.1:{port}/"
        assert "imported jobs" in first.output
        board = fetch(first.address + "jobs/")
        attempt = re.search(
            r'href="(/jobs/attempts/[^"]+/)"', fetch(first.address + "jobs/matrix/")
        )
        assert attempt, "the matrix links no attempt"
        assert "<html" in fetch(first.address.rstrip("/") + attempt[1])
        assert fetch(first.address + "static/css/site.css")
        assert "gpt" in board.lower() or "claude" in board.lower()
    finally:
        assert first.stop() in (0, 130), first.output[-2000:]
    assert "Traceback" not in first.output

    second = View(command, env)
    try:
        second_start = second.wait_ready(60)
        fetch(second.address + "jobs/")
    finally:
        assert second.stop() in (0, 130), second.output[-2000:]
    assert "Reusing" in second.output
    assert "imported" not in second.output and "attempt(s) written" not in second.output
    print(
        f"Python {version}: first start (import) {first_start:.1f} s, "
        f"second start (cache reused) {second_start:.1f} s"
    )
    assert not list(tmp_path.glob("db.sqlite3*")), "view wrote a database outside its cache"
