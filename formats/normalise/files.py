"""Reading a transcript file from disk: regular files only, never more than a limit.

``Path.read_bytes`` reads ``/dev/zero`` for ever and blocks on a FIFO with no
writer; a size from ``stat`` says nothing of either (both are 0 bytes).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotReadable(OSError):
    """Not a regular file, or larger than the limit: the message says which."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; NotReadable if it is something
    else or holds more than ``limit`` bytes (OSError if it cannot be opened)."""
    # Non-blocking, so opening a FIFO with no writer returns at once; the
    # kind of file is then asked of what was opened, not of the path again.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotReadable(f"not a regular file ({_kind(mode)})")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise NotReadable(f"over the {limit}-byte limit")
    return data


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"
