"""Compare two release folders the way the format defines equality."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

TOLERANCE = 1e-9

# Keys the site adds to a derived document it rebuilds (docs/statistics.md):
# leaderboard rows gain their rank range, the published figure and whether it
# is all the row has, and on pass-fail benches the trial counts, pass@k and
# pass^k. They may be only in the second (rebuilt) document, nowhere else.
ADDED_KEYS = {
    "leaderboard.json": frozenset(
        {"rank_low", "rank_high", "pass_at_k", "pass_hat_k", "published_score", "published_only"}
        | {"passed", "trials"}
    )
}


def json_differences(
    a: Any, b: Any, path: str = "", added: frozenset[str] = frozenset()
) -> list[str]:
    """Where two JSON values differ: same keys, same array order, same strings,
    numbers within 1e-9 (a bool is never a number). Keys in ``added`` may be
    in ``b`` alone."""
    if isinstance(a, bool) or isinstance(b, bool):
        return [] if a is b else [f"{path or '.'}: {a!r} != {b!r}"]
    if isinstance(a, int | float) and isinstance(b, int | float):
        if math.isclose(a, b, rel_tol=0.0, abs_tol=TOLERANCE):
            return []
        return [f"{path or '.'}: {a!r} != {b!r}"]
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            if key not in a and key in added:
                continue
            if key not in a or key not in b:
                found.append(f"{path}.{key}: only in {'second' if key not in a else 'first'}")
            else:
                found += json_differences(a[key], b[key], f"{path}.{key}", added)
        return found
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path or '.'}: {len(a)} items != {len(b)} items"]
        found = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found += json_differences(x, y, f"{path}[{i}]", added)
        return found
    if type(a) is not type(b) or a != b:
        return [f"{path or '.'}: {a!r:.80} != {b!r:.80}"]
    return []


def release_differences(first: Path, second: Path) -> list[str]:
    """Every difference between two release folders (empty: the same release)."""
    names_a = {p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file()}
    names_b = {p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file()}
    found = [f"{n}: only in first" for n in sorted(names_a - names_b)]
    found += [f"{n}: only in second" for n in sorted(names_b - names_a)]
    for name in sorted(names_a & names_b):
        data_a, data_b = (first / name).read_bytes(), (second / name).read_bytes()
        if name.endswith(".json"):
            added = ADDED_KEYS.get(name, frozenset())
            found += [
                f"{name}: {d}"
                for d in json_differences(json.loads(data_a), json.loads(data_b), added=added)
            ]
        elif data_a != data_b:
            found.append(f"{name}: bytes differ")
    return found
