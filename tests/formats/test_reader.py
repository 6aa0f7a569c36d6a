"""The safe release reader: folders, .zip and .tar.gz, and everything it must refuse."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import stat
import struct
import tarfile
import tempfile
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from formats import reader
from formats.reader import ReleaseReadError, ReleaseSource, open_release

MiB = 1024 * 1024
LIMITS = {"archive_max_bytes": 8 * MiB, "archive_max_entries": 100, "file_max_bytes": 2 * MiB}

RELEASE = {
    "manifest.json": b'{"schema": "v1", "bench": "demo"}',
    "leaderboard.json": b"[]",
    "matrix.json": b"{}",
    "models/m1.json": b'{"id": "m1"}',
    "tasks/t1.json": b'{"id": "t1"}',
    "attempts/m1/t1/summary.json": b'{"ok": true}',
    "attempts/m1/t1/patch.diff": b"--- a\n+++ b\n",
    "attempts/m1/t1/problem.md": b"# Problem\n",
}
KINDS = ["folder", "zip", "tar"]


@pytest.fixture(autouse=True)
def scratch(tmp_path, monkeypatch) -> Path:
    """Where the reader's temp dirs land, so tests can see what is left behind."""
    path = tmp_path / "scratch"
    path.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(path))
    return path


def make_folder(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def make_zip(path: Path, files: dict[str, bytes], *, compression=zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def tar_file(name: str, data: bytes) -> tuple[tarfile.TarInfo, io.BytesIO]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, io.BytesIO(data)


def tar_special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    return info, None


def make_tar(path: Path, files: dict[str, bytes], extra=()) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            archive.addfile(*tar_file(name, data))
        for info, data in extra:
            archive.addfile(info, data)
    return path


def build(kind: str, where: Path, files: dict[str, bytes], prefix: str = "") -> Path:
    files = {prefix + name: data for name, data in files.items()}
    if kind == "folder":
        return make_folder(where / "release-folder", files)
    if kind == "zip":
        return make_zip(where / "release.zip", files)
    return make_tar(where / "release.tar.gz", files)


def refusal(path: Path, limits: dict = LIMITS) -> ReleaseReadError:
    with pytest.raises(ReleaseReadError) as caught:
        open_release(path, limits=limits)
    return caught.value


def refusal_without_limits(path: Path) -> ReleaseReadError:
    with pytest.raises(ReleaseReadError) as caught:
        open_release(path)
    return caught.value


# --- reading what is valid ------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("prefix", ["", "release-2024/"], ids=["at-root", "in-one-folder"])
def test_it_reads_every_kind_with_or_without_one_top_level_folder(kind, prefix, tmp_path):
    path = build(kind, tmp_path, RELEASE, prefix)
    with open_release(path, limits=LIMITS) as source:
        assert isinstance(source, ReleaseSource)
        assert source.names() == sorted(RELEASE)
        for name, data in RELEASE.items():
            assert source.exists(name)
            assert source.size(name) == len(data)
            assert source.read(name) == data
        assert source.name == path.name


@pytest.mark.parametrize("kind", KINDS)
def test_names_are_sorted_relative_posix_paths_of_files_only(kind, tmp_path):
    path = build(kind, tmp_path, RELEASE, "top/")
    with open_release(path, limits=LIMITS) as source:
        names = source.names()
    assert names == sorted(names)
    assert all(not n.startswith(("/", "./", "top/")) and "\\" not in n for n in names)
    assert "models" not in names and "attempts/m1" not in names


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_names_raise_key_error(kind, tmp_path):
    with open_release(build(kind, tmp_path, RELEASE), limits=LIMITS) as source:
        assert not source.exists("nope.json")
        assert not source.exists("models")
        with pytest.raises(KeyError):
            source.read("nope.json")
        with pytest.raises(KeyError):
            source.read("../release.zip")
        with pytest.raises(KeyError):
            source.size("models")


def test_it_accepts_dot_slash_tar_member_names(tmp_path):
    folder = make_folder(tmp_path / "src", RELEASE)
    path = tmp_path / "release.tgz"
    with tarfile.open(path, "w:gz") as archive:
        archive.add(folder, arcname=".")
    with open_release(path, limits=LIMITS) as source:
        assert source.names() == sorted(RELEASE)


def test_it_reads_archives_made_by_shutil_make_archive(tmp_path):
    make_folder(tmp_path / "src" / "release", RELEASE)
    for fmt in ("zip", "gztar"):
        path = shutil.make_archive(str(tmp_path / f"out-{fmt}"), fmt, tmp_path / "src", "release")
        with open_release(path, limits=LIMITS) as source:
            assert source.names() == sorted(RELEASE)


def test_it_detects_the_archive_kind_from_content_not_suffix(tmp_path):
    zipped = make_zip(tmp_path / "really-a-zip.tgz", RELEASE)
    tarred = make_tar(tmp_path / "really-a-tar.zip", RELEASE)
    for path, kind in ((zipped, "zip"), (tarred, "tar")):
        with open_release(path, limits=LIMITS) as source:
            assert source.kind == kind
            assert source.read("manifest.json") == RELEASE["manifest.json"]


def test_a_folder_is_read_in_place_without_a_temp_copy(tmp_path, scratch):
    folder = build("folder", tmp_path, RELEASE)
    with open_release(folder, limits=LIMITS) as source:
        assert list(scratch.iterdir()) == []
        (folder / "leaderboard.json").write_bytes(b"{}")  # same size, new content
        assert source.read("leaderboard.json") == b"{}"


def test_a_folder_reachable_through_a_symlinked_path_is_fine(tmp_path):
    folder = build("folder", tmp_path, RELEASE)
    alias = tmp_path / "current"
    alias.symlink_to(folder, target_is_directory=True)
    with open_release(alias, limits=LIMITS) as source:
        assert source.names() == sorted(RELEASE)
        assert source.name == "current"


# --- sha256 -----------------------------------------------------------------------------------


def test_archive_sha256_is_the_digest_of_the_archive_bytes(tmp_path):
    for kind in ("zip", "tar"):
        path = build(kind, tmp_path, RELEASE)
        with open_release(path, limits=LIMITS) as source:
            assert source.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_folder_sha256_is_stable_across_locations_and_a_wrapping_folder(tmp_path):
    plain = make_folder(tmp_path / "a", RELEASE)
    wrapped = make_folder(tmp_path / "b", {f"inner/{n}": d for n, d in RELEASE.items()})
    digests = set()
    for path in (plain, plain, wrapped):
        with open_release(path, limits=LIMITS) as source:
            digests.add(source.sha256)
    assert len(digests) == 1
    expected = hashlib.sha256()
    for name in sorted(RELEASE):
        expected.update(f"{name}\0{hashlib.sha256(RELEASE[name]).hexdigest()}\n".encode())
    assert digests == {expected.hexdigest()}


def test_folder_sha256_changes_when_a_file_changes(tmp_path):
    folder = make_folder(tmp_path / "a", RELEASE)
    with open_release(folder, limits=LIMITS) as source:
        before = source.sha256
    (folder / "matrix.json").write_bytes(b'{"x": 1}')
    with open_release(folder, limits=LIMITS) as source:
        assert source.sha256 != before


# --- names that escape the root ---------------------------------------------------------------

ESCAPES = {
    "dotdot": "../etc/passwd",
    "nested-dotdot": "release/../../escape.txt",
    "absolute": "/etc/passwd",
    "drive-letter": "C:/Windows/evil.dll",
    "backslash": "..\\..\\evil.txt",
}


@pytest.mark.parametrize("bad", ESCAPES.values(), ids=ESCAPES.keys())
def test_it_refuses_zip_entries_that_escape_the_root(bad, tmp_path, scratch):
    err = refusal(make_zip(tmp_path / "evil.zip", {**RELEASE, bad: b"evil"}))
    assert err.rule == "path-escape"
    assert err.entry == bad
    assert f"archive entry {bad!r}" in str(err)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("bad", ESCAPES.values(), ids=ESCAPES.keys())
def test_it_refuses_tar_members_that_escape_the_root(bad, tmp_path, scratch):
    err = refusal(make_tar(tmp_path / "evil.tar.gz", {**RELEASE, bad: b"evil"}))
    assert (err.rule, err.entry) == ("path-escape", bad)
    assert list(scratch.iterdir()) == []
    assert not (tmp_path.parent / "escape.txt").exists()


def test_the_message_names_the_entry_and_the_rule(tmp_path):
    err = refusal(make_zip(tmp_path / "evil.zip", {**RELEASE, "../etc/passwd": b"x"}))
    assert str(err) == "archive entry '../etc/passwd': path escapes the release root"


def test_it_refuses_a_backslash_in_a_folder_file_name(tmp_path):
    folder = make_folder(tmp_path / "rel", {**RELEASE, "models\\..\\evil.json": b"{}"})
    err = refusal(folder)
    assert (err.rule, err.entry) == ("path-escape", "models\\..\\evil.json")


# --- links, devices, FIFOs --------------------------------------------------------------------


def test_it_refuses_a_tar_symlink_member(tmp_path):
    extra = [tar_special("models/evil.json", tarfile.SYMTYPE, "/etc/passwd")]
    err = refusal(make_tar(tmp_path / "r.tar.gz", RELEASE, extra))
    assert (err.rule, err.entry) == ("link", "models/evil.json")
    assert "/etc/passwd" in str(err)


def test_it_refuses_a_tar_hardlink_member(tmp_path):
    extra = [tar_special("models/evil.json", tarfile.LNKTYPE, "manifest.json")]
    err = refusal(make_tar(tmp_path / "r.tar.gz", RELEASE, extra))
    assert (err.rule, err.entry) == ("link", "models/evil.json")


@pytest.mark.parametrize(
    "kind", [tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE], ids=["char", "block", "fifo"]
)
def test_it_refuses_tar_device_and_fifo_members(kind, tmp_path):
    err = refusal(make_tar(tmp_path / "r.tar.gz", RELEASE, [tar_special("dev/x", kind)]))
    assert (err.rule, err.entry) == ("device", "dev/x")


def test_it_refuses_a_zip_symlink_entry(tmp_path):
    path = make_zip(tmp_path / "r.zip", RELEASE)
    with zipfile.ZipFile(path, "a") as archive:
        info = zipfile.ZipInfo("models/evil.json")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    err = refusal(path)
    assert (err.rule, err.entry) == ("link", "models/evil.json")


def test_it_refuses_a_zip_fifo_entry(tmp_path):
    path = make_zip(tmp_path / "r.zip", RELEASE)
    with zipfile.ZipFile(path, "a") as archive:
        info = zipfile.ZipInfo("pipe")
        info.create_system = 3
        info.external_attr = (stat.S_IFIFO | 0o644) << 16
        archive.writestr(info, "")
    assert refusal(path).rule == "device"


def test_it_refuses_a_symlinked_file_in_a_folder(tmp_path):
    folder = make_folder(tmp_path / "rel", RELEASE)
    os.symlink("/etc/passwd", folder / "models" / "sneaky.json")
    err = refusal(folder)
    assert (err.rule, err.entry) == ("link", "models/sneaky.json")
    assert "folder entry 'models/sneaky.json'" in str(err)


def test_it_refuses_a_symlinked_subfolder_in_a_folder(tmp_path):
    outside = make_folder(tmp_path / "outside", {"secret.json": b"{}"})
    folder = make_folder(tmp_path / "rel", RELEASE)
    os.symlink(outside, folder / "attempts" / "m2", target_is_directory=True)
    err = refusal(folder)
    assert (err.rule, err.entry) == ("link", "attempts/m2")


def test_it_refuses_a_symlinked_top_level_folder(tmp_path):
    real = make_folder(tmp_path / "real", RELEASE)
    wrapper = tmp_path / "wrapper"
    wrapper.mkdir()
    os.symlink(real, wrapper / "release", target_is_directory=True)
    assert refusal(wrapper).rule == "link"


def test_it_refuses_a_hard_linked_file_in_a_folder(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"secret")
    folder = make_folder(tmp_path / "rel", RELEASE)
    os.link(secret, folder / "tasks" / "t2.json")
    err = refusal(folder)
    assert (err.rule, err.entry) == ("link", "tasks/t2.json")


def test_it_refuses_a_fifo_in_a_folder(tmp_path):
    folder = make_folder(tmp_path / "rel", RELEASE)
    os.mkfifo(folder / "models" / "pipe.json")
    err = refusal(folder)
    assert (err.rule, err.entry) == ("device", "models/pipe.json")


def test_read_refuses_a_file_swapped_for_a_symlink_after_opening(tmp_path):
    folder = make_folder(tmp_path / "rel", RELEASE)
    with open_release(folder, limits=LIMITS) as source:
        (folder / "matrix.json").unlink()
        os.symlink("/etc/hostname", folder / "matrix.json")
        with pytest.raises(ReleaseReadError) as caught:
            source.read("matrix.json")
    assert caught.value.entry == "matrix.json"


# --- limits -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_an_oversized_single_file(kind, tmp_path, scratch):
    path = build(kind, tmp_path, {**RELEASE, "attempts/m1/t1/transcript.jsonl": b"x" * 5000})
    err = refusal(path, {**LIMITS, "file_max_bytes": 4999})
    assert (err.rule, err.entry) == ("too-large", "attempts/m1/t1/transcript.jsonl")
    assert "4999-byte limit" in str(err)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_file_exactly_at_the_size_limit_is_accepted(kind, tmp_path):
    path = build(kind, tmp_path, {**RELEASE, "big.bin": b"x" * 5000})
    with open_release(path, limits={**LIMITS, "file_max_bytes": 5000}) as source:
        assert source.size("big.bin") == 5000


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_too_many_entries(kind, tmp_path, scratch):
    files = {**RELEASE, **{f"tasks/t{i}.json": b"{}" for i in range(10, 30)}}
    err = refusal(build(kind, tmp_path, files), {**LIMITS, "archive_max_entries": 15})
    assert err.rule == "too-many-entries"
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_a_release_whose_total_size_is_too_large(kind, tmp_path, scratch):
    files = {**RELEASE, **{f"blobs/b{i}.bin": bytes(1000) for i in range(6)}}
    err = refusal(build(kind, tmp_path, files), {**LIMITS, "archive_max_bytes": 4000})
    assert err.rule == "total-too-large"
    assert err.entry is not None and err.entry.startswith("blobs/")
    assert list(scratch.iterdir()) == []


def fifty_mb_of_zeros_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", b"{}")
        archive.writestr("bomb.bin", bytes(50 * MiB))
    return path


def test_a_zip_bomb_fails_fast_and_leaves_nothing_behind(tmp_path, scratch):
    path = fifty_mb_of_zeros_zip(tmp_path / "bomb.zip")
    assert path.stat().st_size < MiB
    err = refusal(path, {**LIMITS, "file_max_bytes": MiB})
    assert (err.rule, err.entry) == ("too-large", "bomb.bin")
    assert list(scratch.iterdir()) == []


def patch_zip_declared_size(path: Path, name: str, size: int) -> None:
    """Make the central directory and local header both lie about ``name``'s size."""
    data = bytearray(path.read_bytes())
    eocd = data.rfind(b"PK\x05\x06")
    count, _, offset = struct.unpack("<HII", data[eocd + 10 : eocd + 20])
    for _ in range(count):
        name_len, extra_len, comment_len = struct.unpack("<HHH", data[offset + 28 : offset + 34])
        entry_name = data[offset + 46 : offset + 46 + name_len].decode()
        if entry_name == name:
            struct.pack_into("<I", data, offset + 24, size)
            local = struct.unpack("<I", data[offset + 42 : offset + 46])[0]
            struct.pack_into("<I", data, local + 22, size)
        offset += 46 + name_len + extra_len + comment_len
    path.write_bytes(bytes(data))


def test_a_zip_bomb_that_understates_its_size_is_still_stopped(tmp_path, scratch):
    path = fifty_mb_of_zeros_zip(tmp_path / "liar.zip")
    patch_zip_declared_size(path, "bomb.bin", 1000)
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo("bomb.bin").file_size == 1000
    err = refusal(path, {**LIMITS, "file_max_bytes": MiB})
    assert err.entry == "bomb.bin"
    assert err.rule in {"truncated", "too-large"}
    assert list(scratch.iterdir()) == []


def test_a_tar_gz_bomb_fails_fast_and_leaves_nothing_behind(tmp_path, scratch):
    path = tmp_path / "bomb.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        archive.addfile(*tar_file("manifest.json", b"{}"))
        archive.addfile(*tar_file("bomb.bin", bytes(50 * MiB)))
    assert path.stat().st_size < MiB
    err = refusal(path, {**LIMITS, "file_max_bytes": MiB})
    assert (err.rule, err.entry) == ("too-large", "bomb.bin")
    assert list(scratch.iterdir()) == []


def test_a_giant_tar_pax_header_is_refused_before_it_is_buffered(tmp_path, scratch):
    path = tmp_path / "pax.tar.gz"
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        archive.addfile(*tar_file("manifest.json", b"{}"))
        info, data = tar_file("x.json", b"{}")
        info.pax_headers = {"comment": "z" * (6 * MiB)}
        archive.addfile(info, data)
    err = refusal(path)
    assert err.rule == "too-large"
    assert "manifest.json" in str(err)
    assert list(scratch.iterdir()) == []


def test_a_tar_gz_with_a_huge_tail_after_the_end_marker_is_refused(tmp_path):
    plain = io.BytesIO()
    with tarfile.open(fileobj=plain, mode="w") as archive:
        for name, data in RELEASE.items():
            archive.addfile(*tar_file(name, data))
    path = tmp_path / "tail.tar.gz"
    path.write_bytes(gzip.compress(plain.getvalue() + bytes(8 * MiB)))
    assert refusal(path).rule == "trailing-data"


# --- not archives, damaged archives, missing things -------------------------------------------


def test_it_refuses_a_path_that_does_not_exist(tmp_path):
    err = refusal(tmp_path / "nowhere.zip")
    assert err.rule == "not-found"
    assert "nowhere.zip" in str(err)


@pytest.mark.parametrize("suffix", [".zip", ".tar.gz", ".tgz", ".json"])
def test_it_refuses_a_file_that_is_not_an_archive(suffix, tmp_path):
    path = tmp_path / f"release{suffix}"
    path.write_text('{"schema": "v1"}')
    err = refusal(path)
    assert err.rule == "not-an-archive"
    assert path.name in str(err)


def test_it_refuses_gzip_data_that_is_not_a_tar(tmp_path):
    path = tmp_path / "release.tar.gz"
    path.write_bytes(gzip.compress(b"just some text, no tar headers here\n" * 50))
    assert refusal(path).rule == "not-an-archive"


def test_it_refuses_a_truncated_zip(tmp_path, scratch):
    path = make_zip(tmp_path / "r.zip", {**RELEASE, "blob.bin": os.urandom(100_000)})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    err = refusal(path)
    assert err.rule == "truncated"
    assert list(scratch.iterdir()) == []


def test_it_refuses_a_zip_whose_data_is_corrupt(tmp_path, scratch):
    path = make_zip(tmp_path / "r.zip", {**RELEASE, "blob.bin": b"abc" * 50_000})
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("blob.bin")
    data = bytearray(path.read_bytes())
    middle = info.header_offset + 30 + len("blob.bin") + info.compress_size // 2
    data[middle] ^= 0xFF
    path.write_bytes(bytes(data))
    err = refusal(path)
    assert (err.rule, err.entry) == ("truncated", "blob.bin")
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.95, -4], ids=["30%", "60%", "95%", "no-trailer"])
def test_it_refuses_a_truncated_tar_gz(keep, tmp_path, scratch):
    files = {**RELEASE, "a.bin": os.urandom(60_000), "b.bin": os.urandom(60_000)}
    path = make_tar(tmp_path / "r.tar.gz", files)
    data = path.read_bytes()
    path.write_bytes(data[:keep] if isinstance(keep, int) else data[: int(len(data) * keep)])
    err = refusal(path)
    assert err.rule == "truncated"
    assert "truncated" in str(err)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_a_release_without_a_manifest(kind, tmp_path, scratch):
    files = {n: d for n, d in RELEASE.items() if n != "manifest.json"}
    err = refusal(build(kind, tmp_path, files, "release/"))
    assert err.rule == "no-manifest"
    assert "manifest.json" in str(err)
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_it_refuses_two_top_level_folders(kind, tmp_path):
    files = {f"{top}/{n}": d for top in ("one", "two") for n, d in RELEASE.items()}
    err = refusal(build(kind, tmp_path, files))
    assert err.rule == "no-manifest"
    assert "'one'" in str(err) and "'two'" in str(err)


