"""Checks every normaliser test makes: the v1 contract and nothing lost."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from formats.normalise import Normalised
from formats.normalise.lines import split_lines
from formats.v1.event_schema import check_events

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"


def jsonl(*lines: str | bytes) -> bytes:
    return b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)


def check_contract(
    result: Normalised, data: bytes | None = None, *, lines: int | None = None
) -> None:
    """Valid v1 events, one source list each, and every line accounted for exactly once."""
    assert check_events(result.events) == []
    assert len(result.sources) == len(result.events)
    sourced = [n for src in result.sources for n in src]
    assert all(src and src == sorted(src) for src in result.sources)
    unmapped = [u.line for u in result.unmapped]
    total = lines if lines is not None else len(split_lines(data or b""))
    assert sorted(set(sourced) | set(unmapped)) == list(range(1, total + 1))
    assert not set(sourced) & set(unmapped), "a line both mapped and unmapped"
    assert len(unmapped) == len(set(unmapped))


# Formats whose transcript is one JSON document: sources and unmapped number
# its items (ATIF's steps; an Inspect sample's messages, then its events; the
# SWE-agent, mini-swe-agent and OpenHands lists), not its lines, so only lines
# that are no such document are numbered as lines.
DOCUMENT_FORMATS = frozenset(
    {"atif", "inspect-sample", "swe-agent-traj", "mini-swe-agent", "openhands-history"}
)


def numbers_items(fmt: str, result: Normalised) -> bool:
    """Whether ``result`` read its input as a document (else it numbered lines)."""
    if fmt == "inspect-sample":
        return "messages" in result.meta  # set once the sample was read
    return fmt in DOCUMENT_FORMATS and bool(result.events)


def check_document_contract(result: Normalised) -> None:
    """Valid v1 events, one ascending source list each, no item both mapped and unmapped."""
    assert check_events(result.events) == []
    assert len(result.sources) == len(result.events)
    assert all(src and src == sorted(src) for src in result.sources)
    unmapped = [u.line for u in result.unmapped]
    assert not {n for src in result.sources for n in src} & set(unmapped)
    assert len(unmapped) == len(set(unmapped))


def counts(result: Normalised) -> dict[str, int]:
    return dict(Counter(e["type"] for e in result.events))


def failed_calls(result: Normalised) -> list[tuple[str, int | None]]:
    return [
        (e["tool"], e["result"]["exit_code"])
        for e in result.events
        if e["type"] == "tool_call" and e["result"] is not None and not e["result"]["ok"]
    ]


def unanswered(result: Normalised) -> list[str]:
    return [e["tool"] for e in result.events if e["type"] == "tool_call" and e["result"] is None]
