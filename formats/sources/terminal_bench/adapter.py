"""The Terminal-Bench adapter: ``tb run`` output (one run, a submission of runs, or a
folder of submissions), detected by content and opened as a ``ResultsSource``.

Paths are read through the safe reader (``formats.reader.open_tree``:
folders and archives, limits, no links).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from formats.reader import ReleaseReadError, open_tree
from formats.reader.peek import peek_names
from formats.sources.protocol import ImportOptions, SourceError
from formats.sources.terminal_bench.attempts import EXCEPTIONS_RULES, HARBOR
from formats.sources.terminal_bench.runs import find_runs, looks_like_runs
from formats.sources.terminal_bench.source import (
    PipelineScrub,
    TerminalBenchSource,
    build_source,
)

NAME = "terminal-bench"


def title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in bench.replace("_", "-").split("-") if part)


class TerminalBenchAdapter:
    name = NAME
    looks_for = (
        "Terminal-Bench runs: a results.json with results[] of trials "
        "(task_id, trial_name, is_resolved) and the run's accuracy"
    )
    options = frozenset({"bench", "title", "exceptions_rule", "replace", "scrub"})

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            # A cheap look first: a run's results are always "...results.json".
            names = peek_names(Path(path))
            if names is None or not any(n.endswith("results.json") for n in names):
                return False
            try:
                tree = open_tree(path)
            except ReleaseReadError:
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
            shown = ", ".join(options.label(i, p) for i, p in enumerate(paths))
            raise SourceError(
                [
                    f"{shown}: no manifest.json, so not a release; as Terminal-Bench runs it "
                    "needs the bench id to import into"
                ]
            )
        rule = options.exceptions_rule or HARBOR
        if rule not in EXCEPTIONS_RULES:
            raise SourceError(
                [f"--exceptions {rule!r}: expected one of {', '.join(EXCEPTIONS_RULES)}"]
            )
        trees, problems, notes, closers = [], [], [], []
        try:
            for i, path in enumerate(paths):
                tree = open_tree(path)
                closers.append(tree.close)
                label = options.label(i, path)
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
        source.scrubbing = PipelineScrub(rewrite=options.scrub)
        source.problems[:0] = problems
        source.notes[:0] = notes
        if options.progress is not None:
            source.progress = options.progress
        return source


ADAPTER = TerminalBenchAdapter()
