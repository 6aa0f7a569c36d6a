"""Releases staff may pick on the server: entries of BENCHVIEW_IMPORT_DIR, nothing else."""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings

from ingest.running import bucket

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")


class OutsideImportDir(Exception):
    """The picked name does not stay inside the import folder."""


def import_dir() -> Path:
    return Path(settings.BENCHVIEW_IMPORT_DIR)


def candidates() -> list[str]:
    """Top-level folders and archives of the import folder, by name.

    Entries that resolve outside it (symbolic links included) are left out;
    ``resolve`` refuses them again when one is picked.
    """
    if bucket.bucket() is not None:
        return bucket.import_entries(ARCHIVE_SUFFIXES)
    root = import_dir()
    if not root.is_dir():
        return []
    names = []
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                path = resolve(entry.name)
            except OutsideImportDir:
                continue
            if path.is_dir() or (path.is_file() and entry.name.endswith(ARCHIVE_SUFFIXES)):
                names.append(entry.name)
    return sorted(names)


def resolve(name: str) -> Path:
    """The real path of ``name`` (relative to the import folder), if it stays inside."""
    root = import_dir().resolve()
    if not name or os.path.isabs(name) or "\x00" in name:
        raise OutsideImportDir(f"{name!r} is not a name inside the import folder")
    path = (root / name).resolve()
    if path == root or not path.is_relative_to(root):
        raise OutsideImportDir(f"{name!r} resolves outside the import folder")
    return path


def fetch(name: str, into: Path) -> Path:
    """With a bucket: copy the entry ``name`` of imports/ to ``into``/``name``."""
    if not name or name.startswith(("/", ".")) or "\x00" in name or ".." in name.split("/"):
        raise OutsideImportDir(f"{name!r} is not a name inside the import folder")
    if "/" in name.rstrip("/"):
        raise OutsideImportDir(f"{name!r} is not a top-level entry of the import folder")
    path = into / name
    into.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not bucket.get_tree(bucket.import_key(name), path):
        raise OutsideImportDir(f"{name!r} is not in the import folder")
    return path


def location() -> str:
    """Where the import folder is, for the admin's start page."""
    if bucket.bucket() is not None:
        return f"s3://{settings.BENCHVIEW_S3_BUCKET}/{bucket.import_key('')}"
    return str(import_dir())
