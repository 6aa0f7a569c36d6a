"""A release held in memory, read through the interface ``ingest.plan`` uses."""

from __future__ import annotations

import hashlib


class HarborSource:
    """The release files built from Harbor jobs: ``name``, ``sha256``,
    ``names()``, ``exists()``, ``size()``, ``read()``, like ``ReleaseSource``.

    ``sha256`` is that of a release folder with the same files (the sorted
    ``path + "\\0" + file sha256 + "\\n"`` list), so it changes exactly when a
    file does.
    """

    kind = "harbor"

    def __init__(self, *, name: str, files: dict[str, bytes]):
        self.name = name
        self._files = dict(files)
        self._names = sorted(self._files)
        digest = hashlib.sha256()
        for path in self._names:
            digest.update(f"{path}\0{hashlib.sha256(self._files[path]).hexdigest()}\n".encode())
        self.sha256 = digest.hexdigest()

    def names(self) -> list[str]:
        return list(self._names)

    def exists(self, name: str) -> bool:
        return name in self._files

    def size(self, name: str) -> int:
        return len(self._files[name])

    def read(self, name: str) -> bytes:
        return self._files[name]

    def close(self) -> None:
        self._files = {}

    def __enter__(self) -> HarborSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<HarborSource {self.name!r} ({len(self._names)} files)>"
