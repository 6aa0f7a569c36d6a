"""One large JSON document read a value at a time.

``orjson.loads`` of a 30 MB Inspect sample builds every object at once (the
model events' repeated tool lists and outputs included): hundreds of MiB for
a moment. ``Document`` instead finds the top-level keys, keeps the small
values, and lets a caller walk a large array's items one by one, each built,
used and dropped (``json``'s C scanner, item by item). So a reader's memory
is the text plus what it keeps, whatever the document's length.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from typing import Any


def _no_constant(name: str) -> Any:
    # NaN and Infinity are no JSON (orjson, and Inspect's writer, refuse them).
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_SPACE = re.compile(r"[ \t\n\r]*")


class NotAnObject(ValueError):
    """The text is no JSON object (or breaks off)."""


def _space(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()


def walk_array(text: str, pos: int, visit: Callable[[Any], None]) -> int:
    """Call ``visit`` with each item of the array at ``pos``; the position after it."""
    if text[pos : pos + 1] != "[":
        raise NotAnObject(f"expected an array at {pos}")
    pos = _space(text, pos + 1)
    if text[pos : pos + 1] == "]":
        return pos + 1
    while True:
        item, pos = _DECODER.raw_decode(text, pos)
        visit(item)
        pos = _space(text, pos)
        mark = text[pos : pos + 1]
        if mark == "]":
            return pos + 1
        if mark != ",":
            raise NotAnObject(f"expected , or ] at {pos}")
        pos = _space(text, pos + 1)


def _skip(item: Any) -> None:
    return None


class Document:
    """A JSON object's top level: ``values`` of its small keys, and where each
    of its ``large`` arrays starts (``arrays``), to walk later."""

    def __init__(self, text: str, large: Collection[str]):
        self.text = text
        self.values: dict[str, Any] = {}
        self.arrays: dict[str, int] = {}
        try:
            self._read(large)
        except (ValueError, IndexError, RecursionError) as exc:
            raise NotAnObject(str(exc)) from None

    def _read(self, large: Collection[str]) -> None:
        text = self.text
        pos = _space(text, 0)
        if text[pos : pos + 1] != "{":
            raise NotAnObject("not an object")
        pos = _space(text, pos + 1)
        if text[pos : pos + 1] == "}":
            return
        while True:
            key, pos = _DECODER.raw_decode(text, pos)
            if not isinstance(key, str):
                raise NotAnObject(f"a key that is no string at {pos}")
            pos = _space(text, pos)
            if text[pos : pos + 1] != ":":
                raise NotAnObject(f"expected : at {pos}")
            pos = _space(text, pos + 1)
            if key in large and text[pos : pos + 1] == "[":
                self.arrays[key] = pos
                self.values.pop(key, None)
                pos = walk_array(text, pos, _skip)
            else:
                value, pos = _DECODER.raw_decode(text, pos)
                self.values[key] = value
                self.arrays.pop(key, None)
            pos = _space(text, pos)
            mark = text[pos : pos + 1]
            if mark == "}":
                if text[_space(text, pos + 1) :]:
                    raise NotAnObject("text after the object")
                return
            if mark != ",":
                raise NotAnObject(f"expected , or }} at {pos}")
            pos = _space(text, pos + 1)

    def walk(self, key: str, visit: Callable[[Any], None]) -> bool:
        """Visit each item of the large array ``key``; False when there is none."""
        if key not in self.arrays:
            return False
        try:
            walk_array(self.text, self.arrays[key], visit)
        except (ValueError, IndexError, RecursionError) as exc:
            raise NotAnObject(str(exc)) from None
        return True
