"""Validate trajectories' events beside the import, on the machine's other core.

Event validation is a third of an import's work. For a large release the
events of each trajectory are checked in a helper process while the main
process parses and writes; problems come back as (JSON path, message) pairs
and the import, which runs in one transaction, rolls back if there are any.
Small releases are checked inline: a helper process costs more than it saves.
As with any "spawn" helper, a script that imports releases must keep its work
under ``if __name__ == "__main__":`` (manage.py and gunicorn do); if the helper
cannot start or dies, the files are checked in this process instead.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from ingest import schema


class EventChecks:
    def __init__(self, *, parallel: bool, reread: Callable[[str], bytes] | None = None):
        # ``reread`` gives a file's bytes again, to check it here if the helper dies.
        self.reread = reread
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
        if self.pool is not None:
            try:
                self.pending.append((name, self.pool.submit(schema.check_trajectory_bytes, data)))
                return []
            except BrokenProcessPool:
                self.pool = None
        return schema.check_events(events)

    def results(self) -> list[tuple[str, str, str]]:
        """(file, JSON path, message) of every check still pending."""
        found = []
        for name, future in self.pending:
            try:
                problems = future.result()
            except BrokenProcessPool:
                # The helper could not start or died (say, a __main__ script
                # without a main guard): check the file in this process instead.
                problems = schema.check_trajectory_bytes(self.reread(name))
            found.extend((name, path, message) for path, message in problems)
        self.pending.clear()
        return found

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None
