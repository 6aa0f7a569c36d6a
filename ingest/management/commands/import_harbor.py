import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ingest.harbor import HarborError
from ingest.harbor.build import describe, harbor_release
from ingest.locks import ImportBusy, import_lock
from ingest.models import ImportRecord
from ingest.plan import ImportPlan, build_plan
from ingest.reader import ReleaseReadError, open_tree
from ingest.report import plan_lines, plan_summary
from ingest.services import ImportRefused, release_import
from leaderboard.scoring import DEFAULT_REWARD_THRESHOLD


class Command(BaseCommand):
    help = (
        "Import Harbor jobs (a job folder, a folder of jobs, a trial folder, or a .zip/.tar.gz "
        "of any of these) as a pass-rate bench. Several paths merge into one bench."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--bench", required=True, help="the bench id (a slug)")
        parser.add_argument("--title", help="the bench title (default: from the id)")
        parser.add_argument(
            "--models", metavar="FILE", help="JSON list of {model_name, agent, id, ...}"
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="validate and report; write nothing"
        )
        parser.add_argument(
            "--staged", action="store_true", help="keep new batches staff-only until published"
        )
        parser.add_argument(
            "--pass-threshold",
            type=float,
            default=DEFAULT_REWARD_THRESHOLD,
            help="a trial passes when its reward is at least this (default 1.0)",
        )
        parser.add_argument(
            "--allow-partial",
            action="store_true",
            help="import a job still running: finished trials, the rest flagged",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="make these jobs the whole bench (default: replace only their models)",
        )
        parser.add_argument(
            "--scrub",
            action="store_true",
            help="rewrite internal host names and home paths instead of refusing",
        )

    def handle(self, *args, paths, bench, dry_run, staged, scrub, **options):
        started = time.monotonic()
        action = "dry-run" if dry_run else "import"
        shown = " ".join(paths)

        def progress(message: str) -> None:
            sys.stderr.write(f"  {message}\n")
            sys.stderr.flush()

        models_file = None
        if options["models"]:
            try:
                models_file = (Path(options["models"]).read_bytes(), options["models"])
            except OSError as exc:
                raise CommandError(f"{options['models']}: cannot be read ({exc})") from None

        def build(trees):
            release = harbor_release(
                trees,
                bench=bench,
                title=options["title"],
                models_file=models_file,
                threshold=options["pass_threshold"],
                allow_partial=options["allow_partial"],
                replace=options["replace"],
            )
            for line in describe(release):
                self.stdout.write(line)
            return release.source

        try:
            with ExitStack() as stack:
                trees = [
                    (stack.enter_context(open_tree(path)), str(path).rstrip("/")) for path in paths
                ]
                if dry_run:
                    source = build(trees)
                    plan = build_plan(source, progress=progress, scrub=scrub)
                    if not plan.ok:
                        raise ImportRefused(f"{len(plan.problems)} problem(s)", plan)
                    self._report(plan)
                    self._record(plan, action, "checked", started, staged)
                    self.stdout.write("dry run: nothing was written")
                    return
                holder = f"import_harbor {shown} (pid {os.getpid()})"
                with import_lock(holder=holder):
                    # Built under the lock: the models it keeps are read from the
                    # database, which no other import may change meanwhile.
                    source = build(trees)
                    result = release_import(
                        source=source, staged=staged, scrub=scrub, progress=progress
                    )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        except (ReleaseReadError, HarborError) as exc:
            for problem in getattr(exc, "problems", [])[1:]:
                self.stderr.write(f"error: {problem}")
            ImportRecord.objects.create(
                via="command",
                action=action,
                outcome="refused",
                source_name=shown[:300],
                bench=bench,
                message=str(exc),
                problems=list(getattr(exc, "problems", [str(exc)])),
            )
            raise CommandError(f"{exc}; nothing was written") from None
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
            self.stdout.write("nothing changed: the database already holds these jobs")
            return
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
            source_name=plan.source_name[:300],
            source_sha256=plan.source_sha256,
            bench=plan.bench,
            revision=plan.revision,
            staged=staged,
            summary=plan_summary(plan),
            problems=[str(p) for p in plan.problems],
            duration_s=time.monotonic() - started,
        )
