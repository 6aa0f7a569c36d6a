import os
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import OperationalError, ProgrammingError

from ingest.management.outcome import report_import
from ingest.models import ImportRecord
from ingest.running.cli_progress import TerminalProgress
from ingest.running.imports import Action, run_import
from ingest.running.locks import ImportBusy

CHUNKED_HELP = (
    "write a hidden copy of the bench a chunk at a time and swap it in at the end "
    "(a new bench or a whole one: every attempt is written); resumes an interrupted one"
)


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
        parser.add_argument("--chunked", action="store_true", help=CHUNKED_HELP)

    def handle(self, *args, path, dry_run, staged, scrub, chunked, **options):
        _require_migrated()
        started = time.monotonic()
        progress = TerminalProgress(self.stderr._out)
        try:
            done = run_import(
                path=path,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_release {os.path.basename(path)} (pid {os.getpid()})",
                staged=staged,
                scrub=scrub,
                progress=progress,
                adapter="release",
                chunked=chunked,
            )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        finally:
            progress.close()
        report_import(
            self,
            done,
            started=started,
            noop="nothing changed: the database already holds this release",
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
