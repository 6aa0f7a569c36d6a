"""A .zip or .tar.gz release, unpacked into a private temporary folder under the limits.

Nothing an archive declares is trusted: entry names, types and sizes are checked by the
``Tally`` and the bytes really produced are counted as they are written.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import stat
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from formats.reader.errors import ReleaseReadError, corrupt, refusal, unreadable
from formats.reader.source import O_BINARY, O_NOFOLLOW, ReleaseSource
from formats.reader.tally import CHUNK, DAMAGED, Limits, Tally, guarded, pick_root, pump, strip
from formats.reader.tempdirs import UnpackDir

# Between two members' data a tar stream only holds headers, pax records and padding, which
# never legitimately come near this size. Capping it stops a giant pax record, which tarfile
# would buffer whole in memory, from acting as a compression bomb.
TAR_OVERHEAD_BYTES = 4 * 1024 * 1024


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while block := fh.read(CHUNK):
                digest.update(block)
    except OSError as exc:
        raise unreadable(path.name, exc) from exc
    return digest.hexdigest()


def _unpacked(
    path: Path, kind: str, tally: Tally, digest: str, temp: UnpackDir, marker: str | None
) -> ReleaseSource:
    prefix = pick_root(tally, path.name, marker)
    temp_dir = temp.unpack
    return ReleaseSource(
        name=path.name,
        sha256=digest,
        kind=kind,
        root=temp_dir / prefix if prefix else temp_dir,
        files=strip(tally.files, prefix),
        temp_dir=temp,
    )


def _write(dest: Path, name: str, raw: str, read: Callable[[int], bytes], tally: Tally) -> int:
    target = dest.joinpath(*name.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_BINARY
    with os.fdopen(os.open(target, flags, 0o600), "wb") as out:
        return pump(tally, raw, read, out.write)


# --- zip -----------------------------------------------------------------------------------


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


_ZIP_REFUSED = {
    "link": "symbolic links are not allowed",
    "device": "device files, FIFOs and sockets are not allowed",
    "unsupported": "unknown file type",
}


def read_zip(path: Path, limits: Limits, marker: str | None) -> ReleaseSource:
    digest = _file_sha256(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        # The central directory sits at the end, so a cut-off download fails right here.
        raise refusal(path.name, "truncated", f"zip archive is {corrupt(exc)}") from exc
    except OSError as exc:
        raise unreadable(path.name, exc) from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.entries:
            raise refusal(
                path.name,
                "too-many-entries",
                f"{len(infos)} entries, more than the limit of {limits.entries}",
            )
        tally = Tally("archive", limits)
        # Everything the central directory can tell is checked before a byte is unpacked.
        planned: list[tuple[zipfile.ZipInfo, str]] = []
        for info in infos:
            raw = info.filename
            tally.count(raw)
            name = tally.clean(raw)
            kind = _zip_kind(info)
            if kind in _ZIP_REFUSED:
                raise tally.error(raw, kind, _ZIP_REFUSED[kind])
            if kind == "dir":
                tally.add_dir(raw, name)
                continue
            if info.flag_bits & 0x1:
                raise tally.error(raw, "encrypted", "encrypted entries are not supported")
            tally.check_file(raw, name, info.file_size)
            planned.append((info, name))

        temp = UnpackDir()
        try:
            for info, name in planned:
                raw = info.filename
                try:
                    member = archive.open(info)
                except NotImplementedError as exc:
                    raise tally.error(raw, "unsupported", str(exc)) from exc
                except DAMAGED as exc:
                    raise tally.damaged(raw, exc) from exc
                with member:
                    read = guarded(member.read, tally, raw)
                    tally.files[name] = _write(temp.unpack, name, raw, read, tally)
            return _unpacked(path, "zip", tally, digest, temp, marker)
        except BaseException:
            temp.remove()
            raise


# --- tar.gz --------------------------------------------------------------------------------


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


def read_tar(path: Path, limits: Limits, marker: str | None) -> ReleaseSource:
    digest = _file_sha256(path)
    tally = Tally("archive", limits)
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


# Tar member kinds refused outright: (test, rule, detail), the detail may name the link target.
_TAR_REFUSED = (
    (tarfile.TarInfo.issym, "link", "symbolic link to {target!r} not allowed"),
    (tarfile.TarInfo.islnk, "link", "hard link to {target!r} not allowed"),
    (lambda m: m.ischr() or m.isblk(), "device", "device files are not allowed"),
    (tarfile.TarInfo.isfifo, "device", "FIFOs are not allowed"),
)


def _unpack_tar(display: str, stream: _Allowance, dest: Path, tally: Tally) -> None:
    def header_bomb(after: str | None) -> Callable[[], ReleaseReadError]:
        where = f"after entry {after!r}" if after else "at the start"
        return lambda: refusal(
            display,
            "too-large",
            f"tar header data {where} exceeds {TAR_OVERHEAD_BYTES} bytes "
            "(refusing a possible compression bomb)",
            entry=after,
        )

    stream.allow(TAR_OVERHEAD_BYTES, header_bomb(None))
    try:
        archive = _open_tar_stream(stream)
    except tarfile.ReadError as exc:
        raise refusal(display, "not-an-archive", f"gzip data is not a tar archive ({exc})") from exc
    except DAMAGED as exc:
        raise refusal(display, "truncated", f"archive is {corrupt(exc)}") from exc
    last: str | None = None
    with archive:
        while True:
            stream.allow(TAR_OVERHEAD_BYTES, header_bomb(last))
            try:
                member = archive.next()
            except DAMAGED as exc:
                where = f" after entry {last!r}" if last else ""
                raise refusal(
                    display,
                    "truncated",
                    f"archive is truncated or corrupt{where} ({exc})",
                    entry=last,
                ) from exc
            if member is None:
                return
            raw = last = member.name
            tally.count(raw)
            name = tally.clean(raw)
            for test, rule, detail in _TAR_REFUSED:
                if test(member):
                    raise tally.error(raw, rule, detail.format(target=member.linkname))
            if member.isdir():
                tally.add_dir(raw, name)
                continue
            if not member.isreg():
                raise tally.error(raw, "unsupported", f"tar member type {member.type!r}")
            tally.check_file(raw, name, member.size)
            stream.allow(member.size + TAR_OVERHEAD_BYTES, header_bomb(last))
            source = archive.extractfile(member)
            tally.files[name] = _write(dest, name, raw, guarded(source.read, tally, raw), tally)


def _expect_gzip_end(display: str, stream: _Allowance) -> None:
    """Read to the end of the gzip stream: a cut-off archive can otherwise look complete."""
    stream.allow(
        TAR_OVERHEAD_BYTES,
        lambda: refusal(
            display,
            "trailing-data",
            f"more than {TAR_OVERHEAD_BYTES} bytes follow the end of the tar archive",
        ),
    )
    try:
        while stream.read(CHUNK):
            pass
    except DAMAGED as exc:
        raise refusal(display, "truncated", f"archive is {corrupt(exc)}") from exc
