import argparse
from pathlib import Path

from django.core.management.base import BaseCommand

from formats.sources import ImportOptions
from formats.sources.registry import ADAPTERS
from formats.v1.scoring import DEFAULT_REWARD_THRESHOLD
from ingest.management.commands.import_harbor import threshold
from ingest.management.door import door_import


class Command(BaseCommand):
    help = (
        "Import Inspect AI logs (.eval or .json files, or folders of them) as a pass-rate "
        "bench: samples are tasks, epochs trials, each log's model a model. The logs are "
        "the whole bench."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--bench", required=True, help="the bench id (a slug)")
        parser.add_argument("--title", help="the bench title (default: the logs' task)")
        parser.add_argument(
            "--dry-run", action="store_true", help="validate and report; write nothing"
        )
        parser.add_argument(
            "--staged", action="store_true", help="keep new batches staff-only until published"
        )
        parser.add_argument(
            "--pass-threshold",
            type=threshold,
            default=DEFAULT_REWARD_THRESHOLD,
            help="a trial passes when its scorer's value reads at least this (C is 1, P 0.5, "
            "I and N 0; numbers as they are; default 1.0)",
        )
        parser.add_argument(
            "--scrub",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="rewrite internal host names and home paths in the samples (the default); "
            "--no-scrub keeps the bytes verbatim and refuses them",
        )

    def handle(self, *args, paths, bench, dry_run, staged, scrub, **options):
        chosen = ImportOptions(
            bench=bench,
            title=options["title"],
            threshold=options["pass_threshold"],
            scrub=scrub,
            replace=True,  # the logs are the whole bench
        )

        # The one door with the format fixed (import_results detects it).
        door_import(
            self,
            adapter=ADAPTERS["inspect-logs"],
            paths=[Path(p) for p in paths],
            options=chosen,
            dry_run=dry_run,
            staged=staged,
            noop="nothing changed: the database already holds these logs",
        )
