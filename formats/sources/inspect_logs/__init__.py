"""Inspect AI logs (``.eval`` zips and ``.json`` eval logs): the adapter.

See ``source`` for the mapping and docs/formats.md, "Inspect AI logs".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from formats.sources.inspect_logs.log import Limits, log_files, looks_like_log
from formats.sources.inspect_logs.source import InspectSource, open_logs
from formats.sources.protocol import ImportOptions

DEFAULT_THRESHOLD = 1.0


def _limits() -> Limits:
    """The reader's limits from the settings when Django is set up, else the defaults."""
    try:
        from django.conf import settings

        got = settings.BENCHVIEW_LIMITS
    except Exception:  # noqa: BLE001 - no settings: a script reading a log on its own
        return Limits()
    return Limits(
        entries=got["archive_max_entries"],
        file_bytes=got["file_max_bytes"],
        total_bytes=got["archive_max_bytes"],
    )


class InspectLogsAdapter:
    name = "inspect-logs"
    looks_for = "Inspect AI logs: .eval zips holding header.json, or .json eval logs"
    options = frozenset({"bench", "title", "threshold", "replace", "scrub"})

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            if path.is_dir():
                if next(log_files([path]), None) is None:
                    return False
            elif not looks_like_log(path):
                return False
        return bool(paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> InspectSource:
        return open_logs(
            list(paths),
            bench=options.bench,
            title=options.title,
            threshold=DEFAULT_THRESHOLD if options.threshold is None else options.threshold,
            limits=_limits(),
        )


ADAPTER = InspectLogsAdapter()
