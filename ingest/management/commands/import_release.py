import sys
import time

from django.core.management.base import BaseCommand, CommandError

from ingest.models import ImportRecord
from ingest.plan import build_plan
from ingest.reader import ReleaseReadError, open_release
from ingest.report import plan_lines, plan_summary
from ingest.services import ImportRefused, release_import


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

    def handle(self, *args, path, dry_run, staged, **options):
        started = time.monotonic()

        def progress(message: str) -> None:
            sys.stderr.write(f"  {message}\n")
            sys.stderr.flush()

        try:
            with open_release(path) as source:
                plan = build_plan(source, progress=progress)
                for line in plan_lines(plan) if plan.manifest else []:
                    self.stdout.write(line)
                if not plan.ok:
                    self._record(
                        plan, "dry-run" if dry_run else "import", "refused", started, staged
                    )
                    for problem in plan.problems:
                        self.stderr.write(f"error: {problem}")
                    raise CommandError(
                        f"{len(plan.problems)} problem(s) in {source.name}; nothing was written"
                    )
                if dry_run:
                    self._record(plan, "dry-run", "checked", started, staged)
                    self.stdout.write("dry run: nothing was written")
                    return
                if plan.is_noop:
                    self._record(plan, "import", "no-change", started, staged)
                    self.stdout.write("nothing changed: the database already holds this release")
                    return
                result = release_import(plan=plan, source=source, staged=staged, progress=progress)
        except ReleaseReadError as exc:
            raise CommandError(str(exc)) from None
        except ImportRefused as exc:
            raise CommandError(str(exc)) from None
        self._record(plan, "import", "applied", started, staged)
        elapsed = time.monotonic() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {result.bench.slug} revision {result.bench.revision}: "
                f"{result.written_attempts} attempt(s) written in {elapsed:.1f}s"
            )
        )

    def _record(self, plan, action, outcome, started, staged):
        ImportRecord.objects.create(
            via="command",
            action=action,
            outcome=outcome,
            source_name=plan.source_name,
            source_sha256=plan.source_sha256,
            bench=plan.bench,
            revision=plan.revision,
            staged=staged,
            summary=plan_summary(plan),
            problems=[str(p) for p in plan.problems],
            duration_s=time.monotonic() - started,
        )
