"""The rules every entry of a release meets, whether walked in a folder or unpacked."""

from __future__ import annotations

import re
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from formats.reader.errors import ReleaseReadError, corrupt, entry_refusal, refusal

CHUNK = 1024 * 1024
_DRIVE = re.compile(r"[A-Za-z]:")

# What the archive libraries raise for damaged input; anything else is a bug or a local
# problem (disk full) and is left to propagate.
DAMAGED = (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, OSError)


@dataclass(frozen=True)
class Limits:
    total_bytes: int
    entries: int
    file_bytes: int


class Tally:
    """Checks names, types and limits while a release is walked or unpacked."""

    def __init__(self, where: str, limits: Limits) -> None:
        self.where = where
        self.limits = limits
        self.entries = 0
        self.declared = 0
        self.total = 0
        self.files: dict[str, int] = {}
        self.dirs: set[str] = set()

    def error(self, entry: str, rule: str, detail: str) -> ReleaseReadError:
        return entry_refusal(self.where, entry, rule, detail)

    def damaged(self, entry: str, exc: BaseException) -> ReleaseReadError:
        return self.error(entry, "truncated", f"data is {corrupt(exc)}")

    def count(self, raw: str) -> None:
        self.entries += 1
        if self.entries > self.limits.entries:
            raise self.error(
                raw, "too-many-entries", f"more than {self.limits.entries} entries in the release"
            )

    def clean(self, raw: str) -> str:
        """The normalised relative POSIX path of an entry; "" stands for the root itself."""
        if "\x00" in raw:
            raise self.error(raw, "bad-name", "name contains a NUL character")
        try:
            raw.encode("utf-8")
        except UnicodeEncodeError:
            raise self.error(raw, "bad-name", "name is not valid UTF-8") from None
        if "\\" in raw:
            raise self.error(raw, "path-escape", "backslash in name could escape the release root")
        if raw.startswith("/"):
            raise self.error(raw, "path-escape", "absolute path escapes the release root")
        parts = [part for part in raw.split("/") if part not in ("", ".")]
        if ".." in parts:
            raise self.error(raw, "path-escape", "path escapes the release root")
        if parts and _DRIVE.match(parts[0]):
            raise self.error(raw, "path-escape", "Windows drive path escapes the release root")
        return "/".join(parts)

    def add_dir(self, raw: str, name: str) -> None:
        if not name:
            return
        if name in self.files:
            raise self.error(raw, "duplicate", "another entry has the same path")
        self._check_parents(raw, name)
        self._add_parents(name)
        self.dirs.add(name)

    def check_file(self, raw: str, name: str, declared: int) -> None:
        """Claim a file's path and fail fast on its declared size (which is never trusted)."""
        if not name:
            raise self.error(raw, "bad-name", "file has an empty name")
        # Archives may repeat a path; which copy wins would depend on the tool, so refuse.
        if name in self.files or name in self.dirs:
            raise self.error(raw, "duplicate", "another entry has the same path")
        self._check_parents(raw, name)
        if declared > self.limits.file_bytes:
            raise self._too_large(raw)
        self.declared += declared
        if self.declared > self.limits.total_bytes:
            raise self._total_too_large(raw)
        self._add_parents(name)
        self.files[name] = declared

    def room(self, written: int) -> int:
        """How many more bytes the current file may grow by before some limit is passed."""
        return min(self.limits.file_bytes - written, self.limits.total_bytes - self.total)

    def take(self, raw: str, written: int, count: int) -> None:
        if written > self.limits.file_bytes:
            raise self._too_large(raw)
        self.total += count
        if self.total > self.limits.total_bytes:
            raise self._total_too_large(raw)

    def _check_parents(self, raw: str, name: str) -> None:
        parts = name.split("/")
        for depth in range(1, len(parts)):
            if "/".join(parts[:depth]) in self.files:
                raise self.error(raw, "duplicate", "path runs through a file")

    def _add_parents(self, name: str) -> None:
        parts = name.split("/")
        for depth in range(1, len(parts)):
            self.dirs.add("/".join(parts[:depth]))

    def _too_large(self, raw: str) -> ReleaseReadError:
        return self.error(
            raw, "too-large", f"file is larger than the {self.limits.file_bytes}-byte limit"
        )

    def _total_too_large(self, raw: str) -> ReleaseReadError:
        return self.error(
            raw,
            "total-too-large",
            f"release grows past the {self.limits.total_bytes}-byte total limit here",
        )


def pump(tally: Tally, raw: str, read: Callable[[int], bytes], sink: Callable) -> int:
    """Copy one file through ``sink``, counting the bytes really produced, not declared."""
    written = 0
    while True:
        # One byte past the remaining room is enough to see an overrun, so a bomb is never
        # decompressed much beyond the limit.
        chunk = read(min(CHUNK, tally.room(written)) + 1)
        if not chunk:
            return written
        written += len(chunk)
        tally.take(raw, written, len(chunk))
        sink(chunk)


def guarded(read: Callable[[int], bytes], tally: Tally, raw: str) -> Callable[[int], bytes]:
    def guarded_read(size: int) -> bytes:
        try:
            return read(size)
        except DAMAGED as exc:
            raise tally.damaged(raw, exc) from exc

    return guarded_read


def pick_root(tally: Tally, display: str, marker: str | None) -> str:
    """The prefix to strip: "" or the single top-level folder holding ``marker``
    (manifest.json for a release). With no ``marker`` nothing is asked for or stripped."""
    if marker is None or marker in tally.files:
        return ""
    tops = {name.split("/", 1)[0] for name in (*tally.files, *tally.dirs)}
    if len(tops) == 1:
        (top,) = tops
        if f"{top}/{marker}" in tally.files:
            return f"{top}/"
    shown = ", ".join(repr(top) for top in sorted(tops)[:5]) or "nothing"
    raise refusal(
        display,
        "no-manifest",
        f"no {marker} at the release root or inside a single top-level folder "
        f"(top level holds {shown}{', ...' if len(tops) > 5 else ''})",
    )


def strip(files: dict[str, int], prefix: str) -> dict[str, int]:
    return {name[len(prefix) :]: size for name, size in files.items()}
