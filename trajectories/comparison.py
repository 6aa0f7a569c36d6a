"""Two attempts on one task, side by side: checks, statistics, endpoints, alignment."""

from __future__ import annotations

import difflib
import json
import re
import shlex
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from core import jsonsafe
from formats.tools import tool_family
from leaderboard.models import CheckResult

# Input keys that say what a non-shell tool acted on, most telling first.
_SUBJECT_KEYS = ("file_path", "path", "pattern", "url", "query", "filePath", "notebook_path")
_WS = re.compile(r"\s+")
# A path segment holding a digit is an identifier (…/deals/1086), unless it is a version (v3).
_VERSION = re.compile(r"^v\d+(\.\d+)*$")


# Shells whose "-c"/"-lc" script is the real command (Codex wraps every command).
_SHELLS = {"bash", "sh", "zsh"}


def _command_words(command: str | list) -> list[str]:
    if isinstance(command, list):
        words = [str(part) for part in command]
    else:
        try:
            words = shlex.split(command)
        except ValueError:
            return _WS.sub(" ", command).strip().split(" ")
    if len(words) == 3 and words[0] in _SHELLS and words[1] in ("-c", "-lc"):
        return _command_words(words[2])
    return words


def _relative(path: str, cwd: str) -> str:
    prefix = cwd.rstrip("/") + "/"
    return path[len(prefix) :] if cwd and path.startswith(prefix) else path


def normalised_step(tool: str, value: Any, cwd: str = "") -> tuple[str, str]:
    """What makes two tool calls "the same step": the tool's family and its normalised command.

    A shell command is compared word by word (whitespace, quoting and a
    ``bash -lc`` wrapper do not matter); another tool by its subject (file
    path relative to the session's ``cwd``, pattern, URL…).
    """
    kind = tool_family(tool)
    if isinstance(value, dict) and jsonsafe.RAW_KEY in value:
        value = jsonsafe.unpack(value)
    if not isinstance(value, dict):
        return kind, "" if value is None else json.dumps(value, sort_keys=True)[:500]
    command = value.get("command", value.get("cmd"))
    if isinstance(command, str | list):
        return kind, " ".join(_command_words(command))
    changes = value.get("changes")
    if isinstance(changes, list) and changes and isinstance(changes[0], dict):
        value = changes[0]
    for key in _SUBJECT_KEYS:
        if isinstance(value.get(key), str):
            return kind, _relative(value[key], cwd)
    return kind, json.dumps(value, sort_keys=True)[:500]


def lcs_pairs(
    a: Sequence[Hashable], b: Sequence[Hashable], *, max_cells: int, max_bits: int = 0
) -> list[tuple[int | None, int | None]]:
    """Align two sequences along a longest common subsequence.

    Returns rows ``(i, j)`` in order: both set where the items match, one of
    them None where only one side has a step. The common prefix and suffix are
    taken first; the middle is solved exactly by dynamic programming when it
    has at most ``max_cells`` cells, exactly by the bit-parallel algorithm when
    it has at most ``max_bits`` (its memory: one bit a cell), else by difflib's
    matching blocks (an approximation, slow when few distinct steps repeat).
    """
    n, m = len(a), len(b)
    head = 0
    while head < n and head < m and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and a[n - 1 - tail] == b[m - 1 - tail]:
        tail += 1
    mid_a, mid_b = a[head : n - tail], b[head : m - tail]
    if len(mid_a) * len(mid_b) <= max_cells:
        middle = _lcs_dp(mid_a, mid_b)
    elif len(mid_a) * len(mid_b) <= max_bits:
        middle = _lcs_bits(mid_a, mid_b)
    else:
        middle = _matching_blocks(mid_a, mid_b)
    rows: list[tuple[int | None, int | None]] = [(i, i) for i in range(head)]
    rows += [(None if i is None else i + head, None if j is None else j + head) for i, j in middle]
    rows += [(n - tail + k, m - tail + k) for k in range(tail)]
    return rows


