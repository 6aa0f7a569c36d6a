"""Where ``benchview view`` keeps a set of paths' database, and whether it is current.

One folder per set of paths under ``$XDG_CACHE_HOME/benchview`` (default
``~/.cache/benchview``), named after the paths' absolute names. Its
``fingerprint`` file holds a digest of the inputs' names, sizes and
modification times (and this version of benchview): equal means the database
already holds them, so ``view`` serves at once without importing.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

FINGERPRINT = "fingerprint"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "benchview"


def cache_dir(paths: Iterable[Path]) -> Path:
    """The folder for this set of paths (order and repeats do not matter)."""
    names = sorted({str(p.resolve()) for p in paths})
    key = hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]
    return cache_root() / key


def _version() -> str:
    try:
        return metadata.version("benchview")
    except metadata.PackageNotFoundError:
        return "source"


def fingerprint(paths: Iterable[Path]) -> str:
    """A digest of every input file's name, size and mtime (a walk, no reads)."""
    digest = hashlib.sha256(f"benchview {_version()}\n".encode())
    for root in sorted({p.resolve() for p in paths}):
        for path in _files(root):
            stat = path.stat()
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _files(root: Path) -> list[Path]:
    if not root.is_dir():
        return [root]
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        found.extend(Path(folder) / name for name in sorted(files))
    return found


def is_current(folder: Path, digest: str) -> bool:
    try:
        return (folder / FINGERPRINT).read_text().strip() == digest
    except OSError:
        return False


def remember(folder: Path, digest: str) -> None:
    (folder / FINGERPRINT).write_text(digest + "\n")
