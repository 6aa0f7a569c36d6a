import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from samplegen.inspect_logs import write_sample_inspect


class Command(BaseCommand):
    help = (
        "Write deterministic Inspect AI logs to DIR: one .eval per model (three models, "
        "eight samples, two epochs). DIR must be empty or missing (--replace empties it first)."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", type=Path)
        parser.add_argument("--replace", action="store_true", help="empty DIR first")

    def handle(self, *args, dir, replace, **options):
        if dir.exists() and any(dir.iterdir()):
            if not replace:
                raise CommandError(f"{dir} is not empty (use --replace to overwrite it)")
            shutil.rmtree(dir)
        counts = write_sample_inspect(dir)
        self.stdout.write(
            self.style.SUCCESS(
                f"wrote {counts['trials']} samples of {counts['models']} models on "
                f"{counts['samples']} tasks to {dir}"
            )
        )
