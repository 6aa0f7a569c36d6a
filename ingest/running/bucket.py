"""Staged imports and the import folder in the S3 bucket, when there is one (docs/deploy.md).

With BENCHVIEW_S3_BUCKET set, an admin upload previewed on one web host is
applied by a worker on another: its staged folder is copied to
``uploads/<token>/`` in the bucket and fetched back by whichever host needs it.
The import folder is the bucket's ``imports/`` prefix: its top-level "folders"
(common prefixes) and archives are what staff may pick. Local folders remain
each host's scratch space only.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage

from config.hosts import IMPORT_PREFIX, UPLOAD_PREFIX

_DELETE_BATCH = 1000


def bucket():
    """The boto3 bucket of the default storage, or None when files are local."""
    return default_storage.bucket if settings.BENCHVIEW_S3_BUCKET else None


def put_tree(local: Path, prefix: str) -> None:
    """Copy every file under ``local`` to keys under ``prefix``."""
    target = bucket()
    for root, _dirs, files in os.walk(local):
        for name in files:
            path = Path(root) / name
            key = f"{prefix}/{path.relative_to(local).as_posix()}"
            target.upload_file(str(path), key)


def get_tree(prefix: str, local: Path) -> int:
    """Copy every key under ``prefix`` (a key or a "folder") into ``local``; how many."""
    source = bucket()
    count = 0
    for summary in source.objects.filter(Prefix=prefix):
        rest = summary.key[len(prefix) :].lstrip("/")
        if summary.key != prefix and not summary.key.startswith(prefix + "/"):
            continue  # "a/b" is not under "a/bc"
        path = local / rest if rest else local
        if ".." in Path(rest).parts:
            continue
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        source.download_file(summary.key, str(path))
        count += 1
    return count


def read(key: str) -> bytes:
    return bucket().Object(key).get()["Body"].read()


def has(key: str) -> bool:
    return bool(list(bucket().objects.filter(Prefix=key).limit(1)))


def delete_prefix(prefix: str) -> None:
    target = bucket()
    keys = [{"Key": s.key} for s in target.objects.filter(Prefix=prefix)]
    for start in range(0, len(keys), _DELETE_BATCH):
        target.delete_objects(Delete={"Objects": keys[start : start + _DELETE_BATCH]})


def upload_key(token: str, name: str = "") -> str:
    return f"{UPLOAD_PREFIX}/{token}" + (f"/{name}" if name else "")


def stale_upload_tokens(older_than_s: float, *, now: float) -> set[str]:
    """Tokens under uploads/ whose newest key is older than ``older_than_s``."""
    newest: dict[str, float] = {}
    for summary in bucket().objects.filter(Prefix=f"{UPLOAD_PREFIX}/"):
        token = summary.key.split("/")[1]
        stamp = summary.last_modified.astimezone(UTC).timestamp()
        newest[token] = max(newest.get(token, 0.0), stamp)
    return {token for token, stamp in newest.items() if now - stamp > older_than_s}


def import_entries(suffixes: tuple[str, ...]) -> list[str]:
    """Top-level folders and archives under imports/, by name."""
    client = bucket().meta.client
    pages = client.get_paginator("list_objects_v2").paginate(
        Bucket=settings.BENCHVIEW_S3_BUCKET, Prefix=f"{IMPORT_PREFIX}/", Delimiter="/"
    )
    names = set()
    for page in pages:
        for common in page.get("CommonPrefixes", []):
            names.add(common["Prefix"][len(IMPORT_PREFIX) + 1 :].rstrip("/"))
        for item in page.get("Contents", []):
            name = item["Key"][len(IMPORT_PREFIX) + 1 :]
            if name.endswith(suffixes):
                names.add(name)
    return sorted(n for n in names if n and not n.startswith("."))


def import_key(name: str) -> str:
    return f"{IMPORT_PREFIX}/{name}"


def now() -> float:
    return datetime.now(UTC).timestamp()
