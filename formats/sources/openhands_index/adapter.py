"""The adapter of OpenHands' index results: folders of model folders
(``results/<model>/``, ``alternative_agents/<agent>/<model>/``), detected by
content, opened as one source per benchmark.

``--bench openhands-index`` makes the benches ``openhands-index-swe-bench``,
``openhands-index-gaia``, ... (the prefix and the benchmark's name as an
id); the import writes them all or none.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from formats.reader import open_tree
from formats.sources.openhands_index.folders import model_folders, read_model, slugify
from formats.sources.openhands_index.source import BenchmarkSource
from formats.sources.protocol import ImportOptions, ResultsSource, SourceError, only_source

NAME = "openhands-index"
# A JSON file of a model folder larger than this is refused.
MAX_BYTES = 64 * 1024**2


def title_of(prefix: str, benchmark: str) -> str:
    base = " ".join(p.capitalize() for p in prefix.replace("_", "-").split("-") if p)
    return f"{base} {benchmark}".strip()


class OpenHandsIndexAdapter:
    name = NAME
    looks_for = (
        "OpenHands index results: model folders with metadata.json and scores.json "
        "([{benchmark, score, ...}]), optionally instance_results/<benchmark>.json"
    )
    options = frozenset({"bench", "title", "replace"})

    def _tree(self, path):
        # The safe reader: folders and archives, its limits, no links.
        return open_tree(path)

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            try:
                tree = self._tree(path)
            except Exception:  # not readable as a tree: not this format
                return False
            try:
                if not model_folders(tree, MAX_BYTES):
                    return False
            finally:
                tree.close()
        return bool(paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ResultsSource:
        return only_source(self.open_all(paths, options=options), NAME, "benchmarks")

    def open_all(self, paths: Sequence[Path], *, options: ImportOptions) -> list[ResultsSource]:
        if not options.bench:
            raise SourceError(
                [f"{NAME}: needs the bench id (--bench), the prefix of each benchmark's bench"]
            )
        problems: list[str] = []
        folders, seen = [], {}
        for i, path in enumerate(paths):
            tree = self._tree(path)
            try:
                # An upload is named by its own file name, not where it was staged.
                label = options.labels[i] if options.labels else str(path).rstrip("/")
                for folder in model_folders(tree, MAX_BYTES):
                    found = read_model(tree, folder, problems, MAX_BYTES)
                    if found is None:
                        continue
                    found.folder = f"{label}/{folder}"
                    if found.id in seen:
                        problems.append(
                            f"{found.folder}: model id {found.id!r} is also {seen[found.id]}'s"
                        )
                        continue
                    seen[found.id] = found.folder
                    folders.append(found)
            finally:
                tree.close()
        if problems:
            raise SourceError(problems, "nothing was written")
        by_bench: dict[str, list] = {}
        names: dict[str, str] = {}
        for folder in folders:
            for benchmark, score in folder.scores.items():
                key = slugify(benchmark)
                names.setdefault(key, benchmark)
                by_bench.setdefault(key, []).append((folder, score))
        shown = ", ".join(options.labels or [str(p) for p in paths])
        return [
            BenchmarkSource(
                names[key],
                entries,
                bench=f"{options.bench}-{key}",
                title=title_of(options.title or options.bench, names[key]),
                name=shown,
            )
            for key, entries in sorted(by_bench.items())
        ]


ADAPTER = OpenHandsIndexAdapter()
