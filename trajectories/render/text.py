"""Plain text from a trajectory, made visible and cut to a preview."""

from __future__ import annotations

import re

# C0 controls (except tab, newline, carriage return) and DEL are invisible or
# eaten by the browser; show each one as its Unicode "control picture" so a
# reader sees that an output held, say, a NUL or an escape sequence.
_CONTROLS = {code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A, 0x0D)}
_CONTROLS[0x7F] = 0x2421
_HAS_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def visible(value: str | None) -> str:
    """``value`` with its control characters shown as control pictures (still unescaped)."""
    if not value:
        return ""
    if _HAS_CONTROL.search(value) is None:
        return value
    return value.translate(_CONTROLS)


def cut(value: str, limit: int) -> tuple[str, bool]:
    """The first ``limit`` characters of ``value`` and whether anything was cut."""
    if len(value) <= limit:
        return value, False
    return value[:limit], True
