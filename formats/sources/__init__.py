"""Sources of results: the typed interface (``protocol``), and the registry
of adapters chosen by content (``registry``). One folder per adapter.

A new format comes in as an adapter: a module with an object meeting
``Adapter`` whose ``open`` returns a ``ResultsSource``, one line in
``registry.ADAPTERS``, and tests beside the others. Adapters never write
rows: the one import pipeline checks, previews and writes every source alike.
"""

from formats.sources.protocol import (
    OPTION_NAMES,
    Adapter,
    AttemptEntry,
    BenchFacts,
    Check,
    ImportOptions,
    LazyFolder,
    ModelEntry,
    ResultsSource,
    SeveralBenches,
    SourceError,
    TaskEntry,
    digests_of,
)

__all__ = [
    "OPTION_NAMES",
    "Adapter",
    "AttemptEntry",
    "BenchFacts",
    "Check",
    "ImportOptions",
    "LazyFolder",
    "ModelEntry",
    "ResultsSource",
    "SeveralBenches",
    "SourceError",
    "TaskEntry",
    "digests_of",
]
