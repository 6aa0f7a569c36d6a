"""Every registered format opened the one way the import reads it.

``formats.sources.registry.ADAPTERS`` gets, in the order of detection, the v1
release (``manifest.json``), Harbor jobs and the formats' own adapters
(Terminal-Bench, ...). ``opened(adapter, paths, options)`` gives what
``ingest.plan`` reads: a release as it is, Harbor jobs through
``harbor_release``, any other ``ResultsSource`` through
``door.release.source_release``. The formats' adapters read through the safe
reader (``ingest.reader.open_tree``), set here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path

from formats.sources.openhands_index.adapter import ADAPTER as OPENHANDS_INDEX
from formats.sources.protocol import ImportOptions
from formats.sources.registry import ADAPTERS
from formats.sources.swebench_leaderboards.adapter import ADAPTER as SWEBENCH_LEADERBOARDS
from formats.sources.terminal_bench.adapter import ADAPTER as TERMINAL_BENCH
from ingest.door.release import source_release
from ingest.harbor.build import describe, harbor_release
from ingest.harbor.errors import HarborError
from ingest.harbor.layout import RESULT
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reader import MANIFEST, ReleaseReadError, open_release, open_tree
from ingest.schema import parse_json
from leaderboard.scoring import DEFAULT_EXCEPTIONS_RULE, DEFAULT_REWARD_THRESHOLD


def _tree(path):
    return open_tree(path)


class ReleaseAdapter:
    name = "release"
    looks_for = "a v1 release: manifest.json at its root or in its one top-level folder"
    options = frozenset({"bench"})

    def detect(self, paths: Sequence[Path]) -> bool:
        if len(paths) != 1:
            return False
        try:
            open_release(paths[0]).close()
        except ReleaseReadError as exc:
            # Refused for its own rules (too large, unsafe entries), it is still
            # a release: its refusal says why. Without manifest.json it is not.
            return exc.rule not in ("no-manifest", "not-found", "not-an-archive")
        return True

    def open(self, paths, *, options):  # the door opens releases itself (opened())
        raise NotImplementedError


class HarborAdapter:
    name = "harbor"
    looks_for = "Harbor jobs: job or trial folders whose result.json names a task_name"
    options = frozenset(
        {
            "bench",
            "title",
            "models_file",
            "threshold",
            "exceptions_rule",
            "allow_partial",
            "replace",
            "scrub",
        }
    )

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            try:
                with open_tree(path) as tree:
                    if not any(_is_trial_result(tree, n) for n in tree.names()):
                        return False
            except ReleaseReadError:
                return False
        return bool(paths)

    def open(self, paths, *, options):  # the door opens Harbor jobs itself (opened())
        raise NotImplementedError


def _is_trial_result(tree, name: str) -> bool:
    if not (name == RESULT or name.endswith("/" + RESULT)) or tree.size(name) > 16 * 1024**2:
        return False
    try:
        doc = parse_json(tree.read(name))
    except ValueError:
        return False
    return isinstance(doc, dict) and "task_name" in doc


type(TERMINAL_BENCH).open_tree = staticmethod(_tree)
type(OPENHANDS_INDEX).open_tree = staticmethod(_tree)
RELEASE, HARBOR = ReleaseAdapter(), HarborAdapter()
for _adapter in (RELEASE, HARBOR, TERMINAL_BENCH, SWEBENCH_LEADERBOARDS, OPENHANDS_INDEX):
    ADAPTERS.setdefault(_adapter.name, _adapter)


@contextmanager
def opened(
    adapter,
    paths: Sequence[Path],
    options: ImportOptions,
    *,
    say=lambda line: None,
    progress: ProgressCallback | None = None,
) -> Iterator:
    """What the import reads of ``paths`` in ``adapter``'s format; ``say`` hears
    the adapter's notes, ``progress`` each attempt read. Raises
    ReleaseReadError or HarborError (SourceError)."""
    if adapter.name == RELEASE.name:
        with open_release(paths[0]) as release:
            if options.bench and release.exists(MANIFEST):
                bench = (parse_json(release.read(MANIFEST)) or {}).get("bench")
                if bench != options.bench:
                    raise HarborError(
                        [f"--bench {options.bench!r}: this release is of bench {bench!r}"]
                    )
            yield release
        return
    with ExitStack() as stack:
        if adapter.name == HARBOR.name:
            trees = [(stack.enter_context(open_tree(p)), str(p).rstrip("/")) for p in paths]
            built = harbor_release(
                trees,
                bench=options.bench or "",
                title=options.title,
                models_file=options.models_file,
                threshold=DEFAULT_REWARD_THRESHOLD
                if options.threshold is None
                else options.threshold,
                allow_partial=options.allow_partial,
                replace=options.replace,
                scrub=options.scrub,
                progress=progress,
                exceptions_rule=options.exceptions_rule or DEFAULT_EXCEPTIONS_RULE,
            )
            for line in describe(built):
                say(line)
            with built.source as source:
                yield source
            return
        if progress is not None:
            told = progress
            options = replace(
                options, progress=lambda done, total: told(Progress(Phase.CHECKING, done, total))
            )
        source = adapter.open(paths, options=options)
        stack.callback(source.close)
        release, read = source_release(source, replace=options.replace, scrubbed=options.scrub)
        say(f"{adapter.name}: {read} trial(s) read")
        for note in source.notes:
            say(f"note: {note}")
        with release:
            yield release
