"""A trial's events: from the raw agent log when a normaliser reads it, else from ATIF.

The raw log (``agent/<agent>.txt``) is what the harness itself wrote, and
marks tool failures that older ATIF (v1.2) does not, so it wins whenever a
normaliser knows its format and it gives events. ATIF that breaks its own
rules is not trusted: the attempt then has the raw log's events, or none,
and says why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from formats.normalise import UnknownFormat, detect, normalise
from formats.normalise.atif import FORMAT as ATIF_FORMAT
from formats.normalise.atif import normalise_atif
from formats.v1.event_schema import check_events

logger = logging.getLogger(__name__)

ATIF_INVALID = "atif-invalid"
NO_TRAJECTORY = "no-trajectory"


@dataclass
class TrialEvents:
    events: list[dict[str, Any]] = field(default_factory=list)
    source: str = "none"  # "raw-log:<format>", "atif" or "none"
    flags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _from_raw_log(raw: bytes | None, notes: list[str]) -> tuple[str, list[dict[str, Any]]] | None:
    if not raw:
        return None
    name = detect(raw)
    if name is None or name == ATIF_FORMAT:
        return None
    try:
        result = normalise(raw, name)
    except UnknownFormat:
        return None
    except Exception as exc:  # a normaliser's bug costs this trial its raw log, not the import
        logger.exception("the %s normaliser failed on a Harbor agent log", name)
        notes.append(f"the raw agent log ({name}) could not be read: {type(exc).__name__}")
        return None
    if not result.events or check_events(result.events):
        return None
    return name, result.events


def _atif(atif_bytes: bytes) -> tuple[list[dict[str, Any]], list[str]]:
    """ATIF's events and the rules it breaks (a normaliser's failure is one)."""
    try:
        parsed = normalise_atif(atif_bytes)
    except Exception as exc:
        logger.exception("the ATIF normaliser failed")
        return [], [f"it could not be read ({type(exc).__name__})"]
    problems = [str(p) for p in parsed.meta.get("problems", [])]
    problems += [f"{path}: {message}" for path, message in check_events(parsed.events)]
    return parsed.events, problems


def trial_events(*, atif_bytes: bytes | None, raw_log: bytes | None) -> TrialEvents:
    out = TrialEvents()
    raw = _from_raw_log(raw_log, out.notes)
    atif_problems: list[str] = []
    atif_events: list[dict[str, Any]] = []
    if atif_bytes is None:
        out.notes.append("no agent/trajectory.json (ATIF) in this trial")
        if raw is None:
            out.flags.append(NO_TRAJECTORY)
    else:
        atif_events, atif_problems = _atif(atif_bytes)
        if atif_problems:
            out.flags.append(ATIF_INVALID)
            shown = "; ".join(atif_problems[:5])
            more = f" (and {len(atif_problems) - 5} more)" if len(atif_problems) > 5 else ""
            out.notes.append(
                "agent/trajectory.json breaks ATIF's rules, so its steps are not used: "
                f"{shown}{more}"
            )
    if raw is not None:
        out.source, out.events = f"raw-log:{raw[0]}", raw[1]
    elif atif_bytes is not None and not atif_problems:
        out.source, out.events = ATIF_FORMAT, atif_events
    elif atif_bytes is not None:
        out.notes.append("no events: the raw agent log is missing or in no format the site reads")
    return out
