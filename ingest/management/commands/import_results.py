import argparse
import os
import time
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from formats.sources.protocol import ImportOptions, SeveralBenches, SourceError
from formats.sources.registry import ADAPTERS, detect, refuse_options
from ingest.cli_progress import TerminalProgress
from ingest.door.adapters import opened
from ingest.door.release import source_release
from ingest.door.several import recorded_imports
from ingest.imports import Action, recorded_import
from ingest.locks import ImportBusy
from ingest.management.commands.import_harbor import threshold
from ingest.management.commands.import_release import _require_migrated
from ingest.management.outcome import report_import
from ingest.models import ImportRecord
from leaderboard.scoring import EXCEPTIONS_RULES


class Command(BaseCommand):
    help = (
        "Import results in any registered format (a v1 release, Harbor jobs, Terminal-Bench "
        "runs, ...), detected by content, as one bench. Several paths merge into one bench."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--bench", required=True, help="the bench id (a slug)")
        parser.add_argument("--title", help="the bench title (default: from the id)")
        parser.add_argument(
            "--format",
            choices=sorted(ADAPTERS),
            help="the format of PATH (default: detected from its content)",
        )
        parser.add_argument("--models", metavar="FILE", help="ids and facts of the models")
        parser.add_argument(
            "--dry-run", action="store_true", help="validate and report; write nothing"
        )
        parser.add_argument(
            "--staged", action="store_true", help="keep new batches staff-only until published"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="make these results the whole bench (default: replace only their models)",
        )
        parser.add_argument(
            "--scrub",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="rewrite internal host names and home paths in raw results and report each "
            "rewrite (the default); --no-scrub keeps the bytes and refuses them",
        )
        parser.add_argument(
            "--pass-threshold",
            type=threshold,
            help="a trial passes when its reward is at least this (formats with a reward)",
        )
        parser.add_argument(
            "--exceptions",
            choices=EXCEPTIONS_RULES,
            help="how a trial that raised is scored (formats with exceptions; see import_harbor)",
        )

    def handle(self, *args, paths, bench, dry_run, staged, scrub, **options):
        _require_migrated()
        started = time.monotonic()
        paths = [Path(p) for p in paths]
        shown = " ".join(str(p).rstrip("/") for p in paths)
        models_file = None
        if options["models"]:
            try:
                models_file = (Path(options["models"]).read_bytes(), options["models"])
            except OSError as exc:
                raise CommandError(f"{options['models']}: cannot be read ({exc})") from None
        chosen = ImportOptions(
            bench=bench,
            title=options["title"],
            models_file=models_file,
            threshold=options["pass_threshold"],
            exceptions_rule=options["exceptions"],
            replace=options["replace"],
            scrub=scrub,
        )
        try:
            adapter = ADAPTERS[options["format"]] if options["format"] else detect(paths)
            refuse_options(adapter, _without_bench(adapter, chosen))
        except SourceError as exc:
            raise CommandError(str(exc)) from None
        if adapter.name == "release" and len(paths) != 1:
            raise CommandError("release: one path at a time (a release is one folder or archive)")
        self.stdout.write(f"format: {adapter.name}" + ("" if options["format"] else " (detected)"))
        progress = TerminalProgress(self.stderr._out)
        if isinstance(adapter, SeveralBenches):
            try:
                self._several(adapter, paths, chosen, dry_run, staged, shown, progress, started)
            finally:
                progress.close()
            return

        @contextmanager
        def opener():
            # Called under the import lock, so the models it keeps from the
            # database cannot change before the write.
            with opened(adapter, paths, chosen, say=self.stdout.write, progress=progress) as src:
                yield src

        try:
            done = recorded_import(
                path=shown,
                name=shown,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_results {shown[:200]} (pid {os.getpid()})",
                staged=staged,
                scrub=False,
                progress=progress,
                bench=bench,
                opener=opener,
            )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        finally:
            progress.close()
        report_import(
            self,
            done,
            started=started,
            noop="nothing changed: the database already holds these results",
        )

    def _several(self, adapter, paths, chosen, dry_run, staged, shown, progress, started):
        """An input of several benches (docs/formats.md): all written, or none."""
        try:
            sources = adapter.open_all(paths, options=chosen)
        except SourceError as exc:
            raise CommandError(str(exc)) from None
        parts = []
        for source in sources:
            for note in source.notes:
                self.stdout.write(f"note: {note}")

            @contextmanager
            def opener(source=source):
                release, _ = source_release(source, replace=chosen.replace, scrubbed=chosen.scrub)
                with release:
                    yield release

            parts.append((source.bench.id, f"{shown} ({source.bench.id})", opener))
        try:
            done = recorded_imports(
                parts=parts,
                via=ImportRecord.Via.COMMAND,
                action=Action.DRY_RUN if dry_run else Action.IMPORT,
                holder=f"import_results {shown[:200]} (pid {os.getpid()})",
                staged=staged,
                progress=progress,
            )
        except ImportBusy as exc:
            raise CommandError(str(exc)) from None
        finally:
            for source in sources:
                source.close()
        failed = []
        for part in done:
            self.stdout.write(f"bench {part.record.bench}:")
            try:
                report_import(self, part, started=started, noop="nothing changed")
            except CommandError as exc:
                failed.append(f"{part.record.bench}: {exc}")
        if failed:
            raise CommandError("; ".join(failed))


def _without_bench(adapter, options: ImportOptions) -> ImportOptions:
    """A release names its own bench; --bench (required) is checked against it, not refused."""
    from dataclasses import replace

    if adapter.name == "release":
        return replace(options, bench=None)
    return options
