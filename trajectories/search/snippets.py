"""Snippets of matching events: cut in the database, escaped, then highlighted.

The database cuts a window around the first hit (a 5 MB output is never
loaded). Highlighting runs on the *escaped* text, never on the raw text, and
skips HTML entities, so no query can bring a character of an event back
unescaped (or split ``&lt;`` into a visible ``&``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import F, Func, IntegerField, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Greatest, Lower, StrIndex, Substr
from django.utils.safestring import SafeString

from core.html import html, html_join
from trajectories.render.text import visible

# The event fields a snippet may come from, in the order they are preferred.
FIELDS = ("output", "text", "input")


def snippet_window() -> tuple[int, int]:
    """Characters shown before a hit, and a snippet's length (both searches)."""
    limits = settings.BENCHVIEW_LIMITS
    return limits["search_snippet_before_chars"], limits["search_snippet_chars"]


def annotations(needle: str | None) -> dict:
    """Database expressions giving, per field, the window around the first
    occurrence of ``needle`` (``<field>_snippet``), where it starts and where
    ``needle`` is (``_start``, ``_hit``: 0 when absent). Without a needle,
    each field's beginning."""
    before, length = snippet_window()
    found = {}
    for name in FIELDS:
        source = KT("doc__input") if name == "input" else F(name)
        if not needle:
            found[f"{name}_snippet"] = Substr(source, 1, length, output_field=TextField())
            continue
        hit = _position(source, needle)
        start = Greatest(hit - before, Value(1), output_field=IntegerField())
        found[f"{name}_hit"] = hit
        found[f"{name}_start"] = start
        found[f"{name}_snippet"] = Substr(source, start, length, output_field=TextField())
    return found


# ASCII punctuation: escaped in a PostgreSQL regular expression to stand for itself.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def _position(source, needle: str) -> Func:
    """Where ``needle`` first occurs in ``source``, any case (1-based, 0: absent).
    PostgreSQL finds it with a case-blind regular expression, which reads the
    text once; lower() would first copy the whole text (2.6 s for 40 MB)."""
    if connection.vendor == "postgresql":
        pattern = _PUNCTUATION.sub(r"\\\1", needle)
        return Func(
            source,
            Value(pattern),
            Value(1),
            Value(1),
            Value(0),
            Value("i"),
            function="regexp_instr",
            output_field=IntegerField(),
        )
    return StrIndex(Lower(source), Lower(Value(needle)))


@dataclass(frozen=True)
class Snippet:
    field: str
    html: SafeString  # escaped, with <mark> around the query's words
    plain: str  # the same text unescaped, for downloads
    cut_before: bool


def pick(row: dict, words: list[str], *, prefix: bool = False) -> Snippet | None:
    """The snippet of a row annotated by ``annotations``: the first field with a
    hit, else the first field with any text (``prefix``: see ``highlight``)."""
    chosen = next((f for f in FIELDS if row.get(f"{f}_hit")), None)
    if chosen is None:
        chosen = next((f for f in FIELDS if row.get(f"{f}_snippet")), None)
    if chosen is None:
        return None
    plain = row[f"{chosen}_snippet"]
    return Snippet(
        field=chosen,
        html=highlight(plain, words, prefix=prefix),
        plain=plain,
        cut_before=(row.get(f"{chosen}_start") or 1) > 1,
    )


def highlight(raw: str, words: list[str], *, prefix: bool = False) -> SafeString:
    """``raw`` escaped, each whole occurrence of ``words`` (any case) in <mark>;
    with ``prefix``, also where one begins a longer word (the part it matched)."""
    text = visible(raw)
    if not words:
        return html("{}", text)
    end = "" if prefix else r"(?![^\W_])"
    pattern = re.compile(
        r"(?<![^\W_])(" + "|".join(re.escape(w) for w in words) + r")" + end, re.IGNORECASE
    )
    # split keeps the matches at the odd places: text, match, text, ...
    pieces = pattern.split(text)
    return html_join(html("<mark>{}</mark>", p) if i % 2 else p for i, p in enumerate(pieces))