def test_it_refuses_a_manifest_two_folders_deep(tmp_path):
    err = refusal(build("zip", tmp_path, RELEASE, "outer/inner/"))
    assert err.rule == "no-manifest"


def test_it_refuses_duplicate_zip_entries(tmp_path):
    path = make_zip(tmp_path / "r.zip", RELEASE)
    with pytest.warns(UserWarning), zipfile.ZipFile(path, "a") as archive:
        archive.writestr("matrix.json", b'{"second": true}')
    err = refusal(path)
    assert (err.rule, err.entry) == ("duplicate", "matrix.json")


def test_it_refuses_a_tar_member_that_runs_through_a_file(tmp_path):
    err = refusal(make_tar(tmp_path / "r.tar.gz", {**RELEASE, "matrix.json/x": b"{}"}))
    assert (err.rule, err.entry) == ("duplicate", "matrix.json/x")


# --- temp files -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_the_temp_dir_is_removed_on_close(kind, tmp_path, scratch):
    source = open_release(build(kind, tmp_path, RELEASE), limits=LIMITS)
    assert len(list(scratch.iterdir())) == 1
    source.close()
    assert list(scratch.iterdir()) == []
    source.close()  # closing twice is harmless
    with pytest.raises(ValueError):
        source.read("manifest.json")


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_the_temp_dir_is_removed_when_the_with_block_raises(kind, tmp_path, scratch):
    with pytest.raises(RuntimeError), open_release(build(kind, tmp_path, RELEASE), limits=LIMITS):
        assert len(list(scratch.iterdir())) == 1
        raise RuntimeError("caller failed")
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_the_temp_dir_is_removed_when_opening_fails_part_way(kind, tmp_path, scratch):
    # The oversized file comes last, so earlier files are already unpacked when it fails.
    files = {**RELEASE, "zz/late.bin": bytes(3000)}
    err = refusal(build(kind, tmp_path, files), {**LIMITS, "archive_max_bytes": 2500})
    assert err.rule == "total-too-large"
    assert list(scratch.iterdir()) == []


