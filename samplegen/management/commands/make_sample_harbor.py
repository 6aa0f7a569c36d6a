import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from samplegen.harbor import write_sample_harbor


class Command(BaseCommand):
    help = (
        "Write a deterministic synthetic folder of Harbor jobs to DIR (six models, 44 tasks, "
        "failures, an exception, ctrf, a multi-trial task) and DIR/models.json. "
        "DIR must be empty or missing (--replace empties it first)."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", type=Path)
        parser.add_argument("--tasks", type=int, default=44)
        parser.add_argument(
            "--single-trials", action="store_true", help="no task with several trials"
        )
        parser.add_argument("--replace", action="store_true", help="empty DIR first")

    def handle(self, *args, dir, tasks, single_trials, replace, **options):
        if dir.exists() and any(dir.iterdir()):
            if not replace:
                raise CommandError(f"{dir} is not empty (use --replace to overwrite it)")
            shutil.rmtree(dir)
        if tasks < 1:
            raise CommandError("--tasks must be at least 1")
        counts = write_sample_harbor(dir, tasks=tasks, extra_trials=not single_trials)
        self.stdout.write(
            self.style.SUCCESS(
                f"wrote {counts['trials']} trials of {counts['models']} models on "
                f"{counts['tasks']} tasks to {dir} (models file: {dir / 'models.json'})"
            )
        )
