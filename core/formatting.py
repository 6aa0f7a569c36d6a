"""How numbers read on every page and in every report: one place, so they agree
("0.573", "$5.94", "6m 52s"). Each kind of figure has one function here; the
template filters (``board``, ``attempt_tags``) register these under the same names.
Site-level (core), so every app may import it."""

from __future__ import annotations

from formats.v1.documents import DASH, model_rate  # noqa: F401 (a figure of the documents, shown on the pages)


def score(value: float | None, percent: bool = False) -> str:
    """0.5731 -> "0.573", or "57.3%" for pass-fail benches."""
    if value is None:
        return DASH
    return f"{value * 100:.1f}%" if percent else f"{value:.3f}"


def reward(value: float | None) -> str:
    """A verifier's reward as it would be written: 1.0 -> "1", 0.25 -> "0.25"."""
    return "none" if value is None else f"{value:g}"


def figure(value: float | None) -> str:
    """A count or a mean as a report gives it: 16.0 -> "16", 0.88235 -> "0.8824"."""
    if value is not None and float(value).is_integer():
        return str(int(value))
    return score_exact(value)


def score_exact(value: float | None) -> str:
    """A score to four places without trailing zeros, for import reports:
    0.57314 -> "0.5731", 0.5 -> "0.5", 1 -> "1.0"; None -> "-" (plain text)."""
    if value is None:
        return "-"
    return f"{value:.4f}".rstrip("0").rstrip(".") if value not in (0, 1) else f"{value:.1f}"


def score_tick(value: float, percent: bool = False) -> str:
    """A score axis label: 0.25 -> "0.25", or "25%" for pass-fail benches."""
    return f"{value * 100:.0f}%" if percent else f"{value:.2f}"


def pass_rate(passed: int, total: int) -> str:
    """15 of 44 -> "34.1% (15/44)"; nothing to count -> a dash."""
    if not total:
        return DASH
    return f"{passed / total * 100:.1f}% ({passed}/{total})"


def rank_range(low: int | None, high: int | None, rank: int) -> str:
    """A rank range: "1" when certain, "2–5" when not; the plain rank without one."""
    if low is None or high is None:
        return str(rank)
    return str(low) if low == high else f"{low}–{high}"


def signed(value: float | None, percent: bool = False) -> str:
    """A difference of scores: 0.031 -> "+0.031", -0.2 -> "−0.200" (points for pass rates)."""
    if value is None:
        return DASH
    if abs(value) < 5e-13:
        value = 0.0
    text = f"{abs(value) * 100:.1f} pt" if percent else f"{abs(value):.3f}"
    return f"−{text}" if value < 0 else f"+{text}"


def signed_exact(delta: float) -> str:
    """A score change to four places, for import previews: "+0.0312", "−0.2000",
    and "±0" for a change too small to show."""
    return "±0" if abs(delta) < 5e-5 else f"{delta:+.4f}".replace("-", "−")


def usd(value: float | None) -> str:
    return DASH if value is None else f"${value:,.2f}"


def cost(value: float | None) -> str:
    """An attempt's cost: "$2.31", or "unknown" when the harness reported none
    (never "$0.00")."""
    return "unknown" if value is None else usd(value)


def cost_sum(value: float | None, unknown: int = 0) -> str:
    """A sum of costs: "$12.30", "$12.30 + 3 unknown" when some attempts reported
    none, "unknown" when none did (never "$0.00")."""
    if value is None:
        return "unknown"
    return f"{usd(value)} + {unknown} unknown" if unknown else usd(value)


def usd_tick(value: float) -> str:
    """A cost axis label, short: 150 -> "$150", 2.5 -> "$2.5", 0 -> "$0"."""
    return f"${value:,.0f}" if value >= 100 else f"${value:,.2f}".rstrip("0").rstrip(".")


def count(value: int | None) -> str:
    """812344 -> "812,344"."""
    return DASH if value is None else f"{value:,}"


def count_capped(value: int, capped: bool) -> str:
    """A count that stopped at a cap: 10000 -> "10,000+" when the true figure is larger."""
    return f"{value:,}+" if capped else f"{value:,}"


def plural(n: int, word: str) -> str:
    """1 -> "1 task", 3 -> "3 tasks" (words whose plural adds an s)."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def chars(value: int | None) -> str:
    """A length in characters, short: 1234 -> "1.2k", 5242880 -> "5.2M"."""
    if value is None:
        return DASH
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 1_000:
        return f"{value / 1_000:.1f}k"
    return str(value)


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


def elapsed(seconds: float | None) -> str:
    """A measured run time, to a tenth of a second: 12.34 -> "12.3 s"."""
    return DASH if seconds is None else f"{seconds:.1f} s"


def offset(seconds: float) -> str:
    """Time since a run's start, as a clock: 65 -> "+1:05", 3725 -> "+1:02:05"."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"+{hours}:{minutes:02d}:{secs:02d}" if hours else f"+{minutes}:{secs:02d}"


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
