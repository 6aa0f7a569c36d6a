import os
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import OperationalError, ProgrammingError

from ingest.cli_progress import TerminalProgress
from ingest.imports import Action, Outcome, recorded_import
from ingest.locks import ImportBusy
from ingest.models import ImportRecord
from ingest.report import plan_lines


class Command(BaseCommand):
    help = "Import a release folder, .zip or .tar.gz (release format v1)."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--dry-run", action="store_true", help="validate and report; write nothing"
        )
        parser.add_argument(
            "--staged", action="store_true", help="keep new batches staff-only until published"
        )
        parser.add_argument(
            "--scrub",
            action="store_true",
            help="rewrite internal host names, home paths and dropped headers instead of refusing",
        )

    def handle(self, *args, path, dry_run, staged, scrub, **options):
        _require_migrated()
        started = time.monotonic()
        progress = TerminalProgress(self.stderr._out)
        try:
            done = recorded_import(
                path=path,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_release {os.path.basename(path)} (pid {os.getpid()})",
                staged=staged,
                scrub=scrub,
                progress=progress,
            )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        finally:
            progress.close()
        plan, record = done.plan, done.record
        if plan is not None and plan.manifest is not None:
            for line in plan_lines(plan):
                self.stdout.write(line)
        if record.outcome == Outcome.FAILED:
            raise CommandError(f"the import failed, nothing was written: {record.message}")
        if record.outcome == Outcome.REFUSED:
            for problem in record.problems:
                self.stderr.write(f"error: {problem}")
            message = record.message.removesuffix("; nothing was written")
            raise CommandError(f"{message}; nothing was written")
        if record.outcome == Outcome.CHECKED:
            self.stdout.write("dry run: nothing was written")
            return
        if record.outcome == Outcome.NO_CHANGE:
            self.stdout.write("nothing changed: the database already holds this release")
            return
        result = done.result
        if result.blobs_removed:
            self.stdout.write(
                f"removed {result.blobs_removed} patch, transcript or ticket file(s) "
                "that no attempt refers to any more"
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {result.bench.slug} revision {result.bench.revision}: "
                f"{result.written_attempts} attempt(s) written in {time.monotonic() - started:.1f}s"
            )
        )


def _require_migrated() -> None:
    """Say "run migrate" instead of a "no such table" traceback half-way through."""
    connection = connections[DEFAULT_DB_ALIAS]
    try:
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except (OperationalError, ProgrammingError) as exc:
        raise CommandError(f"cannot read the database ({exc})") from None
    if pending:
        raise CommandError(
            f"the database is not ready ({len(pending)} migration(s) not applied): "
            "run `python manage.py migrate` first"
        )
