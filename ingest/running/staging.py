"""Private folders that hold a release between its preview and its apply.

Each pending import gets ``<BENCHVIEW_UPLOAD_DIR>/<token>/`` with ``meta.json``
(where the release is and its hash at preview), ``preview.json`` (what the
preview page shows) and, for an upload, the archive under ``upload/``. The
token is random and lives in the staff member's session; the folder is removed
when the import is applied, refused or cancelled, and swept a day later if the
browser simply went away.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import time
from pathlib import Path

from django.conf import settings

_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")


def staging_root() -> Path:
    root = Path(settings.BENCHVIEW_UPLOAD_DIR)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return root


class Staged:
    """One pending import's private folder."""

    def __init__(self, token: str, path: Path):
        self.token = token
        self.path = path

    @classmethod
    def create(cls) -> Staged:
        token = secrets.token_urlsafe(24)  # 32 characters
        path = staging_root() / token
        path.mkdir(mode=0o700)
        return cls(token, path)

    @classmethod
    def find(cls, token: str) -> Staged | None:
        """The folder of ``token``, or None; a malformed token finds nothing."""
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return None
        path = staging_root() / token
        return cls(token, path) if path.is_dir() and not path.is_symlink() else None

    @property
    def upload_dir(self) -> Path:
        return self.path / "upload"

    def write(self, name: str, document: dict) -> None:
        (self.path / name).write_text(json.dumps(document), encoding="utf-8")

    def read(self, name: str) -> dict:
        return json.loads((self.path / name).read_text(encoding="utf-8"))

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def sweep_stale(*, now: float | None = None) -> int:
    """Remove staged folders older than ``upload_stale_s``; returns how many."""
    limit = settings.BENCHVIEW_LIMITS["upload_stale_s"]
    now = time.time() if now is None else now
    removed = 0
    with os.scandir(staging_root()) as entries:
        for entry in entries:
            if not _TOKEN.fullmatch(entry.name):
                continue
            try:
                age = now - entry.stat(follow_symlinks=False).st_mtime
            except FileNotFoundError:
                continue
            if age > limit:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
                removed += 1
    return removed
