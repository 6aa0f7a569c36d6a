"""Release timestamps are RFC 3339 date-times with a zone, real dates and clock times."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from formats.v1.schema_base import Timestamp

TIMESTAMP = TypeAdapter(Timestamp)


@pytest.mark.parametrize(
    "value",
    [
        "2026-01-31T09:30:00Z",
        "2026-01-31t09:30:00z",
        "2024-02-29T23:59:59.123456Z",
        "2026-12-31T23:59:60Z",  # a leap second
        "2026-06-01T00:00:00+02:00",
        "2026-06-01T00:00:00-23:59",
    ],
)
def test_it_takes_an_rfc3339_timestamp(value):
    assert TIMESTAMP.validate_python(value) == value


@pytest.mark.parametrize(
    "value",
    [
        "2026-02-30T09:30:00Z",  # no such day
        "2025-02-29T09:30:00Z",  # not a leap year
        "2026-13-01T09:30:00Z",
        "2026-01-31T24:00:00Z",
        "2026-01-31T09:60:00Z",
        "2026-01-31T09:30:61Z",
        "2026-01-31T09:30:00+24:00",
        "2026-01-31T09:30:00+02:60",
        "2026-01-31T09:30:00",  # no zone
        "2026-01-31 09:30:00Z",
        "2026-01-31",
        "20260131T093000Z",
    ],
)
def test_it_refuses_what_is_not_one(value):
    with pytest.raises(ValidationError, match="is not an RFC 3339 timestamp"):
        TIMESTAMP.validate_python(value)
