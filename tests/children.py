"""Child processes for tests that kill a holder with SIGKILL, or that need a second process.

A child runs Python code with the project's settings and the environment the
test gives; ``ready`` waits for a line the child prints when it reached the
state under test, so nothing depends on sleeping for the right time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """A URL for the test database the current test runs on (PostgreSQL only).

    SQLite's test database lives in memory, so a child cannot share it; tests
    that need a shared SQLite database give the child a file of its own.
    """
    s = connection.settings_dict
    host = s.get("HOST") or "127.0.0.1"
    auth = s.get("USER") or ""
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    return f"postgres://{auth}@{host}:{s.get('PORT') or 5432}/{s['NAME']}"


def start(
    code: str, *, env: dict[str, str] | None = None, args: list[str] = ()
) -> subprocess.Popen:
    """Run ``code`` (after django.setup()) in a new Python process; its stdout is a pipe."""
    prelude = "import django\ndjango.setup()\n"
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-c", prelude + textwrap.dedent(code), *args],
        cwd=ROOT,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ready(child: subprocess.Popen, line: str) -> None:
    """Wait until the child prints ``line``; fail with its stderr if it ends first."""
    for got in child.stdout:
        if got.strip() == line:
            return
    child.wait(30)
    raise AssertionError(f"child ended ({child.returncode}) before {line!r}: {child.stderr.read()}")


def kill9(child: subprocess.Popen) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    assert child.returncode == -signal.SIGKILL
    child.stdout.close()
    child.stderr.close()


def run(args: list[str], *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run ``manage.py args`` to completion in a new process."""
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
