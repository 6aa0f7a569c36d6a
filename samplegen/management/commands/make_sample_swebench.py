import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from samplegen.swebench import write_sample_swebench


class Command(BaseCommand):
    help = (
        "Write a deterministic synthetic SWE-bench experiments split to DIR (three submissions, "
        "one per trajectory format: SWE-agent, mini-swe-agent, OpenHands). "
        "DIR must be empty or missing (--replace empties it first)."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", type=Path)
        parser.add_argument("--instances", type=int, default=12)
        parser.add_argument("--replace", action="store_true", help="empty DIR first")

    def handle(self, *args, dir, instances, replace, **options):
        if dir.exists() and any(dir.iterdir()):
            if not replace:
                raise CommandError(f"{dir} is not empty (use --replace to overwrite it)")
            shutil.rmtree(dir)
        if instances < 1:
            raise CommandError("--instances must be at least 1")
        counts = write_sample_swebench(dir, count=instances)
        self.stdout.write(
            self.style.SUCCESS(
                f"wrote {counts['systems']} submissions of {counts['instances']} instances "
                f"to {dir / 'evaluation' / 'verified'}"
            )
        )
