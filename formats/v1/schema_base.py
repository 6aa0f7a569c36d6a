"""What the typed documents of release format v1 share (``formats.v1.schema`` and
``formats.v1.event_schema``): the base model, the scalar types, and validation
errors as (JSON path, message) pairs."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import Annotated, Any

from django.conf import settings
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from formats.v1 import sizes


class Doc(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


# What a release may hold is what every database stores alike, so SQLite and
# PostgreSQL accept and refuse the same releases. Integer columns take the
# portable ranges (formats.v1.sizes: PostgreSQL's; SQLite's are wider);
# strings for a column are at most its size and hold no NUL (PostgreSQL
# refuses it in text; JSON fields keep one, see core.jsonsafe).


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("holds a NUL character (U+0000)")
    return value


# A string kept in a JSON column as it is (flags, vendors): no NUL either.
Label = Annotated[str, AfterValidator(_no_nul)]


def column_text(length: int) -> Any:
    """A string that fits a column of ``length`` characters (``formats.v1.sizes``)."""
    return Annotated[str, StringConstraints(max_length=length), AfterValidator(_no_nul)]


def column_int(bounds: tuple[int, int]) -> Any:
    """An integer that fits a column of ``bounds`` (``formats.v1.sizes``) on every database."""
    low, high = bounds
    return Annotated[int, Field(ge=low, le=high)]


# Every number: finite and within BENCHVIEW_LIMITS["number_max_abs"], so sums
# over a bench (costs, durations) stay finite too.
NUMBER_MAX_ABS = settings.BENCHVIEW_LIMITS["number_max_abs"]
Number = Annotated[float, Field(allow_inf_nan=False, ge=-NUMBER_MAX_ABS, le=NUMBER_MAX_ABS)]
# An integer kept only inside JSON (counts, token figures): 64 bits.
Integer = Annotated[int, Field(ge=sizes.BIG_INT[0], le=sizes.BIG_INT[1])]

# The clock's fields are checked by the pattern (a leap second, :60, is RFC
# 3339), the date by ``_real_date``: every event has a timestamp, and most of
# a release's share a few dates.
_RFC3339 = re.compile(
    r"(\d{4}-\d{2}-\d{2})[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?"
    r"(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)"
)


@lru_cache(maxsize=1024)
def _real_date(day: str) -> bool:
    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True


def _rfc3339(value: str) -> str:
    match = _RFC3339.fullmatch(value)
    if match is None or not _real_date(match.group(1)):
        raise ValueError(f"{value[:80]!r} is not an RFC 3339 timestamp (2026-01-31T09:30:00Z)")
    return value


Timestamp = Annotated[
    str,
    StringConstraints(max_length=sizes.RELEASED_AT),
    AfterValidator(_rfc3339),
]


_MESSAGES = {
    "bool_type": "expected a boolean",
    "string_type": "expected a string",
    "int_type": "expected an integer",
    "int_from_float": "expected an integer",
    "float_type": "expected a number",
    "list_type": "expected an array",
    "dict_type": "expected an object",
    "model_type": "expected an object",
    "model_attributes_type": "expected an object",
    "missing": "required field is missing",
    "extra_forbidden": "unexpected field",
}


def json_path(loc: tuple[Any, ...]) -> str:
    """('checks', 3, 'passed') -> 'checks[3].passed'."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            name = "schema" if part == "schema_" else str(part)
            path += f".{name}" if path else name
    return path or "(document)"


def describe(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind == "literal_error":
        return f"expected {error['ctx']['expected']}, got {error['input']!r}"[:200]
    if kind == "value_error":
        return str(error["ctx"]["error"])
    return _MESSAGES.get(kind, error["msg"])


def errors_of(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """(JSON path, message) pairs of a validation error, in document order."""
    return [(json_path(prefix + tuple(e["loc"])), describe(e)) for e in exc.errors()]