# --- limits come from settings by default -----------------------------------------------------


def test_default_limits_are_read_from_settings_at_call_time(tmp_path, monkeypatch):
    folder = build("folder", tmp_path, RELEASE)
    fake = SimpleNamespace(BENCHVIEW_LIMITS={**LIMITS})
    monkeypatch.setattr(reader, "settings", fake)
    with open_release(folder) as source:
        assert source.exists("manifest.json")
    fake.BENCHVIEW_LIMITS = {**LIMITS, "file_max_bytes": 10}
    assert refusal_without_limits(folder).rule == "too-large"


def test_missing_limit_keys_fall_back_to_settings(tmp_path, monkeypatch):
    folder = build("folder", tmp_path, RELEASE)
    monkeypatch.setattr(reader, "settings", SimpleNamespace(BENCHVIEW_LIMITS={**LIMITS}))
    with pytest.raises(ReleaseReadError) as caught:
        open_release(folder, limits={"archive_max_entries": 3})
    assert caught.value.rule == "too-many-entries"


def test_a_killed_readers_unpacked_folder_is_removed_by_the_next_open(tmp_path, scratch):
    from tests import children

    archive = build("tar", tmp_path, RELEASE)
    child = children.start(
        """
        import json, sys, time
        from formats.reader import open_release
        source = open_release(sys.argv[1], limits=json.loads(sys.argv[2]))
        print("unpacked", flush=True)
        time.sleep(120)
        """,
        env={"TMPDIR": str(scratch)},
        args=[str(archive), json.dumps(LIMITS)],
    )
    try:
        children.ready(child, "unpacked")
        (left,) = scratch.iterdir()
        # While its owner lives, another open leaves the folder alone.
        with open_release(archive, limits=LIMITS):
            assert left.exists()
    finally:
        children.kill9(child)
    assert left.exists()  # kill -9 removed nothing
    with open_release(archive, limits=LIMITS) as source:
        assert not left.exists()
        assert source.read("matrix.json") == b"{}"
    assert list(scratch.iterdir()) == []


