"""Pretty JSON for tool inputs and vendor request bodies.

``json.dumps(indent=…)`` runs the pure-Python encoder, which is the slowest
part of a 10,000-event page; this one writes one member per line and leaves
short containers on one line, so the C encoder does the work. It also stops
early once the output is past a preview limit, so a 5 MB string in an input is
never encoded whole.
"""

from __future__ import annotations

import json
from typing import Any

from trajectories.render.text import cut, visible

# The C string encoder; building a JSONEncoder per value costs more than the
# small inputs it would encode.
_string = json.encoder.encode_basestring
_LITERALS = {True: "true", False: "false", None: "null"}
# Containers whose one-line form is at most this long stay on one line.
_INLINE = 72


def _dumps(value: Any) -> str:
    """One JSON scalar (or, for anything else, the standard encoder's output)."""
    if isinstance(value, str):
        return _string(value)
    if value is None or isinstance(value, bool):
        return _LITERALS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    return json.dumps(value, ensure_ascii=False)


def pretty(value: Any, limit: int | None = None) -> str:
    """Indented JSON (non-ASCII kept readable); a string is returned as it is.

    With ``limit``, the text is complete up to at least ``limit`` characters
    and may stop soon after (callers cut it to the limit).
    """
    if isinstance(value, str):
        return value
    out: list[str] = []
    _write(value, "", out, [0, limit if limit is not None else -1])
    return "".join(out)


def _scalar(value: Any, budget: list[int]) -> str:
    if isinstance(value, str) and budget[1] >= 0 and len(value) > budget[1]:
        # Only the first ``limit`` characters can ever be shown.
        return _dumps(value[: budget[1]])[:-1]
    return _dumps(value)


def _emit(text: str, out: list[str], budget: list[int]) -> bool:
    """Append; False once the output is past the limit (stop writing)."""
    out.append(text)
    budget[0] += len(text)
    return budget[1] < 0 or budget[0] <= budget[1]


def _short(value: Any) -> bool:
    """Small enough to sit inside a one-line container (checked before encoding)."""
    if isinstance(value, str):
        return len(value) <= _INLINE
    return not value if isinstance(value, dict | list) else True


def _write(value: Any, indent: str, out: list[str], budget: list[int]) -> bool:
    if isinstance(value, dict):
        items = list(value.items())
        opener, closer = "{", "}"
    elif isinstance(value, list):
        items = list(enumerate(value))
        opener, closer = "[", "]"
    else:
        return _emit(_scalar(value, budget), out, budget)
    if not items:
        return _emit(opener + closer, out, budget)
    if len(items) <= 8 and all(_short(v) for _, v in items):
        if opener == "{":
            members = [f"{_string(str(k))}: {_dumps(v)}" for k, v in items]
        else:
            members = [_dumps(v) for _, v in items]
        flat = opener + ", ".join(members) + closer
        if len(flat) <= _INLINE:
            return _emit(flat, out, budget)
    inner = indent + "  "
    if not _emit(opener + "\n", out, budget):
        return False
    last = len(items) - 1
    for position, (key, item) in enumerate(items):
        prefix = f"{inner}{_dumps(str(key))}: " if opener == "{" else inner
        if not _emit(prefix, out, budget) or not _write(item, inner, out, budget):
            return False
        if not _emit(",\n" if position < last else "\n", out, budget):
            return False
    return _emit(indent + closer, out, budget)


def pretty_preview(value: Any, limit: int) -> tuple[str, bool]:
    """``pretty(value)`` cut to ``limit`` characters, control characters made visible."""
    text, was_cut = cut(pretty(value, limit), limit)
    return visible(text), was_cut
