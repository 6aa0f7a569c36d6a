"""Private folders that hold a release between its preview and its apply.

Each pending import gets ``<BENCHVIEW_UPLOAD_DIR>/<token>/`` with ``meta.json``
(where the release is and its hash at preview), ``preview.json`` (what the
preview page shows) and, for an upload, the archive under ``upload/``. The
token is random and lives in the staff member's session; the folder is removed
when the import is applied, refused or cancelled, and swept a day later if the
browser simply went away. With an S3 bucket (ingest.running.bucket) the folder
is shared through it once previewed, so any web host or worker can find it; the
local folder is then only the scratch copy of the host that needs it.
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

from ingest.running import bucket

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
        if path.is_dir() and not path.is_symlink():
            return cls(token, path)
        if bucket.bucket() is not None and bucket.has(bucket.upload_key(token, "meta.json")):
            return cls(token, path)  # in the bucket; fetched here only when needed
        return None

    @property
    def upload_dir(self) -> Path:
        return self.path / "upload"

    def write(self, name: str, document: dict) -> None:
        (self.path / name).write_text(json.dumps(document), encoding="utf-8")

    def read(self, name: str) -> dict:
        path = self.path / name
        if not path.exists() and bucket.bucket() is not None:
            return json.loads(bucket.read(bucket.upload_key(self.token, name)))
        return json.loads(path.read_text(encoding="utf-8"))

    def upload_path(self, name: str) -> Path:
        """The uploaded archive (or picked folder) ``name``, fetched from the bucket
        if this host does not hold it."""
        path = self.upload_dir / name
        if not path.exists() and bucket.bucket() is not None:
            bucket.get_tree(bucket.upload_key(self.token, f"upload/{name}"), path)
        return path

    def share(self) -> None:
        """With a bucket: copy the folder there for the other hosts, and drop this
        host's copy (the bucket is where staged releases live)."""
        if bucket.bucket() is None:
            return
        bucket.put_tree(self.path, bucket.upload_key(self.token))
        shutil.rmtree(self.path, ignore_errors=True)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if bucket.bucket() is not None:
            bucket.delete_prefix(bucket.upload_key(self.token) + "/")


def sweep_stale(*, now: float | None = None) -> int:
    """Remove staged folders older than ``upload_stale_s``; returns how many."""
    limit = settings.BENCHVIEW_LIMITS["upload_stale_s"]
    now = time.time() if now is None else now
    removed = 0
    if bucket.bucket() is not None:
        for token in bucket.stale_upload_tokens(limit, now=now):
            bucket.delete_prefix(bucket.upload_key(token) + "/")
            removed += 1
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
