"""One safe way to read a release, whether it arrives as a folder, a .zip or a .tar.gz.

Archives are unpacked into a private temporary directory under the configured limits and are
then served exactly like a folder, so every caller sees the same thing: the sorted relative
POSIX names of the release's regular files, each read on demand. Nothing is trusted: not entry
names, not entry types, not the sizes an archive declares. Every refusal is a
``ReleaseReadError`` that names the entry and the rule it broke.

- ``errors``: ``ReleaseReadError`` and the few shapes of its messages.
- ``tally``: the rules every entry meets (names, types, counts, sizes).
- ``source``: ``ReleaseSource``, the opened release.
- ``folder`` and ``archives``: the readers by kind (``READERS``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from formats.reader.archives import read_tar, read_zip
from formats.reader.errors import ReleaseReadError, refusal, unreadable
from formats.reader.folder import read_folder
from formats.reader.source import ReleaseSource
from formats.reader.tally import Limits

__all__ = ["MANIFEST", "READERS", "ReleaseReadError", "ReleaseSource", "open_release", "open_tree"]

MANIFEST = "manifest.json"

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_GZIP_MAGIC = b"\x1f\x8b"
_LIMIT_KEYS = ("archive_max_bytes", "archive_max_entries", "file_max_bytes")


def _resolve_limits(limits: dict | None) -> Limits:
    given = dict(limits or {})
    if any(key not in given for key in _LIMIT_KEYS):
        # Looked up per call so that settings overrides (tests, per-deploy env) always apply.
        defaults = settings.BENCHVIEW_LIMITS
        given = {**{key: defaults[key] for key in _LIMIT_KEYS}, **given}
    return Limits(
        total_bytes=int(given["archive_max_bytes"]),
        entries=int(given["archive_max_entries"]),
        file_bytes=int(given["file_max_bytes"]),
    )


def open_release(path: str | os.PathLike, *, limits: dict | None = None) -> ReleaseSource:
    """Open a release folder, .zip or .tar.gz/.tgz, refusing anything unsafe.

    ``limits`` defaults to ``settings.BENCHVIEW_LIMITS`` (keys ``archive_max_bytes``,
    ``archive_max_entries``, ``file_max_bytes``); missing keys fall back to it too.
    """
    resolved = _resolve_limits(limits)
    source = Path(os.fspath(path))
    return READERS[_detect_kind(source)](source, resolved, MANIFEST)


def open_tree(path: str | os.PathLike, *, limits: dict | None = None) -> ReleaseSource:
    """Open a folder, .zip or .tar.gz like ``open_release``, under every same limit and
    refusal, but without asking for manifest.json: the names are relative to the folder or
    archive root as given. For other layouts (Harbor jobs) that an adapter turns into a
    release."""
    resolved = _resolve_limits(limits)
    source = Path(os.fspath(path))
    return READERS[_detect_kind(source)](source, resolved, None)


def _detect_kind(path: Path) -> str:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise refusal(str(path), "not-found", "no such file or folder") from None
    except OSError as exc:
        raise unreadable(str(path), exc) from exc
    if stat.S_ISDIR(mode):
        return "folder"
    if not stat.S_ISREG(mode):
        raise refusal(path.name, "not-an-archive", "neither a folder nor a regular file")
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise unreadable(path.name, exc) from exc
    # The suffix is only a hint from the uploader; the bytes decide.
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    if head.startswith(_GZIP_MAGIC):
        return "tar"
    raise refusal(path.name, "not-an-archive", "not a release folder, .zip or .tar.gz archive")


# Kind -> reader(path, limits, marker): marker is the file the root must hold (None: any root).
READERS: dict[str, Callable[[Path, Limits, str | None], ReleaseSource]] = {
    "folder": read_folder,
    "zip": read_zip,
    "tar": read_tar,
}
