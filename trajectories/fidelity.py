"""Does a published trajectory say what its raw transcript says?

The comparison is of the facts a reader relies on: how many events, their
types in order, which tool each call used, and whether each call succeeded
(``ok``) and with what ``exit_code``. Text is not compared: exporters may trim
or reflow it. Pure functions; the importer stores what they find.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Difference:
    """One fact on which the two event lists disagree."""

    index: int  # the event's index (for "count": the first event only one list has)
    field: str  # "type", "tool", "ok", "exit_code" or "count"
    published: Any
    transcript: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "field": self.field,
            "published": self.published,
            "transcript": self.transcript,
        }


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)  # at most ``limit``
    total: int = 0
    # Events 0 .. aligned-1 are the same events in both lists (same types and
    # tools), so the transcript's source lines of one are the other's.
    aligned: int = 0

    @property
    def first(self) -> int | None:
        return self.differences[0].index if self.differences else None


def _outcome(event: dict) -> tuple[Any, Any]:
    result = event.get("result")
    if not isinstance(result, dict):
        return None, None
    return result.get("ok"), result.get("exit_code")


def compare_events(published: list[dict], transcript: list[dict], *, limit: int) -> Comparison:
    """Differences between ``published`` and ``transcript`` events, in index order.

    A different type or tool ends the walk: past it the lists are no longer
    aligned, and every later event would differ for that one reason.
    """
    found = Comparison()

    def add(index: int, name: str, a: Any, b: Any) -> None:
        found.total += 1
        if len(found.differences) < limit:
            found.differences.append(Difference(index, name, a, b))

    shared = min(len(published), len(transcript))
    found.aligned = shared
    for i in range(shared):
        a, b = published[i], transcript[i]
        if a.get("type") != b.get("type"):
            add(i, "type", a.get("type"), b.get("type"))
            found.aligned = i
            break
        if a.get("type") != "tool_call":
            continue
        if a.get("tool") != b.get("tool"):
            add(i, "tool", a.get("tool"), b.get("tool"))
            found.aligned = i
            break
        (ok_a, code_a), (ok_b, code_b) = _outcome(a), _outcome(b)
        if ok_a != ok_b:
            add(i, "ok", ok_a, ok_b)
        if code_a != code_b:
            add(i, "exit_code", code_a, code_b)
    if len(published) != len(transcript):
        add(shared, "count", len(published), len(transcript))
    return found


def difference_text(difference: dict) -> str:
    """One fidelity difference in words (command line, admin preview, attempt page)."""
    if difference["field"] == "count":
        return (
            f"trajectory.json has {difference['published']} events, "
            f"transcript.jsonl {difference['transcript']}"
        )
    return (
        f"event {difference['index']} {difference['field']}: trajectory.json "
        f"{_json_word(difference['published'])}, transcript.jsonl "
        f"{_json_word(difference['transcript'])}"
    )


def _json_word(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)
