"""Decode one JSON document of a release, refusing what no page could store or show.

Refused, with the JSON path where it is: nesting deeper than the
``json_max_depth`` limit (at most ``MAX_DEPTH``: orjson, which writes events
and requests, stops there), a key given
twice in one object (which of the two would count?), a lone UTF-16 surrogate
(not Unicode: no database can store it), a number that is not finite
(``1e400``) and an integer beyond 64 bits.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson
from django.conf import settings

INT_MIN, INT_MAX = -(2**63), 2**64 - 1  # what orjson writes
# Arrays and objects inside one another: orjson.dumps refuses a 255th level,
# so no limit can be higher.
MAX_DEPTH = 254


def max_depth() -> int:
    """The nesting allowed: the ``json_max_depth`` limit, looked up per call so
    settings overrides apply, never above ``MAX_DEPTH``."""
    return min(int(settings.BENCHVIEW_LIMITS["json_max_depth"]), MAX_DEPTH)


class JSONProblem(ValueError):
    """A document that cannot be imported; ``path`` is the JSON path, or ""."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path


def parse_json(data: bytes) -> Any:
    """Decode a JSON document; raises JSONProblem (with the position or path).

    orjson does the work (it is twice as fast as the standard library on large
    trajectories); the standard library only explains a failure, or takes the
    rare document orjson refuses (integers beyond 64 bits, lone surrogates,
    ``1e400``, very deep nesting), whose values are then checked one by one.
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit exceeded"):
            # Far too deep for any path to be worth building: say where it is.
            raise JSONProblem(
                f"{_too_deep()} (at line {exc.lineno} column {exc.colno})", "(document)"
            ) from None
        value = _loads_slowly(data)
        _check_values(value)
    try:
        # The document as orjson writes it: the test of depth, and the count of
        # its keys once repeated ones are gone.
        canonical = orjson.dumps(value)
    except orjson.JSONEncodeError:
        raise JSONProblem(_too_deep(), _path_at_depth(value, MAX_DEPTH + 1)) from None
    limit = max_depth()
    if limit < MAX_DEPTH:
        # orjson checked MAX_DEPTH for nothing; a lower limit is walked for.
        where = _container_at_depth(value, limit + 1)
        if where is not None:
            raise JSONProblem(_too_deep(limit), where)
    if _may_repeat_keys(data, canonical):
        _check_repeated_keys(data)
    return value


def _not_json(name: str) -> None:
    raise JSONProblem(f"{name} is not a JSON number")


def _loads_slowly(data: bytes, **hooks) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONProblem(f"not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_not_json, **hooks)
    except json.JSONDecodeError as exc:
        raise JSONProblem(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise JSONProblem(_too_deep()) from None


def _too_deep(limit: int = MAX_DEPTH) -> str:
    return f"nested deeper than {limit} levels"


def _child(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    # A path must print even when the key is the lone surrogate it points at.
    key = key.encode("utf-8", "backslashreplace").decode()
    return f"{path}.{key}" if path else key


def _walk(value: Any):
    """(path, value) of every value and (path, key) of every key, depth first."""
    stack = [("", value)]
    while stack:
        path, item = stack.pop()
        yield path, item
        if isinstance(item, dict):
            for key, child in item.items():
                yield _child(path, key), key
                stack.append((_child(path, key), child))
        elif isinstance(item, list):
            stack.extend((_child(path, i), child) for i, child in enumerate(item))


def _check_values(value: Any) -> None:
    """What orjson refused but the standard library took: say where it is."""
    for path, item in _walk(value):
        where = path or "(document)"
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise JSONProblem(
                    f"holds a lone surrogate (U+{ord(item[exc.start]):04X}), which is not Unicode",
                    where,
                ) from None
        elif isinstance(item, float) and not math.isfinite(item):
            raise JSONProblem("number is too large (not finite)", where)
        elif isinstance(item, int) and not INT_MIN <= item <= INT_MAX:
            raise JSONProblem("integer does not fit in 64 bits", where)


def _path_at_depth(value: Any, depth: int) -> str:
    """The path of a container at ``depth`` (only looked for once one is known)."""
    return _container_at_depth(value, depth) or "(document)"


def _container_at_depth(value: Any, depth: int) -> str | None:
    """The path of a container (array or object) at ``depth``, if there is one."""
    if not isinstance(value, (dict, list)):
        return None
    stack = [("", value, 1)]
    while stack:
        path, item, level = stack.pop()
        if level >= depth:
            return path or "(document)"
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        stack.extend(
            (_child(path, k), c, level + 1) for k, c in pairs if isinstance(c, (dict, list))
        )
    return None


_SPACED_KEY_END = re.compile(rb'"[ \t\r\n]+:')


_ESCAPED = re.compile(rb"\\u00(?:22|5[cC]|3[aA])")


def _may_repeat_keys(data: bytes, canonical: bytes) -> bool:
    """False when no object of ``data`` holds a key twice.

    ``canonical`` is the decoded document written again, where a repeated key
    is gone with its value. Every key ends in ``":``, and so does every quote
    before a colon inside a string, written ``\\":`` in both: the strings are
    the same and orjson escapes quotes and backslashes as any writer must,
    unless the file spells one as ``\\u0022``, ``\\u005c`` or ``\\u003a``, or
    puts space before a colon. Without those, each key dropped by the decoding
    makes the file's count of ``":`` larger (by one, plus what its value held),
    and equal counts mean no key was dropped; two counts at memchr speed
    instead of a walk of the decoded document. Otherwise the exact (slow)
    check decides.
    """
    if _SPACED_KEY_END.search(data) or _ESCAPED.search(data):
        return True
    return data.count(b'":') != canonical.count(b'":')


class _Pairs(dict):
    repeated: str | None = None


def _pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    found = _Pairs(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        found.repeated = next(k for k, _ in pairs if k in seen or seen.add(k))
    return found


def _check_repeated_keys(data: bytes) -> None:
    value = _loads_slowly(data, object_pairs_hook=_pairs)
    for path, item in _walk(value):
        if isinstance(item, _Pairs) and item.repeated is not None:
            raise JSONProblem(f"key {item.repeated!r} is given twice", _child(path, item.repeated))
