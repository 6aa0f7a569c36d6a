"""Events every reader can write back: nothing nested deeper, no integer larger, than JSON goes.

A transcript line may nest a tool's input 1,000 levels deep, which orjson
reads, but orjson writes no more than 254 levels: the attempt's events, the
``trajectory.json`` the mirror serves and ``normalise_transcript``'s document
would then fail to be written, the import at its last step and after its
dry run said yes. So a normaliser's events are checked once, as the deepest
document they go into (``{"events": [...]}``), and a value that cannot be
written there becomes its JSON text, which the page shows as it would any
output: the raw transcript keeps the value itself.
"""

from __future__ import annotations

from typing import Any

import orjson

from formats.normalise.lines import as_text


def _writable(value: Any) -> bool:
    try:
        orjson.dumps({"events": [value]})
    except orjson.JSONEncodeError:
        return False
    return True


def storable(events: list[dict[str, Any]]) -> int:
    """Rewrite, in place, each event value that cannot be written; returns how many were."""
    try:
        orjson.dumps({"events": events})
        return 0  # the usual case: one pass in C
    except orjson.JSONEncodeError:
        pass
    rewritten = 0
    for event in events:
        if _writable(event):
            continue
        for key, value in event.items():
            if not _writable({key: value}):
                event[key] = as_text(value)
                rewritten += 1
    return rewritten
