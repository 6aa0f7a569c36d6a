"""Import (or check) paths of any kind through the import commands themselves.

Releases go to ``import_release`` one by one; other folders and archives
together to ``import_results`` (Harbor jobs, Terminal-Bench runs, any
registered format, told by content) as one bench (named after the first path
unless given);
single transcripts to ``import_harbor`` as trials of the bench ``local``. The
commands print their own plan, progress bar and refusals, so a broken input
reads exactly as it does from ``manage.py``.
"""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path

from django.core.management import call_command
from django.utils.text import slugify

from benchview.cli.kinds import HARBOR, RELEASE, TRANSCRIPT, kind_of
from benchview.cli.transcripts import LOCAL_BENCH, transcript_trial

# A jobs folder may carry the models' names beside its jobs (import_harbor --models).
MODELS = "models.json"


def by_kind(paths: list[Path]) -> dict[str, list[Path]]:
    grouped: dict[str, list[Path]] = {RELEASE: [], HARBOR: [], TRANSCRIPT: []}
    for path in paths:
        grouped[kind_of(path)].append(path)
    return grouped


def harbor_bench(paths: list[Path]) -> str:
    return slugify(paths[0].resolve().name) or "jobs"


def import_paths(
    paths: list[Path],
    *,
    dry_run: bool = False,
    bench: str | None = None,
    transcripts_dir: Path | None = None,
    scrub: bool | None = None,
) -> None:
    """Import every path (raises CommandError with the command's message).

    ``scrub`` rewrites internal host names and home paths instead of refusing
    them (the import commands' ``--scrub``); None leaves each command's default."""
    grouped = by_kind(paths)
    given = {} if scrub is None else {"scrub": scrub}
    for release in grouped[RELEASE]:
        call_command("import_release", str(release), dry_run=dry_run, **given)
    if grouped[HARBOR]:
        harbor = grouped[HARBOR]
        options = {"bench": bench or harbor_bench(harbor), "dry_run": dry_run, **given}
        models = [p / MODELS for p in harbor if (p / MODELS).is_file()]
        if models:
            options["models"] = str(models[0])
        # import_results tells Harbor jobs from the other registered formats
        # (Terminal-Bench runs, ...) by content.
        call_command("import_results", *map(str, harbor), **options)
    if grouped[TRANSCRIPT]:
        with ExitStack() as stack:
            into = transcripts_dir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
            trials = [str(transcript_trial(path, into)) for path in grouped[TRANSCRIPT]]
            call_command(
                "import_harbor",
                *trials,
                bench=LOCAL_BENCH,
                title="Local",
                dry_run=dry_run,
                **given,
            )
