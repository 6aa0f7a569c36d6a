"""The command line's progress: a bar on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

from ingest.progress import Phase, Progress
from ingest.running.cli_progress import TerminalProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def feed(progress: TerminalProgress, total: int = 60) -> None:
    progress(Progress(Phase.READING))
    for done in range(1, total + 1):
        progress(Progress(Phase.WRITING, done, total, done * 10))
    progress(Progress(Phase.RECOMPUTING, total, total, total * 10))
    progress.close()


def test_without_a_terminal_it_writes_a_line_per_phase_and_every_25_attempts():
    stream = io.StringIO()
    feed(TerminalProgress(stream))
    assert stream.getvalue().splitlines() == [
        "  reading",
        "  writing 1/60 attempts",
        "  writing 25/60 attempts",
        "  writing 50/60 attempts",
        "  writing 60/60 attempts",
        "  recomputing",
    ]


def test_on_a_terminal_it_draws_one_bar_with_the_phase_attempts_and_events():
    stream = Terminal()
    feed(TerminalProgress(stream))
    frames = stream.getvalue().split("\r")
    assert "\n" not in stream.getvalue().rstrip("\n")  # redrawn in place
    assert "recomputing" in frames[-1] and "60/60" in frames[-1] and "600 events" in frames[-1]