def _lcs_dp(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int | None, int | None]]:
    n, m = len(a), len(b)
    # lengths[i][j]: LCS length of a[i:] and b[j:] (suffixes, so the walk goes forward).
    lengths = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below, item = lengths[i], lengths[i + 1], a[i]
        for j in range(m - 1, -1, -1):
            if item == b[j]:
                row[j] = below[j + 1] + 1
            else:
                row[j] = below[j] if below[j] >= row[j + 1] else row[j + 1]
    rows: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            rows.append((i, j))
            i, j = i + 1, j + 1
        elif lengths[i + 1][j] >= lengths[i][j + 1]:
            rows.append((i, None))
            i += 1
        else:
            rows.append((None, j))
            j += 1
    rows += [(k, None) for k in range(i, n)]
    rows += [(None, k) for k in range(j, m)]
    return rows


def _lcs_bits(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int | None, int | None]]:
    """The LCS by Allison and Dix's bit-parallel rows (Hyyrö's form): one
    Python integer per item of the shorter side, a bit per item of the longer,
    so a row costs a few big-integer operations instead of a loop over cells.
    Bit j of row i is 0 where the LCS of the first i items and the first j+1
    grows at j, so an LCS length is a count of zeros, read back to the start."""
    if len(a) > len(b):
        return [(i, j) for j, i in _lcs_bits(b, a)]
    n, m = len(a), len(b)
    full = (1 << m) - 1
    where: dict[Hashable, int] = {}
    for j, item in enumerate(b):
        where[item] = where.get(item, 0) | (1 << j)
    rows = [full]
    v = full
    for item in a:
        u = v & where.get(item, 0)
        v = ((v + u) | (v - u)) & full
        rows.append(v)

    size = (m + 7) // 8

    # Row -1 is only asked for once the walk has reached row 0, and not read.
    def length(i: int, j: int) -> int:  # the LCS of a[:i] and b[:j]: a count of bits
        return j - (rows[max(i, 0)] & ((1 << j) - 1)).bit_count()

    def bits(i: int) -> bytes:  # row i's bits, each read in constant time
        return rows[max(i, 0)].to_bytes(size, "little")

    # The walk back keeps the lengths at (i, j) and (i - 1, j); a step left
    # updates both from one bit each, a step up or diagonal (at most 2 n of
    # them, n the shorter side) counts the row above anew.
    out: list[tuple[int | None, int | None]] = []
    i, j = n, m
    here, above = length(i, j), length(i - 1, j)
    row, row_above = bits(i), bits(i - 1)
    while i and j:
        k = j - 1
        corner = above - 1 + ((row_above[k >> 3] >> (k & 7)) & 1)  # length(i - 1, j - 1)
        if a[i - 1] == b[k] and corner == here - 1:
            i, j, here = i - 1, k, corner
            out.append((i, j))
        elif above == here:
            i -= 1
            out.append((i, None))
        else:
            here -= 1 - ((row[k >> 3] >> (k & 7)) & 1)
            j, above = k, corner
            out.append((None, j))
            continue
        above, row, row_above = length(i - 1, j), row_above, bits(i - 1)
    out += [(k, None) for k in range(i - 1, -1, -1)]
    out += [(None, k) for k in range(j - 1, -1, -1)]
    return out[::-1]


def _matching_blocks(
    a: Sequence[Hashable], b: Sequence[Hashable]
) -> list[tuple[int | None, int | None]]:
    rows: list[tuple[int | None, int | None]] = []
    i = j = 0
    matcher = difflib.SequenceMatcher(a=list(a), b=list(b), autojunk=False)
    for block in matcher.get_matching_blocks():
        rows += [(k, None) for k in range(i, block.a)]
        rows += [(None, k) for k in range(j, block.b)]
        rows += [(block.a + k, block.b + k) for k in range(block.size)]
        i, j = block.a + block.size, block.b + block.size
    return rows


