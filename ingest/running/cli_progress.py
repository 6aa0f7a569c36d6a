"""The command line's view of an import's progress: a bar on a terminal, lines elsewhere."""

from __future__ import annotations

import shutil
from typing import TextIO

from tqdm import tqdm

from ingest.progress import Phase, Progress

# Without a terminal (logs, CI), one line per this many attempts.
PLAIN_EVERY = 25


class TerminalProgress:
    """A ProgressCallback writing to ``stream`` (stderr): tqdm on a TTY, plain lines otherwise."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.tty = stream.isatty()
        self.bar: tqdm | None = None
        self.phase: Phase | None = None

    def __call__(self, progress: Progress) -> None:
        if self.tty:
            self._draw(progress)
        elif progress.phase != self.phase or self._milestone(progress):
            self.stream.write(f"  {progress}\n")
            self.stream.flush()
        self.phase = progress.phase

    def _milestone(self, progress: Progress) -> bool:
        return progress.done % PLAIN_EVERY == 0 or progress.done == progress.total

    def _draw(self, progress: Progress) -> None:
        if self.bar is None:
            if not progress.total:
                return
            # A terminal that reports no size (0×0) would hide the bar: shutil
            # falls back to 80×24 there.
            size = shutil.get_terminal_size()
            self.bar = tqdm(
                total=progress.total,
                unit="attempt",
                file=self.stream,
                ncols=size.columns,
                nrows=size.lines,
            )
        self.bar.set_description(progress.phase.label, refresh=False)
        self.bar.set_postfix_str(f"{progress.events} events", refresh=False)
        self.bar.update(progress.done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
