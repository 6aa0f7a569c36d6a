"""Which trajectory belongs to which instance.

``trajs/`` holds one file per instance, named after it (``<id>.traj``,
``<id>.traj.json``, ``<id>.json``, ``<id>/<id>.traj``, …), or OpenHands'
``output.jsonl``: a line per instance, each naming its ``instance_id``. The
file's format is left to the transcript normalisers, which tell it by content.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

TRAJS = "trajs/"
OUTPUT = "output.jsonl"
_SUFFIXES = (".traj.json", ".traj", ".json", ".jsonl", ".log", ".txt", ".md")


@dataclass(frozen=True)
class TrajRef:
    name: str  # the file in the tree
    line: int | None = None  # its 1-based line, in an output.jsonl

    @property
    def label(self) -> str:
        return f"{self.name} (line {self.line})" if self.line else self.name


def _stem(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    for suffix in _SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


def output_lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def find_trajectories(
    names: list[str], prefix: str, read, instances: set[str], problems: list[str], notes: list[str]
) -> dict[str, TrajRef]:
    """Instance id → its trajectory, for the files of the submission at ``prefix``."""
    found: dict[str, TrajRef] = {}
    outputs = [n for n in names if n.startswith(prefix) and n.rsplit("/", 1)[-1] == OUTPUT]
    files = [n for n in names if n.startswith(prefix + TRAJS) and n not in outputs]
    for name in sorted(files):
        stem = _stem(name)
        parent = name[len(prefix + TRAJS) :].split("/", 1)[0]
        ident = stem if stem in instances else parent if parent in instances else None
        if ident is None:
            continue
        if ident in found:
            notes.append(f"{name}: a second trajectory of {ident}; {found[ident].name} is used")
            continue
        found[ident] = TrajRef(name)
    for name in sorted(outputs):
        for number, raw in enumerate(output_lines(read(name)), 1):
            if not raw.strip():
                continue
            try:
                obj = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                problems.append(f"{name}: line {number}: not JSON ({exc})")
                continue
            ident = obj.get("instance_id") if isinstance(obj, dict) else None
            if not isinstance(ident, str):
                problems.append(f"{name}: line {number}: instance_id: expected a string")
                continue
            if ident not in instances:
                notes.append(f"{name}: line {number}: {ident} has no result; not imported")
                continue
            if ident in found:
                notes.append(
                    f"{name}: line {number}: a second trajectory of {ident}; the first is used"
                )
                continue
            found[ident] = TrajRef(name, number)
    return found
