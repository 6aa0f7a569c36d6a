"""Keep JSON with NUL characters storable.

PostgreSQL refuses U+0000 in ``text`` and ``jsonb``, yet a tool's output may
hold one. A value that contains one is stored as its JSON text (where the NUL
is the six characters ``\\u0000``) under a reserved key, and unpacked on read;
text columns shown on pages get U+FFFD instead.
"""

from __future__ import annotations

import json
from typing import Any

RAW_KEY = "__benchview_raw_json__"
NUL = "\x00"


def has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(NUL in k or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


def pack(value: Any) -> Any:
    """A storable form of a JSON value (itself, unless it holds a NUL)."""
    if has_nul(value):
        return {RAW_KEY: json.dumps(value)}
    return value


def unpack(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1 and RAW_KEY in value:
        return json.loads(value[RAW_KEY])
    return value


def text(value: str | None) -> str | None:
    """A storable copy of a string for a text column."""
    if value is None or NUL not in value:
        return value
    return value.replace(NUL, "\ufffd")
