"""The one way Python code builds HTML: templates whose every value is escaped.

``html(template, *values)`` is like Django's ``format_html``: each value is
escaped (``&<>"'``, as ``html.escape`` does) unless it is already safe (a
``SafeString`` from here, a template, or Pygments/nh3 output marked where it
is made), and the result is safe. ``html_template(template)`` compiles a
template once into a function of its values, for the hot paths: the attempt
page's events and the matrix's 20,000 cells, where a call per fragment must
cost about what an f-string does. ``html_join`` joins fragments and escapes
any piece that is not already safe, so a plain string cannot slip in.

Templates are trusted markup (literals in the code); their fields are ``{}``
or numbered ``{0}`` (a value used twice is escaped once), with an optional
format spec (``{:.1f}``) applied to the value before it is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from string import Formatter
from typing import Any

from django.utils.safestring import SafeData, SafeString

_SAFE = frozenset({SafeString})


def _escape(text: str) -> str:
    """``html.escape(text, quote=True)``, faster (see _CHECK)."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "'" in text:
        text = text.replace("'", "&#x27;")
    return text


def escaped(value: Any) -> str:
    """``value`` as HTML text: escaped, or as it is when already safe."""
    if isinstance(value, SafeData):
        return str(value)
    return _escape(str(value))


def _formatted(value: Any, spec: str) -> str:
    return _escape(format(value, spec))


# The code of a compiled template: per value one test of its exact type, then
# one join. A plain ``str`` (the usual untrusted value) is escaped inline, as
# ``html.escape`` does it but replacing only the characters it holds: an
# ``in`` test is a fast scan, while ``replace`` counts character by character
# even when there is nothing to replace (on a 600-character event body,
# 0.2 µs instead of 2). A SafeString is kept; anything else goes through
# ``escaped``. Joined, not formatted: ``str.format`` and f-strings call
# SafeString's ``__str__``, a Python method, for every value. The source
# names values and literal parts by position only: no text of the template
# ever becomes code.
_CHECK = """\
    c = v{i}.__class__
    if c is str:
        if "&" in v{i}: v{i} = v{i}.replace("&", "&amp;")
        if "<" in v{i}: v{i} = v{i}.replace("<", "&lt;")
        if ">" in v{i}: v{i} = v{i}.replace(">", "&gt;")
        if '"' in v{i}: v{i} = v{i}.replace('"', "&quot;")
        if "'" in v{i}: v{i} = v{i}.replace("'", "&#x27;")
    elif c is not SafeString:
        v{i} = str(v{i}) if c is int else escaped(v{i})
"""
_CHECK_FORMATTED = "    v{i} = formatted(v{i}, spec{i})\n"


def _parse(template: str) -> tuple[list[str], list[int], dict[int, str]]:
    """The literal parts, the value number of each field between them, and
    the format spec of the values that have one."""
    literals, fields, specs, seen = [""], [], {}, {}
    automatic = None
    for literal, name, spec, conversion in Formatter().parse(template):
        # "{{" and "}}" end a literal part early: the next one continues it.
        literals[-1] += literal
        if name is None:
            continue
        if "{" in spec:
            raise ValueError(f"no nested fields in a format spec: {template!r}")
        if conversion:
            raise ValueError(f"no conversions (!{conversion}) in an HTML template: {template!r}")
        if name == "":
            if automatic is False:
                raise ValueError(f"numbered and automatic fields mixed: {template!r}")
            automatic, number = True, len(fields)
        elif name.isdigit():
            if automatic:
                raise ValueError(f"numbered and automatic fields mixed: {template!r}")
            automatic, number = False, int(name)
        else:
            raise ValueError(f"fields are {{}} or {{0}}, not {{{name}}}: {template!r}")
        if seen.setdefault(number, spec) != spec:
            raise ValueError(f"value {number} formatted two ways: {template!r}")
        if spec:
            specs[number] = spec
        fields.append(number)
        literals.append("")
    return literals, fields, specs


@lru_cache(maxsize=1024)
def html_template(template: str) -> Callable[..., SafeString]:
    """``template`` compiled: a function of its values that returns the HTML
    with each value escaped (or kept, when safe), as ``html`` would."""
    literals, fields, specs = _parse(template)
    count = max(fields, default=-1) + 1
    if set(fields) != set(range(count)):
        raise ValueError(f"values numbered with gaps: {template!r}")
    scope: dict[str, Any] = {
        "SafeString": SafeString,
        "escaped": escaped,
        "formatted": _formatted,
        "join": "".join,
    }
    lines = [f"def fill({', '.join(f'v{i}' for i in range(count))}):\n"]
    for i in range(count):
        if i in specs:
            scope[f"spec{i}"] = specs[i]
            lines.append(_CHECK_FORMATTED.format(i=i))
        else:
            lines.append(_CHECK.format(i=i))
    pieces = []
    for i, literal in enumerate(literals):
        if literal:
            scope[f"t{i}"] = literal
            pieces.append(f"t{i}")
        if i < len(fields):
            pieces.append(f"v{fields[i]}")
    if not pieces:
        pieces.append("''")
    lines.append(f"    return SafeString(join(({', '.join(pieces)},)))\n")
    # The source is built above from positions only (see _CHECK); the
    # template's text is passed in ``scope`` as values, never as code.
    exec(compile("".join(lines), f"<html template {template[:40]!r}>", "exec"), scope)  # noqa: S102
    fill = scope["fill"]
    fill.__doc__ = template
    return fill


def content_lines(text: str) -> list[SafeString]:
    """``text`` escaped for an element's content in one pass, then split at its
    newlines, each line safe: for a long text shown line by line (a
    transcript), where a pass per line would cost several times the one.

    Only ``&<>`` are escaped, as ``html.escape(text, quote=False)`` does:
    enough inside an element, where quotes mean nothing, and the JSON lines
    of a transcript are full of them (escaping them made its page 6% larger
    and 20% slower). Never put these lines in an attribute: ``html`` escapes
    what goes there."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return [SafeString(line) for line in text.split("\n")]


def html(template: str, *values: Any) -> SafeString:
    """``template`` (trusted markup with ``{}`` fields) filled with ``values``, escaped."""
    return html_template(template)(*values)


def html_join(pieces: Iterable[Any], sep: str = "") -> SafeString:
    """The pieces joined by ``sep`` (trusted markup); each piece not already
    safe is escaped."""
    pieces = pieces if isinstance(pieces, list) else list(pieces)
    # The usual case, every piece safe, checked in one C-level pass.
    if _SAFE.issuperset(map(type, pieces)):
        return SafeString(sep.join(pieces))
    return SafeString(sep.join([p if type(p) is SafeString else escaped(p) for p in pieces]))
