import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from samplegen.release import generate_release


class Command(BaseCommand):
    help = (
        "Write a deterministic synthetic release (format v1) to DIR: same options, "
        "same bytes. DIR must be empty, missing, or hold an earlier sample release."
    )

    def add_arguments(self, parser):
        parser.add_argument("dir", type=Path, help="folder to write the release into")
        parser.add_argument("--models", type=int, default=17)
        parser.add_argument("--tasks", type=int, default=60)
        parser.add_argument(
            "--released", type=int, default=10, help="tasks released, in batches of ten"
        )
        parser.add_argument(
            "--events",
            type=int,
            default=None,
            help="total trajectory events to spread over the attempts",
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--bench", default="integration-bench")
        parser.add_argument("--scoring-rule", default="task-score-v4-mandatory-gated")
        parser.add_argument(
            "--long-every",
            type=int,
            default=None,
            help="make every Nth attempt a long one (default: three long attempts)",
        )

    def handle(self, *args, **options):
        started = time.monotonic()
        try:
            summary = generate_release(
                options["dir"],
                models=options["models"],
                tasks=options["tasks"],
                released=options["released"],
                events=options["events"],
                seed=options["seed"],
                bench=options["bench"],
                scoring_rule=options["scoring_rule"],
                long_every=options["long_every"],
            )
        except (ValueError, FileExistsError) as exc:
            raise CommandError(str(exc)) from exc
        elapsed = time.monotonic() - started
        self.stdout.write(f"Wrote {options['bench']} to {options['dir']} in {elapsed:.1f}s")
        for key, value in summary.items():
            self.stdout.write(f"  {key}: {value}")
