"""Open a path as a release or as any other registered format, told apart by content (the
admin's way in)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ingest.harbor.errors import HarborError
from ingest.harbor.source import HarborSource
from ingest.progress import ProgressCallback
from ingest.reader import ReleaseReadError, ReleaseSource, open_release
from leaderboard.scoring import DEFAULT_EXCEPTIONS_RULE


def _is_release(path: str | os.PathLike) -> ReleaseSource | None:
    try:
        return open_release(path)
    except ReleaseReadError as exc:
        if exc.rule == "no-manifest":
            return None  # perhaps Harbor jobs
        raise


# How the admin's messages name a format.
SHOWN = {"harbor": "Harbor jobs", "terminal-bench": "Terminal-Bench runs"}


@contextmanager
def open_release_or_jobs(
    path: str | os.PathLike,
    *,
    name: str,
    bench: str | None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
    scrub: bool = True,
    models_file: tuple[bytes, str] | None = None,
    progress: ProgressCallback | None = None,
) -> Iterator[ReleaseSource | HarborSource]:
    """A release (manifest.json at its root or in one top-level folder), or else
    Harbor jobs imported into ``bench``, which they need, scrubbed unless
    ``scrub`` is False. Raises ReleaseReadError or HarborError."""
    release = _is_release(path)
    if release is not None:
        with release:
            yield release
        return
    # Not a release: any other registered format, detected by content
    # (ingest.door.adapters fills the registry).
    from formats.sources.protocol import ImportOptions, SourceError
    from formats.sources.registry import ADAPTERS, detect, refuse_options
    from ingest.door.adapters import RELEASE, opened

    others = {k: a for k, a in ADAPTERS.items() if k != RELEASE.name}
    try:
        adapter = detect([Path(path)], others)
    except SourceError as exc:
        raise HarborError(
            [
                f"{name}: no manifest.json, so not a release; "
                + exc.problems[0].split(": ", 1)[-1],
                *exc.problems[1:],
            ]
        ) from None
    if not bench:
        raise HarborError(
            [
                f"{name}: no manifest.json, so not a release; as "
                f"{SHOWN.get(adapter.name, adapter.name + ' results')} it needs the bench id "
                "to import into"
            ]
        )
    options = ImportOptions(
        bench=bench,
        models_file=models_file,
        exceptions_rule=exceptions_rule,
        scrub=scrub,
    )
    try:
        refuse_options(adapter, options)
    except SourceError as exc:
        raise HarborError(exc.problems) from None
    with opened(adapter, [Path(path)], options, progress=progress) as source:
        yield source
