"""The one place a path brought to an import is opened as what it holds.

``formats.sources.registry`` picks the adapter by content (a v1 release,
Harbor jobs, ...). A v1 release is imported as it is (``results.release``:
its own documents, checked against the site's figures); any other source's
release is built from its entries (``ingest.reading.harbor.build.release_of``), its
attempt folders read one at a time as the import reads them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from formats.reader import ReleaseSource
from formats.sources import Adapter, ImportOptions
from formats.sources.registry import ADAPTERS, detect
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reading.harbor.build import describe, release_of
from ingest.reading.harbor.source import HarborSource


def _only_taken(adapter: Adapter, options: ImportOptions) -> ImportOptions:
    """The admin's form offers every format's options: those this adapter does not
    take are left at their defaults, as a release always ignored Harbor's."""
    blank = ImportOptions()
    return dataclasses.replace(
        options,
        **{name: getattr(blank, name) for name in options.given() if name not in adapter.options},
    )


def progress_option(progress: ProgressCallback | None):
    """An ImportOptions ``progress`` telling ``progress`` of the attempts read."""
    if progress is None:
        return None
    return lambda done, total: progress(Progress(Phase.CHECKING, done, total))


@contextmanager
def open_for_import(
    paths: list[str | os.PathLike],
    *,
    options: ImportOptions,
    adapter: str | None = None,
    say: Callable[[str], object] | None = None,
) -> Iterator[ReleaseSource | HarborSource]:
    """The release ``paths`` hold, for the one import pipeline to check and write.
    ``adapter`` names the format where the caller knows it (a command for one
    format); else it is detected by content. ``say`` is told, line by line, what
    building a release from another source found (trials read, models kept,
    notes). Raises ``SourceError`` (no format matches), ``ReleaseReadError`` or
    ``HarborError``."""
    found = [Path(p) for p in paths]
    chosen = ADAPTERS[adapter] if adapter else detect(found)
    options = _only_taken(chosen, options)
    with closing(chosen.open(found, options=options)) as results:
        release = getattr(results, "release", None)
        if release is not None:
            yield release
            return
        built = release_of(results, replace=options.replace, title_given=bool(options.title))
        if say is not None:
            for line in describe(built):
                say(line)
        with built.source as source:
            yield source
