"""Blob files in Django's default storage: a local folder, or an S3 bucket (config/hosts.py).

The keys are the same in both (``blobs/<aa>/<sha256>``). What differs is listing
(on S3 a prefix is not an object: ``exists("blobs")`` is false however many
keys start with it, so the keys themselves are listed) and serving (a large
blob's bytes can come straight from the bucket through a presigned URL).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.core.files.storage import default_storage

from trajectories.models import BLOB_FOLDER, Blob

# S3 deletes at most this many keys per request.
_DELETE_BATCH = 1000
# How long a process trusts what it read of the bucket's CORS rules.
_CORS_TTL_S = 300.0
_cors_seen: dict[str, tuple[float, bool]] = {}


def _bucket():
    """The boto3 bucket behind the default storage, or None for a local folder."""
    return getattr(default_storage, "bucket", None) if settings.BENCHVIEW_S3_BUCKET else None


def stored_names() -> Iterator[str]:
    """Every blob file's name in storage."""
    bucket = _bucket()
    if bucket is not None:
        for summary in bucket.objects.filter(Prefix=f"{BLOB_FOLDER}/"):
            yield summary.key
        return
    if not default_storage.exists(BLOB_FOLDER):
        return
    folders, files = default_storage.listdir(BLOB_FOLDER)
    yield from (f"{BLOB_FOLDER}/{name}" for name in files)
    for folder in folders:
        for name in default_storage.listdir(f"{BLOB_FOLDER}/{folder}")[1]:
            yield f"{BLOB_FOLDER}/{folder}/{name}"


def delete(names: Iterable[str]) -> int:
    """Delete the named blob files; returns how many were asked for."""
    names = list(names)
    bucket = _bucket()
    if bucket is None:
        for name in names:
            default_storage.delete(name)
        return len(names)
    for start in range(0, len(names), _DELETE_BATCH):
        keys = [{"Key": name} for name in names[start : start + _DELETE_BATCH]]
        bucket.delete_objects(Delete={"Objects": keys, "Quiet": True})
    return len(names)


def redirect_url(blob: Blob) -> str | None:
    """A short-lived presigned URL of a stored blob, where the mirror may send a client.

    Only with a bucket, BENCHVIEW_S3_BLOB_SERVE=redirect, and a bucket whose CORS
    rules let any origin GET: the mirror's files are open to every origin, and a
    redirect to a bucket that is not would break a browser's cross-origin fetch.
    """
    if blob.data is not None or settings.BENCHVIEW_S3_BLOB_SERVE != "redirect":
        return None
    bucket = _bucket()
    if bucket is None or not _cors_open(bucket):
        return None
    return default_storage.url(blob.storage_name)


def _cors_open(bucket) -> bool:
    now = time.monotonic()
    seen = _cors_seen.get(bucket.name)
    if seen is not None and now - seen[0] < _CORS_TTL_S:
        return seen[1]
    from botocore.exceptions import ClientError

    try:
        rules = bucket.Cors().cors_rules or []
    except ClientError:
        rules = []  # NoSuchCORSConfiguration: no cross-origin reads at all
    open_to_all = any(
        "*" in rule.get("AllowedOrigins", []) and "GET" in rule.get("AllowedMethods", [])
        for rule in rules
    )
    _cors_seen[bucket.name] = (now, open_to_all)
    return open_to_all
