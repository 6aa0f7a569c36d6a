"""The one way Python code builds HTML: ``html(template, *values)``.

Like Django's ``format_html``: every value is escaped (``&<>"'``) unless it is
already safe (a ``SafeString`` from here, a template, or Pygments/nh3 output
marked where it is made), and the result is safe. Faster than ``format_html``
(one ``str.format`` and ``html.escape`` per value, no lazy-string checks),
which matters where a page holds tens of thousands of fragments: events,
matrix cells, leaderboard rows. ``html_join`` joins fragments and escapes any
piece that is not already safe, so a plain string cannot slip in unescaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape as _escape
from typing import Any

from django.utils.safestring import SafeData, SafeString

# Values ``str.format`` may write as they are: numbers (digits, signs, points
# and letters) and safe strings. Checked by exact type before any call.
_AS_THEY_ARE = frozenset({SafeString, int, float})


def escaped(value: Any) -> str:
    """``value`` as HTML text: escaped, or as it is when already safe."""
    if isinstance(value, SafeData):
        return value
    return _escape(str(value), quote=True)


def html(template: str, *values: Any) -> SafeString:
    """``template`` (trusted markup with ``{}`` fields) filled with ``values``, escaped."""
    return SafeString(
        template.format(*[v if type(v) in _AS_THEY_ARE else escaped(v) for v in values])
    )


def html_join(pieces: Iterable[Any], sep: str = "") -> SafeString:
    """The pieces joined; each one not already safe is escaped."""
    return SafeString(sep.join([p if type(p) is SafeString else escaped(p) for p in pieces]))
