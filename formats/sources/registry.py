"""The adapters, by name, and the one place a source's format is chosen.

``detect`` asks each adapter in turn, in the order of ``ADAPTERS``, whether
the paths hold its format (by content); the first that says yes opens them.
So a format that another's content could also pass for (a v1 release holds
attempt folders that look like nothing else) goes before it. When none
matches, the error lists what each looked for (unless the safe reader
refuses the paths outright: its refusal is the more useful one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from formats.reader import open_tree
from formats.sources.harbor.adapter import HARBOR
from formats.sources.openhands_index.adapter import ADAPTER as OPENHANDS_INDEX
from formats.sources.protocol import (
    OPTION_NAMES,
    Adapter,
    ImportOptions,
    ResultsSource,
    SeveralBenches,
    SourceError,
)
from formats.sources.release import RELEASE
from formats.sources.swebench_experiments.source import ADAPTER as SWEBENCH_EXPERIMENTS
from formats.sources.swebench_leaderboards.adapter import ADAPTER as SWEBENCH_LEADERBOARDS
from formats.sources.terminal_bench import TERMINAL_BENCH

# name -> adapter; the order is the order of detection.
# swebench.com's leaderboards.json goes first: its test (a JSON object whose
# first key is "leaderboards") is narrow, while the release's takes any
# regular file the safe reader refuses for its own rules as a release.
ADAPTERS: dict[str, Adapter] = {
    SWEBENCH_LEADERBOARDS.name: SWEBENCH_LEADERBOARDS,
    "release": RELEASE,
    TERMINAL_BENCH.name: TERMINAL_BENCH,
    OPENHANDS_INDEX.name: OPENHANDS_INDEX,
    SWEBENCH_EXPERIMENTS.name: SWEBENCH_EXPERIMENTS,
    # After the others, as when the ingest app registered it: Harbor's trials
    # are found by a result.json anywhere, which other layouts may hold too.
    "harbor": HARBOR,
}


def detect(paths: Sequence[Path], adapters: Mapping[str, Adapter] | None = None) -> Adapter:
    """The adapter whose format ``paths`` hold; ``SourceError`` listing what
    was looked for if none."""
    adapters = ADAPTERS if adapters is None else adapters
    for adapter in adapters.values():
        if adapter.detect(paths):
            return adapter
    # What the safe reader refuses (an archive entry escaping its root, a link,
    # ...) is refused as such, whatever the paths might have held.
    for path in paths:
        open_tree(path).close()
    shown = ", ".join(str(p) for p in paths) or "(no paths)"
    return _no_match(shown, adapters)


def _no_match(shown: str, adapters: Mapping[str, Adapter]) -> Adapter:
    looked = [f"  {name}: {adapter.looks_for}" for name, adapter in adapters.items()]
    raise SourceError(
        [f"{shown}: not a format Benchview reads; looked for:", *looked]
        if looked
        else [f"{shown}: not a format Benchview reads (no adapters registered)"]
    )


def refuse_options(adapter: Adapter, options: ImportOptions) -> None:
    """Refuse, by name, the options given that ``adapter`` does not take."""
    unknown = adapter.options - OPTION_NAMES
    if unknown:
        raise ValueError(f"adapter {adapter.name!r} declares unknown options {sorted(unknown)}")
    refused = [name for name in options.given() if name not in adapter.options]
    if refused:
        takes = ", ".join(sorted(adapter.options)) or "none"
        raise SourceError(
            [f"{adapter.name}: does not take {', '.join(refused)} (it takes: {takes})"]
        )


def open_source(
    paths: Sequence[Path],
    options: ImportOptions,
    adapters: Mapping[str, Adapter] | None = None,
):
    """Detect the format of ``paths``, refuse options it does not take, and open it."""
    adapter = detect(paths, adapters)
    refuse_options(adapter, options)
    return adapter.open(paths, options=options)


def open_sources(
    paths: Sequence[Path],
    options: ImportOptions,
    adapters: Mapping[str, Adapter] | None = None,
    *,
    adapter: Adapter | None = None,
) -> list[ResultsSource]:
    """Like ``open_source``, one source per bench: an adapter whose input holds
    several benches (``SeveralBenches``) gives them all, any other its one."""
    adapter = adapter or detect(paths, adapters)
    refuse_options(adapter, options)
    if isinstance(adapter, SeveralBenches):
        return adapter.open_all(paths, options=options)
    return [adapter.open(paths, options=options)]


def _register_inspect() -> None:
    """Inspect logs, first: the release adapter claims any single file it cannot
    list (to explain why it is no release), and an Inspect log is a single file
    whose content (a zip with header.json, a JSON eval log) no release has."""
    from formats.sources.inspect_logs import ADAPTER

    others = list(ADAPTERS.items())
    ADAPTERS.clear()
    ADAPTERS[ADAPTER.name] = ADAPTER
    ADAPTERS.update(others)


_register_inspect()
