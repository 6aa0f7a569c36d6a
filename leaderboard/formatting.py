"""How numbers read on every page: one place, so pages agree ("0.573", "$5.94", "6m 52s")."""

from __future__ import annotations

DASH = "–"


def score(value: float | None, percent: bool = False) -> str:
    """0.5731 -> "0.573", or "57.3%" for pass-fail benches."""
    if value is None:
        return DASH
    return f"{value * 100:.1f}%" if percent else f"{value:.3f}"


def pass_rate(passed: int, total: int) -> str:
    """15 of 44 -> "34.1% (15/44)"; nothing to count -> a dash."""
    if not total:
        return DASH
    return f"{passed / total * 100:.1f}% ({passed}/{total})"


def usd(value: float | None) -> str:
    return DASH if value is None else f"${value:,.2f}"


def cost(value: float | None) -> str:
    """An attempt's cost: "$2.31", or "unknown" when the harness reported none
    (never "$0.00")."""
    return "unknown" if value is None else usd(value)


def count(value: int | None) -> str:
    """812344 -> "812,344"."""
    return DASH if value is None else f"{value:,}"


def duration(seconds: float | None) -> str:
    """412.5 -> "6m 52s"; 11533 -> "3h 12m"."""
    if seconds is None:
        return DASH
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


_BINARY_UNITS = ("KiB", "MiB", "GiB", "TiB")


def size(value: int | None) -> str:
    """2000000 -> "2,000,000 bytes (1.9 MiB)": the exact figure, then a readable one."""
    if value is None:
        return DASH
    exact = f"{value:,} byte" + ("" if value == 1 else "s")
    scaled, unit = float(value), None
    for candidate in _BINARY_UNITS:
        if scaled < 1024:
            break
        scaled, unit = scaled / 1024, candidate
    return exact if unit is None else f"{exact} ({scaled:.1f} {unit})"
