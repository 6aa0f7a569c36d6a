from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ingest.writing.export import ExportRefused, release_export
from leaderboard.models import Bench


class Command(BaseCommand):
    help = (
        "Write a bench's release (live tasks only) to DIR, for a static mirror; "
        "DIR is importable again with import_release."
    )

    def add_arguments(self, parser):
        parser.add_argument("bench", help="bench id")
        parser.add_argument("dir", type=Path, help="folder to become the release root")
        parser.add_argument(
            "--replace", action="store_true", help="remove DIR first if it is not empty"
        )

    def handle(self, *args, bench, dir, replace, **options):
        found = Bench.objects.filter(slug=bench).first()
        if found is None:
            known = ", ".join(Bench.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"no bench {bench!r} (known: {known})")
        try:
            result = release_export(bench=found, root=dir, replace=replace)
        except ExportRefused as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"exported {found.slug} revision {found.revision} to {result.root}: "
                f"{result.models} models, {result.tasks} live tasks, "
                f"{result.attempts} attempts, {result.files} files"
            )
        )
