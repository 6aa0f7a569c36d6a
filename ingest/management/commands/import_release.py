from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import OperationalError, ProgrammingError

from formats.sources.protocol import ImportOptions
from formats.sources.registry import ADAPTERS
from ingest.door.command import door_import


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
        # The one door (import_results) with the format fixed.
        door_import(
            self,
            adapter=ADAPTERS["release"],
            paths=[Path(path)],
            options=ImportOptions(),
            dry_run=dry_run,
            staged=staged,
            noop="nothing changed: the database already holds this release",
            release_scrub=scrub,
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
