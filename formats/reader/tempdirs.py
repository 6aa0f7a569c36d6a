"""The temporary folders archives are unpacked into, and the sweep of those left by a killed import.

A release archive is unpacked under the system temporary folder (``tempfile``)
and removed when the release is closed. A process killed with ``kill -9``
removes nothing, so each folder carries an owner file its process holds an
``fcntl.flock`` on for as long as it lives: the kernel drops that lock with the
process, and every later unpack removes the folders whose lock it can take.
The archive is unpacked into a subfolder, so no archive entry can collide with
the owner file.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from pathlib import Path

PREFIX = "benchview-release-"
OWNER_FILE = "owner.lock"
# A folder without its owner file is one being created this instant (the file
# follows mkdtemp at once); past this age it was left by a process killed in between.
_UNOWNED_GRACE_S = 60

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnpackDir:
    """A private temporary folder, marked as ours until ``remove()`` or the process ends."""

    def __init__(self) -> None:
        sweep_stale()
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX))
        self._fd: int | None = os.open(
            self.path / OWNER_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW, 0o600
        )
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        os.write(self._fd, f"{os.getpid()}\n".encode())  # for people looking; the lock decides
        self.unpack = self.path / "release"
        self.unpack.mkdir(mode=0o700)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def sweep_stale() -> int:
    """Remove this user's unpack folders whose owning process is gone; return how many."""
    removed = 0
    uid = os.getuid()
    with os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid != uid:
                continue
            removed += _remove_if_abandoned(Path(entry.path), info.st_mtime)
    return removed


def _remove_if_abandoned(path: Path, mtime: float) -> int:
    try:
        fd = os.open(path / OWNER_FILE, os.O_RDONLY | _O_NOFOLLOW)
    except FileNotFoundError:
        if time.time() - mtime <= _UNOWNED_GRACE_S:
            return 0
        shutil.rmtree(path, ignore_errors=True)
        return 1
    except OSError:
        return 0
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # its owner is alive
        shutil.rmtree(path, ignore_errors=True)
        return 1
    finally:
        os.close(fd)
