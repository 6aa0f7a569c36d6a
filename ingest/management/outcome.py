"""How the import commands tell a recorded import's outcome (import_release, import_harbor)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from core import formatting
from ingest.reading.report import plan_lines
from ingest.running.imports import Outcome, RecordedImport


def report_import(command: BaseCommand, done: RecordedImport, *, started: float, noop: str) -> None:
    """Print the plan and the outcome; raise CommandError unless it was checked or written.

    ``noop`` is the line for an import that changed nothing.
    """
    plan, record = done.plan, done.record
    if plan is not None and plan.manifest is not None:
        for line in plan_lines(plan):
            command.stdout.write(line)
    if record.outcome == Outcome.FAILED:
        raise CommandError(f"the import failed, nothing was written: {record.message}")
    if record.outcome == Outcome.REFUSED:
        # Without a plan the message already is the first problem.
        for problem in record.problems if plan is not None else record.problems[1:]:
            command.stderr.write(f"error: {problem}")
        # A chunked import refused says itself what it left (hidden rows).
        message = record.message
        if "nothing was" not in message:
            message += "; nothing was written"
        raise CommandError(message)
    if record.outcome == Outcome.CHECKED:
        command.stdout.write("dry run: nothing was written")
        return
    if record.outcome == Outcome.NO_CHANGE:
        command.stdout.write(noop)
        return
    result = done.result
    if result.blobs_removed:
        command.stdout.write(
            f"removed {result.blobs_removed} patch, transcript or ticket file(s) "
            "that no attempt refers to any more"
        )
    took = formatting.elapsed(time.monotonic() - started)
    # A chunked import: how many commits, and what an interrupted one had written.
    chunked = f" ({result.chunks} chunk(s)" if result.chunks else ""
    if chunked:
        chunked += f", {result.kept} kept from an interrupted import)" if result.kept else ")"
    command.stdout.write(
        command.style.SUCCESS(
            f"imported {result.bench.slug} revision {result.bench.revision}: "
            f"{result.written_attempts} attempt(s) written in {took}{chunked}"
        )
    )
