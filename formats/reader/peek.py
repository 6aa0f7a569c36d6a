"""A quick look at what a folder or archive holds, for adapters' ``detect``.

Only names are listed, nothing is unpacked or trusted: the safe reader
(``open_release``, ``open_tree``) checks everything when the source is
opened. A folder is told from an archive by its first bytes, never by its
name's suffix.
"""

from __future__ import annotations

import os
import stat
import tarfile
import zipfile
from pathlib import Path

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_GZIP_MAGIC = b"\x1f\x8b"


def peek_names(path: Path, *, depth: int | None = None) -> list[str] | None:
    """The relative names (files and folders, "/"-separated) under ``path``
    down to ``depth`` levels (None: all), or None if it is neither a folder
    nor a .zip or .tar.gz that can be listed. Links are listed, not followed."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return _walk(Path(path), depth)
    if not stat.S_ISREG(mode):
        return None
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
        if head.startswith(_ZIP_MAGIC):
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
        elif head.startswith(_GZIP_MAGIC):
            with tarfile.open(path, "r:gz") as archive:
                names = [member.name for member in archive]
        else:
            return None
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError):
        return None  # the safe reader says why, if it is opened
    clean = [name.removeprefix("./").rstrip("/") for name in names]
    return [n for n in clean if n and (depth is None or n.count("/") < depth)]


def _walk(root: Path, depth: int | None) -> list[str]:
    found: list[str] = []
    pending = [("", 0)]
    while pending:
        folder, level = pending.pop()
        try:
            with os.scandir(root / folder if folder else root) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            name = f"{folder}/{entry.name}" if folder else entry.name
            found.append(name)
            if entry.is_dir(follow_symlinks=False) and (depth is None or level + 1 < depth):
                pending.append((name, level + 1))
    return found
