"""A release folder, walked without following links and hashed file by file in place."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from formats.reader.errors import cannot_read
from formats.reader.source import ReleaseSource, open_regular
from formats.reader.tally import Limits, Tally, pick_root, pump, strip


def read_folder(path: Path, limits: Limits, marker: str | None) -> ReleaseSource:
    # A symlink naming the release folder itself is the admin's choice; only what lies under
    # it is policed. Resolving once pins the folder even if that link is later repointed.
    base = Path(os.path.realpath(path))
    display = Path(os.path.abspath(path)).name or str(base)
    tally = Tally("folder", limits)
    digests: dict[str, str] = {}
    pending = [""]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(base.joinpath(*folder.split("/")) if folder else base) as listing:
                entries = list(listing)
        except OSError as exc:
            raise tally.error(
                folder or ".", "unreadable", f"cannot be listed ({exc.strerror or exc})"
            ) from exc
        for entry in entries:
            raw = f"{folder}/{entry.name}" if folder else entry.name
            tally.count(raw)
            name = tally.clean(raw)
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError as exc:
                raise tally.error(raw, "unreadable", f"cannot be read ({exc.strerror})") from exc
            if stat.S_ISLNK(info.st_mode):
                raise tally.error(raw, "link", "symbolic links are not allowed")
            if stat.S_ISDIR(info.st_mode):
                tally.add_dir(raw, name)
                pending.append(name)
            elif stat.S_ISREG(info.st_mode):
                # A second name for the file may live outside the release.
                if info.st_nlink > 1:
                    raise tally.error(raw, "link", "hard-linked files are not allowed")
                tally.check_file(raw, name, info.st_size)
                tally.files[name], digests[name] = _hash_in_place(base, name, raw, tally)
            else:
                raise tally.error(raw, "device", "device files, FIFOs and sockets are not allowed")
    prefix = pick_root(tally, display, marker)
    listing_digest = hashlib.sha256()
    for name in sorted(digests):
        relative = name[len(prefix) :]
        listing_digest.update(f"{relative}\0{digests[name]}\n".encode())
    return ReleaseSource(
        name=display,
        sha256=listing_digest.hexdigest(),
        kind="folder",
        root=base / prefix if prefix else base,
        files=strip(tally.files, prefix),
    )


def _hash_in_place(base: Path, name: str, raw: str, tally: Tally) -> tuple[int, str]:
    digest = hashlib.sha256()
    try:
        with os.fdopen(open_regular(base, name), "rb") as fh:
            size = pump(tally, raw, fh.read, digest.update)
    except OSError as exc:
        raise tally.error(raw, "unreadable", cannot_read(exc)) from exc
    return size, digest.hexdigest()
