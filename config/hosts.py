"""Settings for running on several hosts (docs/deploy.md): object storage and a read replica.

Both are off unless their variable is set, so one machine keeps needing nothing:
``BENCHVIEW_S3_BUCKET`` puts blobs, admin uploads and the import folder into one
S3 bucket (django-storages); ``DATABASE_REPLICA_URL`` sends anonymous page reads
to a streaming replica (core/replica.py).
"""

from __future__ import annotations

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import envint

S3_BUCKET = os.environ.get("BENCHVIEW_S3_BUCKET") or ""
# Where a large blob's bytes come from when a mirror file is asked for: "redirect"
# (to a short-lived presigned URL of the bucket, only if the bucket's CORS lets any
# origin GET, as the mirror's own answers do) or "stream" (through the web host).
BLOB_SERVE_CHOICES = ("redirect", "stream")
# Prefixes of the bucket beside blobs/<aa>/<sha256> (trajectories.models.BLOB_FOLDER).
UPLOAD_PREFIX = "uploads"
IMPORT_PREFIX = "imports"


def storages(*, manifest_static: bool, bucket: str = S3_BUCKET) -> dict:
    """Django's STORAGES: the bucket when BENCHVIEW_S3_BUCKET is set, else MEDIA_ROOT."""
    default = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if bucket:
        endpoint = os.environ.get("BENCHVIEW_S3_ENDPOINT_URL") or None
        default = {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": bucket,
                "endpoint_url": endpoint,
                "region_name": os.environ.get("BENCHVIEW_S3_REGION") or None,
                # Keys as on disk (blobs/<aa>/<sha256>): the bucket root, no prefix.
                "location": "",
                # Nothing in the bucket is public: reads go through the site or a
                # presigned URL that lives this many seconds.
                "default_acl": None,
                "querystring_auth": True,
                "querystring_expire": envint("BENCHVIEW_S3_URL_EXPIRE_S", 300),
                # Blob keys are content hashes: the same name is the same bytes.
                "file_overwrite": True,
                # Servers other than AWS (Ceph's RADOS Gateway, MinIO) seldom have
                # a DNS name per bucket.
                "addressing_style": os.environ.get("BENCHVIEW_S3_ADDRESSING_STYLE")
                or ("path" if endpoint else None),
                "signature_version": "s3v4",
            },
        }
    return {
        "default": default,
        "staticfiles": {
            "BACKEND": (
                "whitenoise.storage.CompressedManifestStaticFilesStorage"
                if manifest_static
                else "django.contrib.staticfiles.storage.StaticFilesStorage"
            )
        },
    }


def blob_serve() -> str:
    value = os.environ.get("BENCHVIEW_S3_BLOB_SERVE") or "redirect"
    if value not in BLOB_SERVE_CHOICES:
        raise ImproperlyConfigured(
            f"BENCHVIEW_S3_BLOB_SERVE={value!r}: use one of {', '.join(BLOB_SERVE_CHOICES)}"
        )
    return value


def blob_db_max_bytes() -> int:
    """Blobs above this size go to file storage. With a bucket the database keeps only
    small ones: at a leaderboard's size (a terabyte of blobs) 4 MiB each would put
    most of it into PostgreSQL, its backups and its replicas."""
    return envint("BENCHVIEW_BLOB_DB_MAX_BYTES", 64 * 1024 if S3_BUCKET else 4 * 1024**2)


def replica_database(default: dict) -> dict | None:
    """The "replica" alias from DATABASE_REPLICA_URL, or None.

    Its connections time out quickly and are checked before each request reuses
    them, so a replica that stops answering costs a request little before the
    router (core/replica.py) falls back to the primary. In tests it mirrors the
    test database.
    """
    url = os.environ.get("DATABASE_REPLICA_URL") or ""
    if not url:
        return None
    replica = dj_database_url.parse(url, conn_max_age=default.get("CONN_MAX_AGE", 0))
    if replica["ENGINE"] != default["ENGINE"]:
        raise ImproperlyConfigured("DATABASE_REPLICA_URL must name the same kind of database")
    if replica["ENGINE"] == "django.db.backends.postgresql":
        timeout = envint("BENCHVIEW_REPLICA_CONNECT_TIMEOUT_S", 2)
        replica.setdefault("OPTIONS", {})["connect_timeout"] = timeout
    replica["CONN_HEALTH_CHECKS"] = True
    replica["TEST"] = {"MIRROR": "default"}
    return replica
