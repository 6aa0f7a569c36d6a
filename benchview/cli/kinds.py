"""What a path given to ``benchview import``/``view``/``check`` is, told by content.

``release``: a folder or archive with ``manifest.json`` at its root (release
format v1). ``harbor``: any other folder or archive (Harbor jobs, a job, a
trial, Terminal-Bench runs or any registered format: import_results tells
them apart by content and names what it looked for). ``transcript``: a single
file that is not an archive (a raw Claude Code, Codex or OpenCode transcript,
or ATIF).
"""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

RELEASE, HARBOR, TRANSCRIPT = "release", "harbor", "transcript"
_ARCHIVE_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"\x1f\x8b")


class NotFound(ValueError):
    pass


def kind_of(path: Path) -> str:
    """The kind of ``path``; raises NotFound when it does not exist."""
    if path.is_dir():
        return RELEASE if (path / "manifest.json").is_file() else HARBOR
    if not path.is_file():
        raise NotFound(f"{path}: no such file or folder")
    with path.open("rb") as handle:
        head = handle.read(4)
    if not head.startswith(_ARCHIVE_MAGIC):
        return TRANSCRIPT
    return RELEASE if _archive_has_manifest(path) else HARBOR


def _archive_has_manifest(path: Path) -> bool:
    """Whether the archive names ``manifest.json`` at its root or one folder down.

    Only the names are listed; a broken archive counts as Harbor and the import
    then says what is wrong with it, in the import commands' own words."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
        else:
            with tarfile.open(path, "r:*") as archive:
                names = archive.getnames()
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError):
        return False
    return any(_is_manifest(name) for name in names)


def _is_manifest(name: str) -> bool:
    parts = [part for part in name.split("/") if part not in ("", ".")]
    return parts[-1:] == ["manifest.json"] and len(parts) <= 2
