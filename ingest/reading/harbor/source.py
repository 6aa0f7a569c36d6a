"""The release built from Harbor jobs, read through the interface ``ingest.reading.plan`` uses.

The small documents (manifest, leaderboard, matrix, models/, tasks/) are held
in memory. An attempt folder is not: only its files' digests and sizes are,
and its files are read again (from the spool of built trials, or the
database for a kept model) when the import reads them, one folder at a time. So the import
holds one trial at a time whatever the size of the jobs, as the v1 import
holds one attempt folder at a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from formats.sources import LazyFolder, digests_of
from formats.sources.harbor.errors import HarborError

__all__ = ["HarborSource", "LazyFolder", "digests_of"]


class HarborSource:
    """The release files built from Harbor jobs: ``name``, ``sha256``,
    ``names()``, ``exists()``, ``size()``, ``read()``, like ``ReleaseSource``.

    ``sha256`` is that of a release folder with the same files (the sorted
    ``path + "\\0" + file sha256 + "\\n"`` list), so it changes exactly when a
    file does. ``scrubbed`` lists what was rewritten in the trials' own files;
    ``origin()`` names the trial folder a file of the release comes from.
    """

    kind = "harbor"

    def __init__(
        self,
        *,
        name: str,
        files: dict[str, bytes],
        folders: dict[str, LazyFolder] | None = None,
        scrubbed: list[str] | None = None,
        scrubs: bool = True,
        on_close: Callable[[], None] | None = None,
    ):
        self.name = name
        # What else goes with the source (the spool of the built folders).
        self._on_close = on_close
        self.scrubbed = list(scrubbed or [])
        # Whether the jobs were scrubbed: the release's own checks then scrub too.
        self.scrubs = scrubs
        self._files = dict(files)
        self._folders = dict(folders or {})
        # Held for every file of every trial until the import ends, so each
        # name is held once (in ``_names``) and its size and digest only in its
        # folder's ``digests``, which are held anyway.
        shas = {path: hashlib.sha256(data).hexdigest() for path, data in self._files.items()}
        for prefix, folder in self._folders.items():
            for filename, (sha, _size) in folder.digests.items():
                shas[prefix + filename] = sha
        self._names = sorted(shas)
        digest = hashlib.sha256()
        for path in self._names:
            digest.update(f"{path}\0{shas[path]}\n".encode())
        del shas
        self.sha256 = digest.hexdigest()
        self._built: tuple[str, dict[str, bytes]] | None = None

    def names(self) -> list[str]:
        return list(self._names)

    def _digest(self, name: str) -> tuple[str, int] | None:
        """(sha256, size) of an attempt folder's file, None for any other name."""
        prefix, _, filename = name.rpartition("/")
        folder = self._folders.get(prefix + "/")
        return None if folder is None else folder.digests.get(filename)

    def exists(self, name: str) -> bool:
        return name in self._files or self._digest(name) is not None

    def size(self, name: str) -> int:
        if name in self._files:
            return len(self._files[name])
        found = self._digest(name)
        if found is None:
            raise KeyError(name)
        return found[1]

    def read(self, name: str) -> bytes:
        if name in self._files:
            return self._files[name]
        prefix, filename = name.rsplit("/", 1)
        prefix += "/"
        if self._built is None or self._built[0] != prefix:
            self._built = None  # the folder before is dropped before this one is built
            self._built = (prefix, self._build(prefix))
        return self._built[1][filename]

    def _build(self, prefix: str) -> dict[str, bytes]:
        folder = self._folders[prefix]
        files = folder.build()
        if digests_of(files) != folder.digests:
            raise HarborError(
                [f"{folder.origin}: changed while it was being imported; nothing was written"]
            )
        return files

    def origin(self, name: str) -> str:
        """``name`` as the user knows it: an attempt file is named with the trial
        folder it was made from."""
        parts = name.split("/")
        for cut in (5, 3):  # attempts/<m>/<t>/trials/<n>/ or attempts/<m>/<t>/
            folder = self._folders.get("/".join(parts[:cut]) + "/")
            if folder is not None:
                return f"{folder.origin} (as {name})"
        return name

    def close(self) -> None:
        self._files, self._folders, self._built = {}, {}, None
        if self._on_close is not None:
            self._on_close()

    def __enter__(self) -> HarborSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<HarborSource {self.name!r} ({len(self._names)} files)>"
