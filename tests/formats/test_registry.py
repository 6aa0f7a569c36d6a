"""The registry of sources: one adapter chosen by content, the others' options refused."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from formats.reader import ReleaseReadError
from formats.sources import (
    OPTION_NAMES,
    Adapter,
    AttemptEntry,
    BenchFacts,
    Check,
    ImportOptions,
    LazyFolder,
    ModelEntry,
    ResultsSource,
    SourceError,
    TaskEntry,
    digests_of,
)
from formats.sources.registry import ADAPTERS, detect, open_source, refuse_options


@dataclass
class _Source:
    """A source of one attempt, built from a file whose first line says 'toy'."""

    name: str
    bench: BenchFacts
    models: dict[str, ModelEntry] = field(default_factory=dict)
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def attempts(self) -> Iterator[AttemptEntry]:
        files = {"summary.json": b"{}"}
        yield AttemptEntry(
            model="m",
            task="t",
            score=1.0,
            flags=[],
            checks=[Check("a", "test", True), Check("b", "test", False, mandatory=True)],
            cost_usd=None,
            duration_s=2.0,
            finished_at="2026-01-01T00:00:00Z",
            folder=LazyFolder(lambda: dict(files), digests_of(files), self.name),
        )

    def close(self) -> None:
        pass


@dataclass
class _Adapter:
    name: str
    marker: bytes
    looks_for: str
    options: frozenset[str] = frozenset({"bench"})

    def detect(self, paths: Sequence[Path]) -> bool:
        return all(p.is_file() and p.read_bytes().startswith(self.marker) for p in paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ResultsSource:
        return _Source(paths[0].name, BenchFacts(options.bench or "toy", "Toy", "all-mandatory"))


TOY = _Adapter("toy", b"toy", "a file starting 'toy'")
OTHER = _Adapter("other", b"other", "a file starting 'other'", frozenset())
BOTH = {"toy": TOY, "other": OTHER}


def test_the_adapter_is_chosen_by_content_not_by_name(tmp_path):
    named_like_toy = tmp_path / "toy.json"
    named_like_toy.write_bytes(b"other\n")
    assert detect([named_like_toy], BOTH) is OTHER
    plain = tmp_path / "results"
    plain.write_bytes(b"toy\n")
    assert detect([plain], BOTH) is TOY


def test_when_nothing_matches_the_error_lists_what_each_adapter_looked_for(tmp_path):
    path = tmp_path / "results"
    path.mkdir()
    (path / "notes.txt").write_bytes(b"neither")
    with pytest.raises(SourceError) as caught:
        detect([path], BOTH)
    message = str(caught.value)
    assert str(path) in message
    assert "toy: a file starting 'toy'" in message
    assert "other: a file starting 'other'" in message


def test_what_the_safe_reader_refuses_is_refused_as_such_not_as_an_unknown_format(tmp_path):
    path = tmp_path / "results.bin"
    path.write_bytes(b"neither a folder nor an archive")
    with pytest.raises(ReleaseReadError, match="not a release folder, .zip or .tar.gz"):
        detect([path], BOTH)


def test_an_option_the_adapter_does_not_take_is_refused_by_name(tmp_path):
    refuse_options(TOY, ImportOptions(bench="b"))  # taken: no error
    with pytest.raises(SourceError, match=r"toy: does not take replace, scrub \(it takes: bench\)"):
        refuse_options(TOY, ImportOptions(bench="b", replace=True, scrub=False))
    with pytest.raises(SourceError, match=r"other: does not take bench \(it takes: none\)"):
        refuse_options(OTHER, ImportOptions(bench="b"))


def test_an_adapter_declaring_an_option_that_does_not_exist_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown options"):
        refuse_options(_Adapter("odd", b"", "", frozenset({"colour"})), ImportOptions())


def test_open_source_detects_checks_options_and_opens(tmp_path):
    path = tmp_path / "results"
    path.write_bytes(b"toy")
    source = open_source([path], ImportOptions(bench="mine"), BOTH)
    assert isinstance(source, ResultsSource)
    assert source.bench.id == "mine"
    (attempt,) = list(source.attempts())
    assert (attempt.path, attempt.checks_passed, attempt.mandatory_failed) == (
        "attempts/m/t/",
        1,
        1,
    )
    assert attempt.folder.build() == {"summary.json": b"{}"}
    assert attempt.folder.digests["summary.json"][1] == 2
    with pytest.raises(SourceError, match="does not take"):
        open_source([path], ImportOptions(bench="mine", allow_partial=True), BOTH)


def test_a_further_trial_has_its_own_folder():
    entry = AttemptEntry("m", "t", 0.0, [], [], None, None, "", LazyFolder(dict, {}, ""), trial=2)
    assert entry.path == "attempts/m/t/trials/2/"


def test_every_registered_adapter_meets_the_protocol_and_declares_known_options():
    for name, adapter in ADAPTERS.items():
        assert isinstance(adapter, Adapter)
        assert adapter.name == name
        assert adapter.looks_for
        assert adapter.options <= OPTION_NAMES
