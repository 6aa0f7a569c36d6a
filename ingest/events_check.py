"""Validate trajectories' events beside the import, on the machine's other core.

Event validation is a third of an import's work. For a large release the
events of each trajectory are checked in a helper process while the main
process parses and writes; problems come back as (JSON path, message) pairs
and the import, which runs in one transaction, rolls back if there are any.
Small releases are checked inline: a helper process costs more than it saves.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from django.conf import settings

from ingest import schema


class EventChecks:
    def __init__(self, *, parallel: bool):
        self.pool = None
        if parallel:
            # spawn, not fork: a forked child would share the parent's open
            # database connection and could close it on exit.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        self.pending: list[tuple[str, Future]] = []

    @staticmethod
    def worth_a_helper(total_bytes: int) -> bool:
        return total_bytes >= settings.BENCHVIEW_LIMITS["parallel_event_check_bytes"]

    def check(self, name: str, data: bytes, events: Any) -> list[tuple[str, str]]:
        """Problems found now; with a helper, they arrive later through ``results``."""
        if self.pool is None:
            return schema.check_events(events)
        self.pending.append((name, self.pool.submit(schema.check_trajectory_bytes, data)))
        return []

    def results(self) -> list[tuple[str, str, str]]:
        """(file, JSON path, message) of every check still pending."""
        found = []
        for name, future in self.pending:
            found.extend((name, path, message) for path, message in future.result())
        self.pending.clear()
        return found

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None