# --- open_tree: any root, same limits --------------------------------------------------------

JOBS = {
    "job-a/result.json": b"{}",
    "job-a/fix-bug__abc1234/result.json": b"{}",
    "job-b/result.json": b"{}",
}


@pytest.mark.parametrize("kind", KINDS)
def test_open_tree_reads_a_tree_without_a_manifest_and_strips_nothing(kind, tmp_path):
    path = build(kind, tmp_path, JOBS)
    with reader.open_tree(path, limits=LIMITS) as source:
        assert source.names() == sorted(JOBS)
        assert source.read("job-a/fix-bug__abc1234/result.json") == b"{}"
    # The same tree is no release.
    assert refusal(path).rule == "no-manifest"


@pytest.mark.parametrize("kind", KINDS)
def test_open_tree_keeps_the_size_and_escape_refusals(kind, tmp_path):
    big = build(kind, tmp_path, {"job/result.json": b"x" * (2 * MiB + 1)})
    with pytest.raises(ReleaseReadError) as caught:
        reader.open_tree(big, limits=LIMITS)
    assert caught.value.rule == "too-large"


def test_open_tree_refuses_an_escaping_archive_entry(tmp_path):
    path = make_zip(tmp_path / "evil.zip", {"../result.json": b"{}"})
    with pytest.raises(ReleaseReadError) as caught:
        reader.open_tree(path, limits=LIMITS)
    assert caught.value.rule == "path-escape"
