"""A plain folder as a tree of files (``names``/``exists``/``size``/``read``/
``close``), for adapters run without the site: the import door gives them
the site's safe reader instead (archives, limits, no links)."""

from __future__ import annotations

import os
from pathlib import Path

from formats.sources.protocol import SourceError


class FolderTree:
    """A folder's regular files by relative POSIX name (links are not followed)."""

    def __init__(self, path: str | os.PathLike):
        self.root = Path(path)
        if not self.root.is_dir():
            raise SourceError([f"{path}: not a folder"])
        self._sizes: dict[str, int] = {}
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
            for name in files:
                full = os.path.join(folder, name)
                if os.path.islink(full) or not os.path.isfile(full):
                    continue
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                self._sizes[rel] = os.path.getsize(full)

    def names(self) -> list[str]:
        return sorted(self._sizes)

    def exists(self, name: str) -> bool:
        return name in self._sizes

    def size(self, name: str) -> int:
        return self._sizes[name]

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()

    def close(self) -> None:
        self._sizes = {}
