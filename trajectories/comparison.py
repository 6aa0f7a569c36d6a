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
    a: Sequence[Hashable], b: Sequence[Hashable], *, max_cells: int
) -> list[tuple[int | None, int | None]]:
    """Align two sequences along a longest common subsequence.

    Returns rows ``(i, j)`` in order: both set where the items match, one of
    them None where only one side has a step. The common prefix and suffix are
    taken first; the middle is solved exactly by dynamic programming when it
    has at most ``max_cells`` cells, else by difflib's matching blocks (an
    approximation that stays fast on trajectories of tens of thousands of steps).
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
