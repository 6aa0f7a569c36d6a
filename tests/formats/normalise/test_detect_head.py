"""Format detection parses a transcript's first lines once, whichever detector matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from formats.normalise import detect, lines
from formats.normalise.lines import Head, sniff

SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"


def _samples() -> list[Path]:
    return sorted(p for p in SAMPLES.rglob("*") if p.is_file() and p.suffix in {".jsonl", ".json"})


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    """How many objects each call of ``sniff`` decoded."""
    counts: list[int] = []

    def counted(data, *args, **kwargs):
        counts.append(0)
        for obj in sniff(data, *args, **kwargs):
            counts[-1] += 1
            yield obj

    monkeypatch.setattr(lines, "sniff", counted)
    return counts


def test_every_detector_reads_one_decoding_of_the_head(parses):
    # An OpenCode run is the sixth format tried; five detectors read its head first.
    line = b'{"type": "text", "timestamp": 1, "sessionID": "s", "part": {"type": "text"}}'
    data = b"\n".join([line] * 300)
    assert detect(data) == "opencode-run"
    assert len(parses) == 1
    assert parses[0] <= 200  # the head only, read once


@pytest.mark.parametrize("path", _samples(), ids=lambda p: p.name)
def test_detection_through_the_head_agrees_with_each_detector_on_its_own(path, parses):
    from formats.normalise import DETECTORS

    data = path.read_bytes()
    alone = next((name for name, looks in DETECTORS.items() if looks(Head(data))), None)
    assert detect(data) == alone


def test_readers_of_one_head_see_the_same_objects_whatever_their_pace():
    data = b"\n".join(b'{"n": %d}' % i for i in range(250))
    head = Head(data)
    first = iter(head)
    assert [next(first) for _ in range(3)] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert list(head) == list(sniff(data))
    assert [next(first) for _ in range(2)] == [{"n": 3}, {"n": 4}]
    assert len(list(head)) == 200
