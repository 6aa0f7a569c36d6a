import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from samplegen.terminal_bench import write_sample_terminal_bench


class Command(BaseCommand):
    help = (
        "Write a deterministic synthetic Terminal-Bench leaderboard folder to DIR: three "
        "submissions (one run of two attempts per task, two runs, results files only). "
        "DIR must be empty or missing (--replace empties it first)."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", type=Path)
        parser.add_argument("--tasks", type=int, default=12)
        parser.add_argument("--replace", action="store_true", help="empty DIR first")

    def handle(self, *args, dir, tasks, replace, **options):
        if dir.exists() and any(dir.iterdir()):
            if not replace:
                raise CommandError(f"{dir} is not empty (use --replace to overwrite it)")
            shutil.rmtree(dir)
        if tasks < 1:
            raise CommandError("--tasks must be at least 1")
        counts = write_sample_terminal_bench(dir, tasks=tasks)
        self.stdout.write(
            self.style.SUCCESS(
                f"wrote {counts['trials']} trials of {counts['submissions']} submissions on "
                f"{counts['tasks']} tasks to {dir}"
            )
        )
