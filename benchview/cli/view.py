"""``benchview view PATH...``: import into a cache database of its own, then serve it."""

from __future__ import annotations

import argparse
import signal
import sys
import time
import webbrowser
from pathlib import Path

from benchview.cli import paths as cache
from benchview.cli import site

HELP = "import paths into a cache database and browse them"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="a release (folder or archive), Harbor jobs, a job, a trial, or one transcript",
    )
    parser.add_argument("--port", type=int, default=8000, help="default 8000 (0: any free one)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    folder = cache.cache_dir(args.paths)
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        raise SystemExit(f"benchview view: {missing[0]}: no such file or folder")
    digest = cache.fingerprint(args.paths)
    site.local_site(folder, host=args.host)
    if cache.is_current(folder, digest):
        print(f"Reusing {folder} (the paths are unchanged since it was made)")
    else:
        _build(args.paths, folder)
        cache.remember(folder, digest)
    # Ctrl-C and a plain kill both stop the server and its worker cleanly.
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    from benchview.cli.server import serve

    def ready(address: str) -> None:
        took = time.monotonic() - started
        print(f"Serving Benchview on {address} (ready in {took:.1f} s; Ctrl-C stops it)")
        sys.stdout.flush()
        if not args.no_browser:
            webbrowser.open(address)

    serve(args.host, args.port, ready=ready)
    return 0


def _build(paths: list[Path], folder: Path) -> None:
    """Migrate, collect the static files and import; the fingerprint is written
    only after all of it succeeded, so a failure re-imports next time."""
    from django.core.management import call_command

    from benchview.cli.imports import import_paths

    (folder / "fingerprint").unlink(missing_ok=True)
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    # Scrubbed, not refused: the scrubbing rules guard what a site publishes, and
    # one's own runs on one's own machine routinely hold home paths.
    import_paths(paths, transcripts_dir=folder / "transcripts", scrub=True)