@dataclass
class AlignedRun:
    """Consecutive rows of an alignment: ``rows`` are (row number, step of A or
    None, step of B or None); ``folded`` when they are a run of one-sided rows
    long enough to fold into one row, with how many steps each side took."""

    rows: list[tuple[int, Any, Any]]
    folded: bool = False
    only_a: int = 0
    only_b: int = 0


def fold_runs(rows: list[tuple[int, Any, Any]], *, min_run: int) -> list[AlignedRun]:
    """``rows`` in runs: each run of at least ``min_run`` rows with one side
    empty folded, the rows between in runs of their own."""
    runs: list[AlignedRun] = []
    pending: list[tuple[int, Any, Any]] = []

    def close_pending() -> None:
        if len(pending) >= min_run:
            only_a = sum(1 for _, a, _ in pending if a is not None)
            runs.append(AlignedRun(list(pending), True, only_a, len(pending) - only_a))
        elif pending:
            _plain(runs, pending)
        pending.clear()

    for row in rows:
        if row[1] is None or row[2] is None:
            pending.append(row)
        else:
            close_pending()
            _plain(runs, [row])
    close_pending()
    return runs


def _plain(runs: list[AlignedRun], rows: list) -> None:
    if runs and not runs[-1].folded:
        runs[-1].rows.extend(rows)
    else:
        runs.append(AlignedRun(list(rows)))


@dataclass
class CheckRow:
    name: str
    level: str
    mandatory: bool
    a: CheckResult | None
    b: CheckResult | None

    @property
    def differs(self) -> bool:
        passed_a = None if self.a is None else self.a.passed
        passed_b = None if self.b is None else self.b.passed
        return passed_a != passed_b


def check_rows(a: list[CheckResult], b: list[CheckResult]) -> list[CheckRow]:
    """Checks of both verdicts by name; those where the two differ come first."""
    by_name_b = {r.name: r for r in b}
    rows = [CheckRow(r.name, r.level, r.mandatory, r, by_name_b.pop(r.name, None)) for r in a]
    rows += [CheckRow(r.name, r.level, r.mandatory, None, r) for r in by_name_b.values()]
    order = {name: k for k, name in enumerate(r.name for r in rows)}
    return sorted(rows, key=lambda row: (not row.differs, order[row.name]))


@dataclass
class StatRow:
    label: str
    a: Any
    b: Any

    @property
    def differs(self) -> bool:
        return self.a != self.b


def counter_rows(a: dict[str, int], b: dict[str, int]) -> list[StatRow]:
    keys = sorted(set(a) | set(b), key=lambda k: (-(a.get(k, 0) + b.get(k, 0)), k))
    return [StatRow(k, a.get(k, 0), b.get(k, 0)) for k in keys]


def endpoint(path: str) -> str:
    """A request path with its identifier segments replaced by ``{id}``."""
    parts = path.split("?", 1)[0].split("/")
    return "/".join(
        "{id}" if any(c.isdigit() for c in p) and not _VERSION.match(p) else p for p in parts
    )


@dataclass
class EndpointRow:
    vendor: str
    direction: str
    method: str
    path: str
    a: int
    b: int

    @property
    def differs(self) -> bool:
        return self.a != self.b


def endpoint_rows(a: Counter, b: Counter) -> list[EndpointRow]:
    """Endpoints each attempt called, with counts; keys are (vendor, direction, method, path)."""

    def by_endpoint(counts: Counter) -> Counter:
        out: Counter = Counter()
        for (vendor, direction, method, path), count in counts.items():
            out[(vendor, direction, method, endpoint(path))] += count
        return out

    ea, eb = by_endpoint(a), by_endpoint(b)
    keys = sorted(set(ea) | set(eb))
    return [EndpointRow(*key, ea.get(key, 0), eb.get(key, 0)) for key in keys]
