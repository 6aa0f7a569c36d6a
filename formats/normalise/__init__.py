"""Raw harness transcripts → release-format v1 events.

One module per format, each a pure function from a transcript's bytes to a
``Normalised``; ``NORMALISERS`` maps format name → function and ``detect``
picks a format from the content (never from a file name). Nothing here
touches the database: the importer, the Harbor adapter and the
``normalise_transcript`` command all call ``normalise``.

Contract of every normaliser:

- ``events`` is a v1 event list: ``index`` 0, 1, 2, … with no gaps, types
  ``system``, ``user``, ``message``, ``reasoning``, ``tool_call`` (with
  ``result`` ``{ok, output, exit_code}`` or ``None``) and ``error``.
- ``sources[i]`` lists the 1-based line numbers of the transcript that event
  ``i`` came from (ascending, at least one).
- every line of the transcript is either the source of some event or in
  ``unmapped`` with a reason: nothing is lost silently. Blank lines count
  as lines too (reason "blank line").
- it never raises on bad content: invalid UTF-8, non-JSON lines, unknown
  types and broken pairings become unmapped lines or ``error`` events.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Unmapped:
    """A transcript line that gave no event, and why."""

    line: int
    reason: str


@dataclass
class Normalised:
    format: str
    events: list[dict[str, Any]] = field(default_factory=list)
    sources: list[list[int]] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)
    # What the transcript says of the run as a whole (session id, model,
    # token totals, cost), where it says it.
    meta: dict[str, Any] = field(default_factory=dict)


Normaliser = Callable[[bytes], Normalised]

# Format name → normaliser. Filled by the format modules (see register()).
NORMALISERS: dict[str, Normaliser] = {}
# Format name → content sniffer: True when the bytes look like that format.
# A detector reads a transcript's Head (normalise.lines): its bytes and its
# first JSON objects, parsed once for every detector.
DETECTORS: dict[str, Callable[[Any], bool]] = {}


def register(name: str, detector: Callable[[Any], bool]) -> Callable[[Normaliser], Normaliser]:
    """Decorator a format module puts on its normaliser: fills both registries.

    What is registered returns events that can be written back as JSON
    (``storable``), whatever the transcript nests or numbers."""

    def put(function: Normaliser) -> Normaliser:
        paused = _gc_paused(_storable(function))
        NORMALISERS[name] = paused
        DETECTORS[name] = detector
        return paused

    return put


def _storable(function: Normaliser) -> Normaliser:
    from formats.normalise.storable import storable

    @functools.wraps(function)
    def run(data: bytes) -> Normalised:
        result = function(data)
        storable(result.events)
        return result

    return run


def _gc_paused(function: Normaliser) -> Normaliser:
    """``function`` with the cyclic garbage collector paused while it runs.

    A normaliser keeps every event it builds (and the session one every parsed
    line), so the collector would keep re-walking a heap that only grows, for
    nothing: the normalisers make no reference cycles and plain reference
    counting frees what they drop. That walking was a third of the run time on
    large transcripts. If the collector was already off, it is left off.
    """

    @functools.wraps(function)
    def run(data: bytes) -> Normalised:
        if not gc.isenabled():
            return function(data)
        gc.disable()
        try:
            return function(data)
        finally:
            gc.enable()

    return run


class UnknownFormat(ValueError):
    """The content matches no known transcript format."""


def detect(data: bytes) -> str | None:
    """The name of the format ``data`` is written in, or None."""
    # Imported here: lines imports this package's types.
    from formats.normalise.lines import Head

    head = Head(data)
    for name, looks_like in DETECTORS.items():
        if looks_like(head):
            return name
    return None


def normalise(data: bytes, format: str | None = None) -> Normalised:
    """Normalise a transcript; ``format`` overrides detection."""
    name = format or detect(data)
    if name is None:
        raise UnknownFormat("not a transcript format this site knows")
    if name not in NORMALISERS:
        raise UnknownFormat(f"unknown transcript format {name!r}; known: {sorted(NORMALISERS)}")
    return NORMALISERS[name](data)


# The format modules, imported for their register() calls. Detection tries the
# formats in this order, so the more specific sniffers come first (a Claude
# session file also has ``assistant`` lines, as stream-json does). A module
# named here that does not exist is skipped; an import error inside an
# existing module is not hidden.
FORMAT_MODULES = (
    "claude_session",
    "claude_stream",
    "codex_exec",
    "codex_legacy",
    "codex_rollout",
    "opencode_run",
    "asciinema",
    "atif",
    "mini_swe_agent",
    "swe_agent",
    "openhands_history",
    "inspect_sample",
)


def _load_formats() -> None:
    from importlib import import_module

    for module in FORMAT_MODULES:
        qualified = f"{__name__}.{module}"
        try:
            import_module(qualified)
        except ModuleNotFoundError as exc:
            if exc.name != qualified:
                raise


_load_formats()
