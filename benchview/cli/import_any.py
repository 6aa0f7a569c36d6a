"""``benchview import PATH...``: import releases, Harbor jobs or transcripts, told
apart by content, into the database the environment names (as ``manage.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from benchview.cli import site

HELP = "import releases, Harbor jobs or transcripts (told apart by content)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("--dry-run", action="store_true", help="validate and report; write nothing")


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """What to read and how (``check`` takes the same)."""
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--bench", help="the bench id for Harbor jobs (default: the folder's name)")
    parser.add_argument(
        "--scrub",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="rewrite internal host names and home paths instead of refusing them "
        "(default: each import command's own: Harbor jobs scrubbed, releases refused)",
    )


def run(args: argparse.Namespace) -> int:
    site.setup()
    from benchview.cli.imports import import_paths
    from benchview.cli.kinds import NotFound

    try:
        import_paths(args.paths, dry_run=args.dry_run, bench=args.bench, scrub=args.scrub)
    except NotFound as exc:
        from django.core.management.base import CommandError

        raise CommandError(str(exc)) from None
    return 0
