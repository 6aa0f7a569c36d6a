import os

from django.core.management.base import BaseCommand, CommandError

from ingest.management.commands.import_release import _require_migrated
from ingest.running.locks import ImportBusy, import_lock
from ingest.writing.hidden import hidden_cleanup
from leaderboard.models import Bench
from trajectories.services import blob_files_sweep


class Command(BaseCommand):
    help = (
        "Delete what interrupted chunked imports left, hidden: their pending benches "
        "(no longer resumable), the benches they replaced, and blob files no row names."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--keep-pending",
            action="store_true",
            help="keep pending benches, for the next chunked import of each to resume",
        )
        parser.add_argument("--dry-run", action="store_true", help="list them; delete nothing")

    def handle(self, *args, keep_pending, dry_run, **options):
        _require_migrated()
        if dry_run:
            states = [Bench.State.RETIRED, *([] if keep_pending else [Bench.State.PENDING])]
            hidden = Bench.everything.filter(state__in=states).order_by("pk")
            for state, target in hidden.values_list("state", "target_slug"):
                self.stdout.write(f"{state} {target}")
            self.stdout.write(f"dry run: {len(hidden)} hidden bench(es), nothing deleted")
            return
        try:
            # A pending bench may be the one a running import is writing.
            with import_lock(holder=f"import_cleanup (pid {os.getpid()})"):
                cleaned = hidden_cleanup(pending=not keep_pending)
                files = blob_files_sweep()
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        for bench in cleaned.benches:
            self.stdout.write(f"deleted {bench}")
        self.stdout.write(
            self.style.SUCCESS(
                f"{len(cleaned.benches)} hidden bench(es) deleted: {cleaned.attempts} attempt "
                f"row(s), {cleaned.blobs} blob(s) and {files} stray blob file(s)"
            )
        )
