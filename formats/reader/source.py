"""An opened release: its file names, each file read on demand and never through a link."""

from __future__ import annotations

import errno
import os
import stat
import weakref
from pathlib import Path

from formats.reader.errors import cannot_read, entry_refusal
from formats.reader.tempdirs import UnpackDir

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# A FIFO swapped in after the walk would otherwise block open() until a writer shows up.
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_BINARY = getattr(os, "O_BINARY", 0)


class ReleaseSource:
    """A release opened for reading. Use as a context manager; close() removes any temp files.

    ``sha256`` is, for an archive, the digest of the archive bytes; for a folder, the digest of
    the sorted (relative path, file sha256) list, each pair encoded as
    ``path + "\\0" + hexdigest + "\\n"`` in UTF-8.
    """

    def __init__(
        self,
        *,
        name: str,
        sha256: str,
        kind: str,
        root: Path,
        files: dict[str, int],
        temp_dir: UnpackDir | None = None,
    ) -> None:
        self.name = name
        self.sha256 = sha256
        self.kind = kind
        self._root = root
        self._files = files
        self._names = sorted(files)
        self._closed = False
        # Also fires at garbage collection or interpreter exit, so a forgotten close() does
        # not leave an unpacked release behind.
        self._cleanup = weakref.finalize(self, temp_dir.remove) if temp_dir else None

    def names(self) -> list[str]:
        return list(self._names)

    def exists(self, name: str) -> bool:
        return name in self._files

    def size(self, name: str) -> int:
        return self._files[name]

    def read(self, name: str) -> bytes:
        if self._closed:
            raise ValueError(f"release {self.name!r} is closed")
        expected = self._files[name]
        try:
            fd = open_regular(self._root, name)
            with os.fdopen(fd, "rb") as fh:
                data = fh.read(expected + 1)
        except OSError as exc:
            raise entry_refusal("release", name, "unreadable", cannot_read(exc)) from exc
        if len(data) != expected:
            # The digest and the size checks were made on the old content.
            raise entry_refusal("release", name, "changed", "changed since the release was opened")
        return data

    def close(self) -> None:
        self._closed = True
        # Nothing can be read once closed: the index of its files goes too (a
        # source of results closes its input trees once it has built them).
        self._files, self._names = {}, []
        if self._cleanup is not None:
            self._cleanup()

    def __enter__(self) -> ReleaseSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ReleaseSource {self.kind} {self.name!r} ({len(self._files)} files)>"


def open_regular(root: Path, name: str) -> int:
    """Open root/name for reading without following a symlink at any level below root."""
    parts = name.split("/")
    if O_NOFOLLOW and os.open in os.supports_dir_fd:
        fd = os.open(root, os.O_RDONLY | _O_DIRECTORY)
        try:
            for part in parts[:-1]:
                inner = os.open(part, os.O_RDONLY | _O_DIRECTORY | O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = inner
            leaf = os.open(parts[-1], os.O_RDONLY | O_NOFOLLOW | _O_NONBLOCK | O_BINARY, dir_fd=fd)
        finally:
            os.close(fd)
    else:
        leaf = os.open(root.joinpath(*parts), os.O_RDONLY | O_NOFOLLOW | _O_NONBLOCK | O_BINARY)
    if not stat.S_ISREG(os.fstat(leaf).st_mode):
        os.close(leaf)
        raise OSError(errno.EINVAL, "not a regular file")
    return leaf
