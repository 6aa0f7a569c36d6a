"""An attempt's transcript.jsonl, read once by the normalisers at import.

Without a trajectory.json the normalised events are the attempt's events;
with one, they are compared with it (trajectories.fidelity) and what differs
is a finding, never an import error. Either way the lines that gave no event
are kept, and each stored event learns the transcript lines it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from formats import normalise as normalisers
from trajectories.fidelity import compare_events
from trajectories.models import TranscriptCheck

UNRECOGNISED_NOTE = "not a transcript format this site knows"


@dataclass
class TranscriptReading:
    status: str  # one of TranscriptCheck.STATUSES
    format: str = ""
    note: str = ""
    differences: list[dict[str, Any]] = field(default_factory=list)
    differences_total: int = 0
    first_difference: int | None = None
    unmapped: list[list[Any]] = field(default_factory=list)
    unmapped_total: int = 0
    lines_total: int = 0
    # Derived events (only when the release has no trajectory.json).
    events: list[dict[str, Any]] | None = None
    # Per stored event, its transcript lines; None where unknown.
    sources: list[list[int] | None] = field(default_factory=list)

    def check_values(self) -> dict[str, Any]:
        """The TranscriptCheck row's fields."""
        return {
            "status": self.status,
            "format": self.format,
            "note": self.note,
            "differences": self.differences,
            "differences_total": self.differences_total,
            "first_difference": self.first_difference,
            "unmapped": self.unmapped,
            "unmapped_total": self.unmapped_total,
            "lines_total": self.lines_total,
        }


def count_lines(data: bytes) -> int:
    """Lines as the normalisers and the transcript page number them: split at
    ``\\n``; a final newline ends the last line rather than starting one."""
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


# Bytes checked at a time by utf8_error_at.
UTF8_PIECE_BYTES = 1024**2


def utf8_error_at(data: bytes) -> int | None:
    """The offset of the first byte of ``data`` that is not UTF-8; None when all of it is.

    Checked a piece at a time: decoding a 10 MB transcript whole builds a str
    of up to 40 MB (four bytes a character once one emoji is in it) only to
    throw it away, the largest part of an import's peak memory. Pieces end
    before a character's continuation bytes, and valid pieces joined are valid
    UTF-8; once a piece fails (a bad byte) the file is decoded whole, so the
    offset is exactly the one decoding gives.
    """
    if data.isascii():
        return None
    view, size, start = memoryview(data), len(data), 0
    while start < size:
        end = min(start + UTF8_PIECE_BYTES, size)
        for _ in range(3):
            if end == size or end - 1 == start or data[end] & 0xC0 != 0x80:
                break
            end -= 1
        try:
            str(view[start:end], "utf-8")
        except UnicodeDecodeError:
            break
        start = end
    else:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


def utf8_problem(data: bytes) -> str:
    """The finding for a transcript that is not UTF-8 ("" when it is).

    The release format keeps transcript.jsonl byte for byte, so such a file is
    imported as it is (the page shows bad bytes as U+FFFD) and this says where.
    """
    at = utf8_error_at(data)
    return "" if at is None else f"transcript is not valid UTF-8 at byte {at}"


def read_transcript(data: bytes, published: list[dict] | None) -> TranscriptReading:
    """Normalise ``data`` (one pass) and, given ``published`` events, compare.

    ``published`` is None when the release has no trajectory.json: the
    reading's ``events`` are then the attempt's events, and an unrecognised
    format leaves it with none (the caller refuses the attempt).
    """
    limits = settings.BENCHVIEW_LIMITS
    lines = count_lines(data)
    encoding = utf8_problem(data)
    name = normalisers.detect(data)
    if name is None:
        note = f"{UNRECOGNISED_NOTE}; {encoding}" if encoding else UNRECOGNISED_NOTE
        return TranscriptReading(status=TranscriptCheck.UNRECOGNISED, note=note, lines_total=lines)
    try:
        result = normalisers.normalise(data, format=name)
    except Exception as exc:  # a normaliser's bug must not stop an import that can do without it
        return TranscriptReading(
            status=TranscriptCheck.UNRECOGNISED,
            format=name,
            note=f"the {name} normaliser failed: {type(exc).__name__}: {exc}"[:2000],
            lines_total=lines,
        )
    unmapped_max = limits["transcript_unmapped_max"]
    reading = TranscriptReading(
        status=TranscriptCheck.DERIVED,
        format=name,
        note=encoding,
        unmapped=[[u.line, u.reason] for u in result.unmapped[:unmapped_max]],
        unmapped_total=len(result.unmapped),
        lines_total=lines,
    )
    if published is None:
        reading.events = result.events
        reading.sources = [list(s) for s in result.sources]
        return reading
    found = compare_events(published, result.events, limit=limits["transcript_differences_max"])
    reading.status = TranscriptCheck.DIFFERS if found.total else TranscriptCheck.AGREES
    reading.differences = [d.as_dict() for d in found.differences]
    reading.differences_total = found.total
    reading.first_difference = found.first
    # Past the first different type or tool the lists are not aligned: those
    # events get no source lines rather than wrong ones.
    reading.sources = [
        list(result.sources[i]) if i < found.aligned and i < len(result.sources) else None
        for i in range(len(published))
    ]
    return reading
