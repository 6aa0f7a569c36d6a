import os
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from ingest.locks import ImportBusy, import_lock
from ingest.models import ImportRecord
from ingest.plan import ImportPlan, build_plan
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
        parser.add_argument(
            "--scrub",
            action="store_true",
            help="rewrite internal host names, home paths and dropped headers instead of refusing",
        )

    def handle(self, *args, path, dry_run, staged, scrub, **options):
        started = time.monotonic()
        action = "dry-run" if dry_run else "import"

        def progress(message: str) -> None:
            sys.stderr.write(f"  {message}\n")
            sys.stderr.flush()

        try:
            with open_release(path) as source:
                if dry_run:
                    plan = build_plan(source, progress=progress, scrub=scrub)
                    if plan.ok:
                        self._report(plan)
                        self._record(plan, action, "checked", started, staged)
                        self.stdout.write("dry run: nothing was written")
                        return
                    raise ImportRefused(f"{len(plan.problems)} problem(s)", plan)
                holder = f"import_release {source.name} (pid {os.getpid()})"
                with import_lock(holder=holder):
                    result = release_import(
                        source=source, staged=staged, scrub=scrub, progress=progress
                    )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        except ReleaseReadError as exc:
            ImportRecord.objects.create(
                action=action, outcome="refused", source_name=str(path), message=str(exc)
            )
            raise CommandError(str(exc)) from None
        except ImportRefused as exc:
            if exc.plan is not None:
                self._report(exc.plan)
                for problem in exc.plan.problems:
                    self.stderr.write(f"error: {problem}")
                self._record(exc.plan, action, "refused", started, staged)
            raise CommandError(f"{exc}; nothing was written") from None
        plan = result.plan
        self._report(plan)
        outcome = "no-change" if plan.is_noop else "applied"
        self._record(plan, action, outcome, started, staged)
        if plan.is_noop:
            self.stdout.write("nothing changed: the database already holds this release")
            return
        if result.blobs_removed:
            self.stdout.write(
                f"removed {result.blobs_removed} patch, transcript or ticket file(s) "
                "that no attempt refers to any more"
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {result.bench.slug} revision {result.bench.revision}: "
                f"{result.written_attempts} attempt(s) written in {time.monotonic() - started:.1f}s"
            )
        )

    def _report(self, plan: ImportPlan) -> None:
        if plan.manifest is not None:
            for line in plan_lines(plan):
                self.stdout.write(line)

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
