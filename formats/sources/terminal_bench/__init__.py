"""Terminal-Bench runs (``tb run`` output, the public leaderboard's logs): the adapter.

- ``runs``: which files of a tree are runs' results, and whose submission each is.
- ``trial``: one entry of a run's ``results[]`` (and its folder) read and checked.
- ``attempts``: one trial → its v1 attempt folder's files.
- ``source``: the submissions as a ``ResultsSource``, with what each run publishes.
- ``adapter``: detection by content and opening (``TERMINAL_BENCH``).

See docs/formats.md, "Terminal-Bench runs".
"""

from formats.sources.terminal_bench.adapter import ADAPTER as TERMINAL_BENCH

__all__ = ["TERMINAL_BENCH"]
