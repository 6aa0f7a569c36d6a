"""A v1 release, folder or archive, as a ``ResultsSource``.

Detected by content: ``manifest.json`` at the root or inside the one
top-level folder (as the safe reader finds it), in a folder, a .zip or a
.tar.gz told apart by their first bytes. Opened through the safe reader
(``formats.reader``); ``release`` is the opened release itself, which the
import pipeline checks file by file (its derived documents are the
release's own, compared with the site's figures, not rebuilt). The
entries (``bench``, ``models``, ``tasks``, ``attempts()``) are read from
its documents on demand, a document that cannot be read going to
``problems``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from formats.reader import MANIFEST, ReleaseSource, open_release
from formats.reader.peek import peek_names
from formats.sources.protocol import (
    AttemptEntry,
    BenchFacts,
    Check,
    ImportOptions,
    LazyFolder,
    ModelEntry,
    TaskEntry,
)
from formats.v1.files import ATTEMPT_FILES, ATTEMPTS_DIR, model_path, task_path
from formats.v1.jsondoc import JSONProblem, parse_json


def has_manifest(names: Sequence[str]) -> bool:
    """``manifest.json`` at the root, or inside the single top-level folder."""
    clean = {name.removeprefix("./").rstrip("/") for name in names}
    clean.discard("")
    if MANIFEST in clean:
        return True
    tops = {name.split("/", 1)[0] for name in clean}
    return len(tops) == 1 and f"{next(iter(tops))}/{MANIFEST}" in clean


class ReleaseResults:
    """An opened v1 release, as entries; ``release`` is the release itself."""

    def __init__(self, release: ReleaseSource):
        self.release = release
        self.name = release.name
        self.notes: list[str] = []
        self.problems: list[str] = []

    def _doc(self, name: str) -> Any:
        try:
            return parse_json(self.release.read(name))
        except (JSONProblem, KeyError, OSError, ValueError) as exc:
            self.problems.append(f"{name}: {exc}")
            return None

    @cached_property
    def _manifest(self) -> dict[str, Any]:
        doc = self._doc(MANIFEST)
        return doc if isinstance(doc, dict) else {}

    @cached_property
    def bench(self) -> BenchFacts:
        m = self._manifest
        return BenchFacts(
            id=str(m.get("bench", "")),
            title=str(m.get("title", "")),
            scoring_rule=str(m.get("scoring_rule", "")),
            exceptions_rule=m.get("exceptions_rule"),
        )

    @cached_property
    def models(self) -> dict[str, ModelEntry]:
        found = {}
        for model in self._manifest.get("models", []):
            doc = self._doc(model_path(model)) if self.release.exists(model_path(model)) else None
            facts = (doc or {}).get("model", {}) if isinstance(doc, dict) else {}
            found[model] = ModelEntry(
                model,
                facts.get("display_name", model),
                facts.get("harness", ""),
                facts.get("provider", ""),
                extra={k: v for k, v in facts.items() if k not in _MODEL_FIELDS},
            )
        return found

    @cached_property
    def tasks(self) -> dict[str, TaskEntry]:
        found = {}
        for task in self._manifest.get("tasks", []):
            doc = self._doc(task_path(task)) if self.release.exists(task_path(task)) else None
            doc = doc if isinstance(doc, dict) else {}
            facts = doc.get("task", {})
            found[task] = TaskEntry(
                task,
                facts.get("title", task),
                facts.get("surface", ""),
                ticket=doc.get("ticket", "") if isinstance(doc.get("ticket"), str) else "",
                checks=list(doc.get("checks", [])),
            )
        return found

    def _folders(self) -> list[str]:
        found = set()
        for name in self.release.names():
            if name.startswith(ATTEMPTS_DIR) and name.endswith("/summary.json"):
                found.add(name[: -len("summary.json")])
        return sorted(found)

    def attempts(self) -> Iterator[AttemptEntry]:
        for folder in self._folders():
            parts = folder.split("/")  # attempts/<m>/<t>/ or attempts/<m>/<t>/trials/<n>/
            if len(parts) not in (4, 6):
                continue
            summary = self._doc(folder + "summary.json")
            if not isinstance(summary, dict):
                continue
            verdict = (
                self._doc(folder + "verdict.json")
                if self.release.exists(folder + "verdict.json")
                else None
            )
            yield _entry(self.release, folder, parts, summary, verdict)

    def close(self) -> None:
        self.release.close()


_MODEL_FIELDS = ("id", "display_name", "harness", "provider")


def _entry(
    release: ReleaseSource, folder: str, parts: list[str], summary: dict, verdict: Any
) -> AttemptEntry:
    checks = (
        [
            Check(
                str(c.get("name")),
                str(c.get("level", "")),
                bool(c.get("passed")),
                bool(c.get("mandatory")),
            )
            for c in (verdict or {}).get("checks", [])
            if isinstance(c, dict)
        ]
        if isinstance(verdict, dict)
        else []
    )
    names = [n for n in ATTEMPT_FILES if release.exists(folder + n)]

    def build() -> dict[str, bytes]:
        return {n: release.read(folder + n) for n in names}

    cost = summary.get("cost") if isinstance(summary.get("cost"), dict) else {}
    timing = summary.get("timing") if isinstance(summary.get("timing"), dict) else {}
    return AttemptEntry(
        model=parts[1],
        task=parts[2],
        score=summary.get("score", 0.0),
        flags=list(summary.get("flags", [])),
        checks=checks,
        cost_usd=cost.get("usd"),
        duration_s=timing.get("duration_s"),
        finished_at=str(timing.get("finished_at", "")),
        # Digests are the reader's to check (it refuses a file that changed);
        # sizes are known without reading.
        folder=LazyFolder(build, {n: ("", release.size(folder + n)) for n in names}, folder),
        trial=int(parts[4]) if len(parts) == 6 and parts[4].isdigit() else 0,
    )


class ReleaseAdapter:
    name = "release"
    looks_for = (
        "a v1 release: a folder, .zip or .tar.gz with manifest.json at its root "
        "or in its one top-level folder"
    )
    # A release says its own bench, title and rules. (The pipeline's own options,
    # scrubbing a release and staging its batches, apply to every source.)
    options: frozenset[str] = frozenset()

    def detect(self, paths: Sequence[Path]) -> bool:
        if len(paths) != 1:
            return False
        names = peek_names(Path(paths[0]), depth=2)
        # What cannot even be listed (not a folder or archive, damaged, missing)
        # is the safe reader's to explain, as a release.
        return names is None or has_manifest(names)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ReleaseResults:
        (path,) = paths
        return ReleaseResults(open_release(path))


RELEASE = ReleaseAdapter()
