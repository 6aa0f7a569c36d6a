"""The compare page's aligned steps: aligned once per pair, shown a page at a time.

Aligning two long trajectories costs seconds (two 100,000-event attempts of
the sample generator, 54,339 and 1,650 tool calls: reading them about 5 s,
normalising every call about 3 s, the exact bit-parallel LCS under 1 s where
difflib's approximation took 7 s), and a reader pages through the result.
So the alignment is kept in the cache as rows of event indexes (A's and
B's, -1 where a side has no step), with each side's working directories by
event, keyed by both attempts, their event counts and the site's generation
(raised by every import and publish, so an entry never outlives the events
it aligned). A later page reads only its own
rows' events (one query) and normalises only those.
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q

from core import jsonsafe
from leaderboard.models import Attempt, Generation
from trajectories import comparison, queries
from trajectories.models import Event
from trajectories.render.text import cut, visible

NONE = -1  # no step on this side of the row


@dataclass
class Alignment:
    """Aligned rows as event indexes, and each side's (event index, cwd) changes."""

    a: array  # A's event index per row, NONE where only B has a step
    b: array
    cwd_a: list[tuple[int, str]]
    cwd_b: list[tuple[int, str]]
    matched: int
    diverges_at: int | None

    def __len__(self) -> int:
        return len(self.a)


def _key(a: Attempt, b: Attempt) -> str:
    limits = settings.BENCHVIEW_LIMITS
    bounds = f"{limits['compare_align_max_cells']}.{limits['compare_align_max_bits']}"
    sizes = f"{a.evidence.events_total}.{b.evidence.events_total}"
    return f"compare:{Generation.objects.current()}:{a.pk}.{b.pk}:{sizes}:{bounds}"


def aligned(a: Attempt, b: Attempt) -> tuple[Alignment, dict | None]:
    """The pair's alignment (cached); on a miss also the steps it was made
    from, by side and event index, so the first page needs no second read."""
    key = _key(a, b)
    found = cache.get(key)
    if found is not None:
        return found, None
    calls = queries.tool_calls([a, b])
    steps_a, cwd_a = steps(calls[a.pk])
    steps_b, cwd_b = steps(calls[b.pk])
    pairs = comparison.lcs_pairs(
        [s["key"] for s in steps_a],
        [s["key"] for s in steps_b],
        max_cells=settings.BENCHVIEW_LIMITS["compare_align_max_cells"],
        max_bits=settings.BENCHVIEW_LIMITS["compare_align_max_bits"],
    )
    alignment = Alignment(
        a=array("q", (NONE if i is None else steps_a[i]["index"] for i, _ in pairs)),
        b=array("q", (NONE if j is None else steps_b[j]["index"] for _, j in pairs)),
        cwd_a=cwd_a,
        cwd_b=cwd_b,
        matched=sum(1 for i, j in pairs if i is not None and j is not None),
        diverges_at=next((k for k, (i, j) in enumerate(pairs) if i is None or j is None), None),
    )
    cache.set(key, alignment, settings.BENCHVIEW_LIMITS["compare_align_cache_seconds"])
    by_index = {"a": {s["index"]: s for s in steps_a}, "b": {s["index"]: s for s in steps_b}}
    return alignment, by_index


def page_rows(
    a: Attempt, b: Attempt, alignment: Alignment, fresh: dict | None, start: int, count: int
) -> list[tuple[int, dict | None, dict | None]]:
    """Rows ``start`` to ``start + count``: (row number, A's step, B's step)."""
    rows = range(start, min(start + count, len(alignment)))
    if fresh is None:  # from the cache: read and normalise this page's calls only (one query)
        fresh = _page_steps(
            {
                "a": (a, [alignment.a[k] for k in rows], alignment.cwd_a),
                "b": (b, [alignment.b[k] for k in rows], alignment.cwd_b),
            }
        )

    def step(side: str, index: int) -> dict | None:
        return None if index == NONE else fresh[side][index]

    return [(k, step("a", alignment.a[k]), step("b", alignment.b[k])) for k in rows]


def _page_steps(sides: dict[str, tuple[Attempt, list[int], list[tuple[int, str]]]]) -> dict:
    wanted = Q(pk__in=[])
    for attempt, indexes, _ in sides.values():
        wanted |= Q(attempt=attempt, index__in=[i for i in indexes if i != NONE])
    rows = Event.objects.filter(wanted).values(
        "attempt_id", "index", "type", "tool", "ok", "exit_code", "doc"
    )
    side_of = {attempt.pk: side for side, (attempt, _, _) in sides.items()}
    starts = {side: [i for i, _ in cwds] for side, (_, _, cwds) in sides.items()}
    found: dict[str, dict] = {side: {} for side in sides}
    for row in rows:
        side = side_of[row["attempt_id"]]
        at = bisect.bisect_left(starts[side], row["index"])
        cwd = sides[side][2][at - 1][1] if at else ""
        found[side][row["index"]] = _step(row, jsonsafe.unpack(row["doc"]), cwd)
    return found


def steps(rows: list[dict]) -> tuple[list[dict], list[tuple[int, str]]]:
    """Tool calls as alignment steps, paths taken relative to the session's
    cwd; and where the cwd changed (event index, cwd)."""
    out, cwds, cwd = [], [], ""
    for row in rows:
        doc = jsonsafe.unpack(row["doc"])
        if row["type"] == "system":
            if isinstance(doc.get("cwd"), str) and doc["cwd"] != cwd:
                cwd = doc["cwd"]
                cwds.append((row["index"], cwd))
        else:
            out.append(_step(row, doc, cwd))
    return out, cwds


def _step(row: dict, doc: dict, cwd: str) -> dict:
    kind, subject = comparison.normalised_step(row["tool"], doc.get("input"), cwd)
    shown, was_cut = cut(visible(subject), settings.BENCHVIEW_LIMITS["compare_step_chars"])
    result = doc.get("result")
    return {
        "key": (kind, subject),
        "index": row["index"],
        "tool": row["tool"],
        "subject": shown,
        "cut": was_cut,
        "ok": row["ok"],
        "returned": isinstance(result, dict),
    }
