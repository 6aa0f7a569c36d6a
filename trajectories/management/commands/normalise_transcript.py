"""``normalise_transcript FILE [--format NAME]``: a raw harness transcript as v1 events."""

from __future__ import annotations

from pathlib import Path

import orjson
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from formats.normalise import NORMALISERS, Normalised, UnknownFormat, normalise
from formats.normalise.files import NotReadable, read_regular
from formats.normalise.opencode_storage import NAME as STORAGE
from formats.normalise.opencode_storage import normalise_storage
from formats.v1 import attempt_files as v1

# The harness each format belongs to, for the document's "harness" field.
_HARNESS = {"claude": "claude-code", "codex": "codex", "opencode": "opencode", "atif": "harbor"}


def document(result: Normalised) -> dict:
    """The events as a trajectory.json of release format v1, with the format
    read (beyond v1); its model is "" where the transcript names none."""
    model = result.meta.get("model")
    return v1.trajectory_document(
        harness=_HARNESS.get(result.format.split("-")[0], result.format),
        model=model if isinstance(model, str) else "",
        events=result.events,
        extra={"format": result.format},
    )


class Command(BaseCommand):
    help = (
        "Normalise a harness transcript (Claude Code, Codex CLI, OpenCode) into release-format "
        "v1 events: the trajectory.json document on stdout, the unmapped lines on stderr. "
        "A folder is read as OpenCode's legacy storage."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="transcript file (or OpenCode storage folder)")
        parser.add_argument(
            "--format",
            dest="fmt",
            help=f"skip detection; one of: {', '.join(sorted([*NORMALISERS, STORAGE]))}",
        )
        parser.add_argument("--session", help="the session to read from a storage folder")

    def handle(self, *args, file: Path, fmt: str | None, session: str | None, **options):
        known = {*NORMALISERS, STORAGE}
        if fmt is not None and fmt not in known:
            raise CommandError(f"unknown format {fmt!r}; known: {', '.join(sorted(known))}")
        if file.is_dir() and fmt in (None, STORAGE):
            result = normalise_storage(file, session)
            if not result.meta["files"]:
                raise CommandError(f"{file}: no OpenCode session found in this folder")
        else:
            result = self._file(file, fmt)
        self.stdout.write(orjson.dumps(document(result), option=orjson.OPT_INDENT_2).decode())
        for unmapped in result.unmapped:
            self.stderr.write(f"{file}: line {unmapped.line}: {unmapped.reason}")

    def _file(self, file: Path, fmt: str | None) -> Normalised:
        try:
            data = read_regular(file, settings.BENCHVIEW_LIMITS["file_max_bytes"])
        except NotReadable as exc:
            raise CommandError(f"{file}: {exc}") from None
        except OSError as exc:
            raise CommandError(f"{file}: cannot read it ({exc.strerror or exc})") from None
        if fmt == STORAGE:
            raise CommandError(f"{file}: the {STORAGE} format reads a folder, not a file")
        try:
            return normalise(data, fmt)
        except UnknownFormat as exc:
            raise CommandError(f"{file}: {exc}") from None
