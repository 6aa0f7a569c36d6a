"""The Terminal-Bench adapter: ``tb run`` output (one run, a submission of runs, or a
folder of submissions), detected by content and opened as a ``ResultsSource``.

Paths are opened through ``open_tree`` (a callable: path -> tree with
``names``/``exists``/``size``/``read``/``close``). The import door sets it to
the site's safe reader (``ingest.reader.open_tree``: archives, limits, no
links); left alone it reads plain folders, so this package needs no app.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from formats.sources.protocol import ImportOptions, SourceError
from formats.sources.terminal_bench.attempts import EXCEPTIONS_RULES, HARBOR
from formats.sources.terminal_bench.runs import find_runs, looks_like_runs
from formats.sources.terminal_bench.source import TerminalBenchSource, build_source

NAME = "terminal-bench"


class FolderTree:
    """A folder's regular files by relative POSIX name (links are not followed)."""

    def __init__(self, path: str | os.PathLike):
        self.root = Path(path)
        if not self.root.is_dir():
            raise SourceError([f"{path}: not a folder"])
        self._sizes: dict[str, int] = {}
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
            for name in files:
                full = os.path.join(folder, name)
                if os.path.islink(full) or not os.path.isfile(full):
                    continue
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                self._sizes[rel] = os.path.getsize(full)

    def names(self) -> list[str]:
        return sorted(self._sizes)

    def exists(self, name: str) -> bool:
        return name in self._sizes

    def size(self, name: str) -> int:
        return self._sizes[name]

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    def close(self) -> None:
        self._sizes = {}


def title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in bench.replace("_", "-").split("-") if part)


class TerminalBenchAdapter:
    name = NAME
    looks_for = (
        "Terminal-Bench runs: a results.json with results[] of trials "
        "(task_id, trial_name, is_resolved) and the run's accuracy"
    )
    options = frozenset({"bench", "title", "exceptions_rule", "replace", "scrub"})
    open_tree: Callable[[Any], Any] = FolderTree

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            try:
                tree = type(self).open_tree(path)
            except Exception:  # not readable as a tree: not this format
                return False
            try:
                if not looks_like_runs(tree):
                    return False
            finally:
                tree.close()
        return bool(paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> TerminalBenchSource:
        bench = options.bench
        if not bench:
            raise SourceError([f"{NAME}: the bench id to import into is needed (--bench)"])
        rule = options.exceptions_rule or HARBOR
        if rule not in EXCEPTIONS_RULES:
            raise SourceError(
                [f"--exceptions {rule!r}: expected one of {', '.join(EXCEPTIONS_RULES)}"]
            )
        trees, problems, notes, closers = [], [], [], []
        try:
            for path in paths:
                tree = type(self).open_tree(path)
                closers.append(tree.close)
                label = str(path).rstrip("/").rsplit("/", 1)[-1]
                found = find_runs(tree, label)
                problems += found.problems
                notes += found.notes
                if not found.runs and not found.problems:
                    problems.append(f"{path}: no Terminal-Bench run (no results.json of a run)")
                trees.append((tree, label, found.runs))
            if not any(runs for _, _, runs in trees):
                raise SourceError(problems)
            source = build_source(
                trees,
                bench=bench,
                title=options.title or title_of(bench),
                exceptions_rule=rule,
                name="+".join(label for _, label, _ in trees),
            )
        except BaseException:
            for close in closers:
                close()
            raise
        source.closers = closers
        source.problems[:0] = problems
        source.notes[:0] = notes
        if options.progress is not None:
            source.progress = options.progress
        return source


ADAPTER = TerminalBenchAdapter()
