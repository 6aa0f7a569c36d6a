import argparse
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.sources import ImportOptions
from formats.sources.registry import ADAPTERS
from formats.v1.scoring import EXCEPTIONS_RULES
from ingest.management.commands.import_harbor import threshold
from ingest.management.commands.import_release import CHUNKED_HELP, _require_migrated
from ingest.management.door import choose, door_import


class Command(BaseCommand):
    help = (
        "Import results in any registered format (a v1 release, Harbor jobs, Terminal-Bench "
        "runs, ...), detected by content, as one bench. Several paths merge into one bench."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--bench", required=True, help="the bench id (a slug)")
        parser.add_argument("--title", help="the bench title (default: from the id)")
        parser.add_argument(
            "--format",
            choices=sorted(ADAPTERS),
            help="the format of PATH (default: detected from its content)",
        )
        parser.add_argument("--models", metavar="FILE", help="ids and facts of the models")
        parser.add_argument(
            "--dry-run", action="store_true", help="validate and report; write nothing"
        )
        parser.add_argument(
            "--staged", action="store_true", help="keep new batches staff-only until published"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="make these results the whole bench (default: replace only their models)",
        )
        parser.add_argument("--chunked", action="store_true", help=CHUNKED_HELP)
        parser.add_argument(
            "--scrub",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="rewrite internal host names and home paths in raw results and report each "
            "rewrite (the default); --no-scrub keeps the bytes and refuses them",
        )
        parser.add_argument(
            "--pass-threshold",
            type=threshold,
            help="a trial passes when its reward is at least this (formats with a reward)",
        )
        parser.add_argument(
            "--exceptions",
            choices=EXCEPTIONS_RULES,
            help="how a trial that raised is scored (formats with exceptions; see import_harbor)",
        )

    def handle(self, *args, paths, bench, dry_run, staged, scrub, **options):
        _require_migrated()
        paths = [Path(p) for p in paths]
        models_file = None
        if options["models"]:
            try:
                models_file = (Path(options["models"]).read_bytes(), options["models"])
            except OSError as exc:
                raise CommandError(f"{options['models']}: cannot be read ({exc})") from None
        chosen = ImportOptions(
            bench=bench,
            title=options["title"],
            models_file=models_file,
            threshold=options["pass_threshold"],
            exceptions_rule=options["exceptions"],
            replace=options["replace"],
            scrub=scrub,
        )
        adapter = choose(paths, chosen, options["format"])
        self.stdout.write(f"format: {adapter.name}" + ("" if options["format"] else " (detected)"))
        door_import(
            self,
            adapter=adapter,
            paths=paths,
            options=chosen,
            dry_run=dry_run,
            staged=staged,
            chunked=options["chunked"],
            noop="nothing changed: the database already holds these results",
        )
