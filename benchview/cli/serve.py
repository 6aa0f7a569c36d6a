"""``benchview serve``: production serving, as ``make serve`` does.

gunicorn (app loaded once before the workers fork) and whitenoise with the
collected, hashed static files; the import worker beside it; settings from the
environment. DEBUG is off and HTTPS on unless the environment says otherwise;
SECRET_KEY comes from the environment, else from ``var/secret-key`` under the
data folder (BENCHVIEW_DATA_DIR, default the current folder), made once.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path

from benchview.cli import site

HELP = "serve the site for production (gunicorn, whitenoise, the import worker)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="default 8000")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--no-migrate", action="store_true", help="do not run migrate first")


def _secret_key() -> str:
    data = Path(os.environ.get("BENCHVIEW_DATA_DIR") or Path.cwd())
    key_file = data / "var" / "secret-key"
    if not key_file.exists():
        key_file.parent.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def run(args: argparse.Namespace) -> int:
    for name, value in (
        ("DEBUG", "false"),
        ("BENCHVIEW_HTTPS", "true"),
        ("BENCHVIEW_MANIFEST_STATIC", "true"),
    ):
        os.environ.setdefault(name, value)
    if not os.environ.get("SECRET_KEY"):
        os.environ["SECRET_KEY"] = _secret_key()
    site.setup()
    from django.core.management import call_command

    if not args.no_migrate:
        call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    worker = subprocess.Popen(
        [sys.executable, "-m", "benchview", "manage", "db_worker", "--no-reload"]
    )
    gunicorn = [
        sys.executable, "-m", "gunicorn", "config.wsgi",
        "--bind", f"{args.host}:{args.port}", "--workers", str(args.workers),
        "--timeout", "60", "--preload", "--no-control-socket",
    ]  # fmt: skip
    server = subprocess.Popen(gunicorn)
    # A plain kill stops gunicorn and the worker too, as Ctrl-C does.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()  # gunicorn's graceful shutdown
        server.wait()
        return 0
    finally:
        worker.terminate()
        worker.wait()
