"""One safe way to read a release, whether it arrives as a folder, a .zip or a .tar.gz.

Archives are unpacked into a private temporary directory under the configured limits and are
then served exactly like a folder, so every caller sees the same thing: the sorted relative
POSIX names of the release's regular files, each read on demand. Nothing is trusted: not entry
names, not entry types, not the sizes an archive declares. Every refusal is a
``ReleaseReadError`` that names the entry and the rule it broke.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import os
import re
import stat
import tarfile
import weakref
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from ingest.tempdirs import UnpackDir

MANIFEST = "manifest.json"

_CHUNK = 1024 * 1024
# Between two members' data a tar stream only holds headers, pax records and padding, which
# never legitimately come near this size. Capping it stops a giant pax record, which tarfile
# would buffer whole in memory, from acting as a compression bomb.
_TAR_OVERHEAD_BYTES = 4 * 1024 * 1024
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_GZIP_MAGIC = b"\x1f\x8b"
_DRIVE = re.compile(r"[A-Za-z]:")

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# A FIFO swapped in after the walk would otherwise block open() until a writer shows up.
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)

# What the archive libraries raise for damaged input; anything else is a bug or a local
# problem (disk full) and is left to propagate.
_DAMAGED = (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, OSError)

_LIMIT_KEYS = ("archive_max_bytes", "archive_max_entries", "file_max_bytes")


class ReleaseReadError(Exception):
    """Raised for any unsafe or unreadable input.

    ``str(err)`` names the entry and the rule, e.g.
    "archive entry '../etc/passwd': path escapes the release root". ``rule`` is a short stable
    name ("path-escape", "link", "device", "too-large", "too-many-entries", "total-too-large",
    "not-an-archive", "truncated", "no-manifest", "not-found", "unreadable", "bad-name",
    "duplicate", "encrypted", "unsupported", "trailing-data", "changed").
    """

    def __init__(self, message: str, *, rule: str, entry: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.entry = entry


@dataclass(frozen=True)
class _Limits:
    total_bytes: int
    entries: int
    file_bytes: int


def _resolve_limits(limits: dict | None) -> _Limits:
    given = dict(limits or {})
    if any(key not in given for key in _LIMIT_KEYS):
        # Looked up per call so that settings overrides (tests, per-deploy env) always apply.
        defaults = settings.BENCHVIEW_LIMITS
        given = {**{key: defaults[key] for key in _LIMIT_KEYS}, **given}
    return _Limits(
        total_bytes=int(given["archive_max_bytes"]),
        entries=int(given["archive_max_entries"]),
        file_bytes=int(given["file_max_bytes"]),
    )


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
        expected = self._files[name]
        if self._closed:
            raise ValueError(f"release {self.name!r} is closed")
        try:
            fd = _open_regular(self._root, name)
            with os.fdopen(fd, "rb") as fh:
                data = fh.read(expected + 1)
        except OSError as exc:
            raise ReleaseReadError(
                f"release entry {name!r}: cannot be read ({exc.strerror or exc})",
                rule="unreadable",
                entry=name,
            ) from exc
        if len(data) != expected:
            # The digest and the size checks were made on the old content.
            raise ReleaseReadError(
                f"release entry {name!r}: changed since the release was opened",
                rule="changed",
                entry=name,
            )
        return data

    def close(self) -> None:
        self._closed = True
        if self._cleanup is not None:
            self._cleanup()

    def __enter__(self) -> ReleaseSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ReleaseSource {self.kind} {self.name!r} ({len(self._files)} files)>"


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
        raise ReleaseReadError(f"{path}: no such file or folder", rule="not-found") from None
    except OSError as exc:
        raise ReleaseReadError(
            f"{path}: cannot be read ({exc.strerror or exc})", rule="unreadable"
        ) from exc
    if stat.S_ISDIR(mode):
        return "folder"
    if not stat.S_ISREG(mode):
        raise ReleaseReadError(
            f"{path.name}: neither a folder nor a regular file", rule="not-an-archive"
        )
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ReleaseReadError(
            f"{path.name}: cannot be read ({exc.strerror or exc})", rule="unreadable"
        ) from exc
    # The suffix is only a hint from the uploader; the bytes decide.
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    if head.startswith(_GZIP_MAGIC):
        return "tar"
    raise ReleaseReadError(
        f"{path.name}: not a release folder, .zip or .tar.gz archive", rule="not-an-archive"
    )


class _Tally:
    """Checks names, types and limits while a release is walked or unpacked."""

    def __init__(self, where: str, limits: _Limits) -> None:
        self.where = where
        self.limits = limits
        self.entries = 0
        self.declared = 0
        self.total = 0
        self.files: dict[str, int] = {}
        self.dirs: set[str] = set()

    def error(self, entry: str, rule: str, detail: str) -> ReleaseReadError:
        return ReleaseReadError(f"{self.where} entry {entry!r}: {detail}", rule=rule, entry=entry)

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


def _pump(tally: _Tally, raw: str, read: Callable[[int], bytes], sink: Callable) -> int:
    """Copy one file through ``sink``, counting the bytes really produced, not declared."""
    written = 0
    while True:
        # One byte past the remaining room is enough to see an overrun, so a bomb is never
        # decompressed much beyond the limit.
        chunk = read(min(_CHUNK, tally.room(written)) + 1)
        if not chunk:
            return written
        written += len(chunk)
        tally.take(raw, written, len(chunk))
        sink(chunk)


def _guarded(read: Callable[[int], bytes], tally: _Tally, raw: str) -> Callable[[int], bytes]:
    def guarded_read(size: int) -> bytes:
        try:
            return read(size)
        except _DAMAGED as exc:
            raise tally.error(raw, "truncated", f"data is truncated or corrupt ({exc})") from exc

    return guarded_read


def _pick_root(tally: _Tally, display: str, marker: str | None) -> str:
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
    raise ReleaseReadError(
        f"{display}: no {marker} at the release root or inside a single top-level folder "
        f"(top level holds {shown}{', ...' if len(tops) > 5 else ''})",
        rule="no-manifest",
    )


def _open_regular(root: Path, name: str) -> int:
    """Open root/name for reading without following a symlink at any level below root."""
    parts = name.split("/")
    if _O_NOFOLLOW and os.open in os.supports_dir_fd:
        fd = os.open(root, os.O_RDONLY | _O_DIRECTORY)
        try:
            for part in parts[:-1]:
                inner = os.open(part, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = inner
            leaf = os.open(
                parts[-1], os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_BINARY, dir_fd=fd
            )
        finally:
            os.close(fd)
    else:
        leaf = os.open(root.joinpath(*parts), os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_BINARY)
    if not stat.S_ISREG(os.fstat(leaf).st_mode):
        os.close(leaf)
        raise OSError(errno.EINVAL, "not a regular file")
    return leaf


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while block := fh.read(_CHUNK):
                digest.update(block)
    except OSError as exc:
        raise ReleaseReadError(
            f"{path.name}: cannot be read ({exc.strerror or exc})", rule="unreadable"
        ) from exc
    return digest.hexdigest()


def _strip(files: dict[str, int], prefix: str) -> dict[str, int]:
    return {name[len(prefix) :]: size for name, size in files.items()}


# --- folders -------------------------------------------------------------------------------


def _read_folder(path: Path, limits: _Limits, marker: str | None) -> ReleaseSource:
    # A symlink naming the release folder itself is the admin's choice; only what lies under
    # it is policed. Resolving once pins the folder even if that link is later repointed.
    base = Path(os.path.realpath(path))
    display = Path(os.path.abspath(path)).name or str(base)
    tally = _Tally("folder", limits)
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
    prefix = _pick_root(tally, display, marker)
    listing_digest = hashlib.sha256()
    for name in sorted(digests):
        relative = name[len(prefix) :]
        listing_digest.update(f"{relative}\0{digests[name]}\n".encode())
    return ReleaseSource(
        name=display,
        sha256=listing_digest.hexdigest(),
        kind="folder",
        root=base / prefix if prefix else base,
        files=_strip(tally.files, prefix),
    )


def _hash_in_place(base: Path, name: str, raw: str, tally: _Tally) -> tuple[int, str]:
    digest = hashlib.sha256()
    try:
        with os.fdopen(_open_regular(base, name), "rb") as fh:
            size = _pump(tally, raw, fh.read, digest.update)
    except OSError as exc:
        raise tally.error(raw, "unreadable", f"cannot be read ({exc.strerror or exc})") from exc
    return size, digest.hexdigest()


# --- archives ------------------------------------------------------------------------------


def _unpacked(
    path: Path, kind: str, tally: _Tally, digest: str, temp: UnpackDir, marker: str | None
) -> ReleaseSource:
    prefix = _pick_root(tally, path.name, marker)
    temp_dir = temp.unpack
    return ReleaseSource(
        name=path.name,
        sha256=digest,
        kind=kind,
        root=temp_dir / prefix if prefix else temp_dir,
        files=_strip(tally.files, prefix),
        temp_dir=temp,
    )


def _write(dest: Path, name: str, raw: str, read: Callable[[int], bytes], tally: _Tally) -> int:
    target = dest.joinpath(*name.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY
    with os.fdopen(os.open(target, flags, 0o600), "wb") as out:
        return _pump(tally, raw, read, out.write)


def _zip_kind(info: zipfile.ZipInfo) -> str:
    # Unix tools keep st_mode in the high half of external_attr; DOS tools leave it zero.
    fmt = stat.S_IFMT(info.external_attr >> 16)
    if fmt == stat.S_IFLNK:
        return "link"
    if fmt in (stat.S_IFCHR, stat.S_IFBLK, stat.S_IFIFO, stat.S_IFSOCK):
        return "device"
    if info.is_dir() or fmt == stat.S_IFDIR:
        return "dir"
    if fmt in (0, stat.S_IFREG):
        return "file"
    return "unsupported"


def _read_zip(path: Path, limits: _Limits, marker: str | None) -> ReleaseSource:
    digest = _file_sha256(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        # The central directory sits at the end, so a cut-off download fails right here.
        raise ReleaseReadError(
            f"{path.name}: zip archive is truncated or corrupt ({exc})", rule="truncated"
        ) from exc
    except OSError as exc:
        raise ReleaseReadError(
            f"{path.name}: cannot be read ({exc.strerror or exc})", rule="unreadable"
        ) from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.entries:
            raise ReleaseReadError(
                f"{path.name}: {len(infos)} entries, more than the limit of {limits.entries}",
                rule="too-many-entries",
            )
        tally = _Tally("archive", limits)
        # Everything the central directory can tell is checked before a byte is unpacked.
        planned: list[tuple[zipfile.ZipInfo, str]] = []
        for info in infos:
            raw = info.filename
            tally.count(raw)
            name = tally.clean(raw)
            kind = _zip_kind(info)
            if kind == "link":
                raise tally.error(raw, "link", "symbolic links are not allowed")
            if kind == "device":
                raise tally.error(raw, "device", "device files, FIFOs and sockets are not allowed")
            if kind == "unsupported":
                raise tally.error(raw, "unsupported", "unknown file type")
            if kind == "dir":
                tally.add_dir(raw, name)
                continue
            if info.flag_bits & 0x1:
                raise tally.error(raw, "encrypted", "encrypted entries are not supported")
            tally.check_file(raw, name, info.file_size)
            planned.append((info, name))

        temp = UnpackDir()
        temp_dir = temp.unpack
        try:
            for info, name in planned:
                raw = info.filename
                try:
                    member = archive.open(info)
                except NotImplementedError as exc:
                    raise tally.error(raw, "unsupported", str(exc)) from exc
                except _DAMAGED as exc:
                    raise tally.error(
                        raw, "truncated", f"data is truncated or corrupt ({exc})"
                    ) from exc
                with member:
                    tally.files[name] = _write(
                        temp_dir, name, raw, _guarded(member.read, tally, raw), tally
                    )
            return _unpacked(path, "zip", tally, digest, temp, marker)
        except BaseException:
            temp.remove()
            raise


class _Allowance:
    """A read-through stream that refuses to produce more than its current allowance."""

    def __init__(self, inner) -> None:
        self._inner = inner
        self._consumed = 0
        self._limit = 0
        self._overrun: Callable[[], ReleaseReadError] = lambda: ReleaseReadError(
            "archive data exceeds its allowance", rule="too-large"
        )

    def allow(self, extra: int, overrun: Callable[[], ReleaseReadError]) -> None:
        self._limit = self._consumed + extra
        self._overrun = overrun

    def read(self, size: int = -1) -> bytes:
        room = self._limit - self._consumed
        if size is None or size < 0 or size > room + 1:
            size = room + 1
        data = self._inner.read(size)
        self._consumed += len(data)
        if self._consumed > self._limit:
            raise self._overrun()
        return data


def _read_tar(path: Path, limits: _Limits, marker: str | None) -> ReleaseSource:
    digest = _file_sha256(path)
    tally = _Tally("archive", limits)
    temp = UnpackDir()
    try:
        with open(path, "rb") as raw_file, gzip.GzipFile(fileobj=raw_file, mode="rb") as gz:
            stream = _Allowance(gz)
            _unpack_tar(path.name, stream, temp.unpack, tally)
            _expect_gzip_end(path.name, stream)
        return _unpacked(path, "tar", tally, digest, temp, marker)
    except BaseException:
        temp.remove()
        raise


def _open_tar_stream(stream: _Allowance) -> tarfile.TarFile:
    # Stream mode reads strictly forward, so the allowance sees every byte tarfile asks for.
    return tarfile.open(fileobj=stream, mode="r|")


def _unpack_tar(display: str, stream: _Allowance, dest: Path, tally: _Tally) -> None:
    def header_bomb(after: str | None) -> Callable[[], ReleaseReadError]:
        where = f"after entry {after!r}" if after else "at the start"
        return lambda: ReleaseReadError(
            f"{display}: tar header data {where} exceeds {_TAR_OVERHEAD_BYTES} bytes "
            "(refusing a possible compression bomb)",
            rule="too-large",
            entry=after,
        )

    stream.allow(_TAR_OVERHEAD_BYTES, header_bomb(None))
    try:
        archive = _open_tar_stream(stream)
    except tarfile.ReadError as exc:
        raise ReleaseReadError(
            f"{display}: gzip data is not a tar archive ({exc})", rule="not-an-archive"
        ) from exc
    except _DAMAGED as exc:
        raise ReleaseReadError(
            f"{display}: archive is truncated or corrupt ({exc})", rule="truncated"
        ) from exc
    last: str | None = None
    with archive:
        while True:
            stream.allow(_TAR_OVERHEAD_BYTES, header_bomb(last))
            try:
                member = archive.next()
            except _DAMAGED as exc:
                where = f" after entry {last!r}" if last else ""
                raise ReleaseReadError(
                    f"{display}: archive is truncated or corrupt{where} ({exc})",
                    rule="truncated",
                    entry=last,
                ) from exc
            if member is None:
                return
            raw = last = member.name
            tally.count(raw)
            name = tally.clean(raw)
            if member.issym():
                raise tally.error(raw, "link", f"symbolic link to {member.linkname!r} not allowed")
            if member.islnk():
                raise tally.error(raw, "link", f"hard link to {member.linkname!r} not allowed")
            if member.ischr() or member.isblk():
                raise tally.error(raw, "device", "device files are not allowed")
            if member.isfifo():
                raise tally.error(raw, "device", "FIFOs are not allowed")
            if member.isdir():
                tally.add_dir(raw, name)
                continue
            if not member.isreg():
                raise tally.error(raw, "unsupported", f"tar member type {member.type!r}")
            tally.check_file(raw, name, member.size)
            stream.allow(member.size + _TAR_OVERHEAD_BYTES, header_bomb(last))
            source = archive.extractfile(member)
            tally.files[name] = _write(dest, name, raw, _guarded(source.read, tally, raw), tally)


def _expect_gzip_end(display: str, stream: _Allowance) -> None:
    """Read to the end of the gzip stream: a cut-off archive can otherwise look complete."""
    stream.allow(
        _TAR_OVERHEAD_BYTES,
        lambda: ReleaseReadError(
            f"{display}: more than {_TAR_OVERHEAD_BYTES} bytes follow the end of the tar archive",
            rule="trailing-data",
        ),
    )
    try:
        while stream.read(_CHUNK):
            pass
    except _DAMAGED as exc:
        raise ReleaseReadError(
            f"{display}: archive is truncated or corrupt ({exc})", rule="truncated"
        ) from exc


# Kind -> reader(path, limits, marker): marker is the file the root must hold (None: any root).
READERS: dict[str, Callable[[Path, _Limits, str | None], ReleaseSource]] = {
    "folder": _read_folder,
    "zip": _read_zip,
    "tar": _read_tar,
}
