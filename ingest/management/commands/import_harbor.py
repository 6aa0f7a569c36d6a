import argparse
import math
import os
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.sources import ImportOptions
from formats.v1.scoring import (
    DEFAULT_EXCEPTIONS_RULE,
    DEFAULT_REWARD_THRESHOLD,
    EXCEPTIONS_RULES,
)
from ingest.management.outcome import report_import
from ingest.models import ImportRecord
from ingest.running.cli_progress import TerminalProgress
from ingest.running.imports import Action, run_import
from ingest.running.locks import ImportBusy
from ingest.running.opening import open_for_import, progress_option


def threshold(text: str) -> float:
    """--pass-threshold: a finite number, 0 or more ("nan" and "inf" are floats too)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a finite number, 0 or more")
    return value


class Command(BaseCommand):
    help = (
        "Import Harbor jobs (a job folder, a folder of jobs, a trial folder, or a .zip/.tar.gz "
        "of any of these) as a pass-rate bench. Several paths merge into one bench."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--bench", required=True, help="the bench id (a slug)")
        parser.add_argument("--title", help="the bench title (default: from the id)")
        parser.add_argument(
            "--models", metavar="FILE", help="JSON list of {model_name, agent, id, ...}"
        )
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
            help="a trial passes when its reward is at least this (default 1.0)",
        )
        parser.add_argument(
            "--exceptions",
            choices=EXCEPTIONS_RULES,
            default=DEFAULT_EXCEPTIONS_RULE,
            help="how a trial that raised is scored: harbor (its reward decides, as the "
            "job's result.json counts it; the default), fail (it fails), terminal-bench "
            "(left out unless it timed out)",
        )
        parser.add_argument(
            "--allow-partial",
            action="store_true",
            help="import a job still running: finished trials, the rest flagged",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="make these jobs the whole bench (default: replace only their models)",
        )
        parser.add_argument(
            "--scrub",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="rewrite internal host names and home paths in the trials' files and report "
            "each rewrite (the default); --no-scrub keeps the bytes verbatim and refuses them",
        )

    def handle(self, *args, paths, bench, dry_run, staged, scrub, **options):
        started = time.monotonic()
        shown = " ".join(str(p).rstrip("/") for p in paths)
        models_file = None
        if options["models"]:
            try:
                models_file = (Path(options["models"]).read_bytes(), options["models"])
            except OSError as exc:
                raise CommandError(f"{options['models']}: cannot be read ({exc})") from None

        progress = TerminalProgress(self.stderr._out)
        import_options = ImportOptions(
            bench=bench,
            title=options["title"],
            models_file=models_file,
            threshold=options["pass_threshold"],
            exceptions_rule=options["exceptions"],
            allow_partial=options["allow_partial"],
            replace=options["replace"],
            scrub=scrub,
            progress=progress_option(progress),
            labels=tuple(str(p).rstrip("/") for p in paths),
        )

        def opener():
            # Called under the import lock: the models it keeps are read from the
            # database, which no other import may change meanwhile.
            return open_for_import(
                paths, options=import_options, adapter="harbor", say=self.stdout.write
            )

        try:
            done = run_import(
                path=shown,
                name=shown,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_harbor {shown[:200]} (pid {os.getpid()})",
                staged=staged,
                scrub=scrub,
                progress=progress,
                bench=bench,
                opener=opener,
            )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        finally:
            progress.close()
        report_import(
            self,
            done,
            started=started,
            noop="nothing changed: the database already holds these jobs",
        )
