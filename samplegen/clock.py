"""The synthetic release's calendar: epoch milliseconds and ISO-8601 stamps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
FIRST_RELEASE = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def iso(ms: int, *, millis: bool = True) -> str:
    stamp = (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{stamp}.{ms % 1000:03d}Z" if millis else f"{stamp}Z"


def epoch_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)
