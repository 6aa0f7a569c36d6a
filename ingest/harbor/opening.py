"""Open a path as a release or as Harbor jobs, told apart by content (the admin's way in)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ingest.harbor.build import harbor_release
from ingest.harbor.errors import HarborError
from ingest.harbor.source import HarborSource
from ingest.progress import ProgressCallback
from ingest.reader import ReleaseReadError, ReleaseSource, open_release, open_tree
from leaderboard.scoring import DEFAULT_EXCEPTIONS_RULE


def _is_release(path: str | os.PathLike) -> ReleaseSource | None:
    try:
        return open_release(path)
    except ReleaseReadError as exc:
        if exc.rule == "no-manifest":
            return None  # perhaps Harbor jobs
        raise


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
    with open_tree(path) as tree:
        if not bench:
            raise HarborError(
                [
                    f"{name}: no manifest.json, so not a release; as Harbor jobs it needs "
                    "the bench id to import into"
                ]
            )
        built = harbor_release(
            [(tree, Path(name).name)],
            bench=bench,
            scrub=scrub,
            models_file=models_file,
            progress=progress,
            exceptions_rule=exceptions_rule,
        )
        with built.source as source:
            yield source
