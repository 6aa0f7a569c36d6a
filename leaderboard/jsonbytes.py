"""The one serialiser of the mirror's JSON files, here so the leaderboard's frozen
revisions (``leaderboard.revisions``) write the very bytes the mirror serves."""

from __future__ import annotations

import json
from typing import Any

_ENCODER = json.JSONEncoder(ensure_ascii=False)
_ASCII_ENCODER = json.JSONEncoder(ensure_ascii=True)


def dumps(value: Any) -> bytes:
    """JSON as UTF-8. A lone surrogate (legal in JSON text, not in UTF-8) falls
    back to ``\\u`` escapes, which decode to the same value."""
    try:
        return _ENCODER.encode(value).encode("utf-8")
    except UnicodeEncodeError:
        return _ASCII_ENCODER.encode(value).encode("ascii")
