"""``benchview check PATH...``: validate without writing (the import commands'
dry run). Exit 1 naming the file and JSON path of each problem; exit 0
printing what an import would do."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from benchview.cli import import_any, site

HELP = "validate releases, Harbor jobs or transcripts; print what would be imported"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    import_any.add_source_arguments(parser)


def run(args: argparse.Namespace) -> int:
    args.dry_run = True
    if os.environ.get("DATABASE_URL"):
        return import_any.run(args)
    # No database named: compare against an empty one, so the answer is what a
    # fresh import would do.
    with tempfile.TemporaryDirectory(prefix="benchview-check-") as folder:
        site.local_site(Path(folder), host="127.0.0.1")
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        return import_any.run(args)
