"""Start ``manage.py db_worker`` in a subprocess against the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager

from django.conf import settings
from django.db import connections


def database_url() -> str:
    """The test database as a DATABASE_URL for a subprocess (a file on SQLite)."""
    db = connections["default"].settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        if "memory" in name:
            raise RuntimeError("mark the test `worker`: SQLite must use a file database")
        return f"sqlite:///{name}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@contextmanager
def db_worker(**env):
    """A running worker; killed (if still alive) and reaped when the block ends."""
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "BENCHVIEW_UPLOAD_DIR": str(settings.BENCHVIEW_UPLOAD_DIR),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **env,
    }
    # A file lock (where the import lock is one) must be the test's own file.
    lock_dir = getattr(settings, "BENCHVIEW_LOCK_DIR", None)
    if lock_dir is not None:
        environment["BENCHVIEW_LOCK_DIR"] = str(lock_dir)
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.1",
        ],
        cwd=settings.BASE_DIR,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        if process.stdout:
            process.stdout.close()


def wait_for(check, *, timeout: float = 60.0, every: float = 0.05, what: str = "condition"):
    """Poll ``check`` until it returns something truthy; return that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
