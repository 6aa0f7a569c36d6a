"""Django, set up for a command: the environment first, then ``django.setup()``."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

# Settings a ``view`` folder must not inherit from the shell: they would send its
# files, cache or rate limit elsewhere.
_PLACED = (
    "MEDIA_ROOT",
    "BENCHVIEW_CACHE_DIR",
    "BENCHVIEW_IMPORT_DIR",
    "BENCHVIEW_LOCK_DIR",
    "BENCHVIEW_UPLOAD_DIR",
    "BENCHVIEW_REDIS_URL",
    "BENCHVIEW_S3_BUCKET",
    "DATABASE_URL",
    "DATABASE_REPLICA_URL",
)


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def local_site(folder: Path, *, host: str) -> None:
    """Point the settings at ``folder`` (its own SQLite database, whatever
    DATABASE_URL says), DEBUG off, plain HTTP, served to ``host``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in _PLACED:
        os.environ.pop(name, None)
    key_file = folder / "secret-key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    os.environ.update(
        {
            "BENCHVIEW_DATA_DIR": str(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "SECRET_KEY": key_file.read_text().strip(),
            "DEBUG": "false",
            "BENCHVIEW_HTTPS": "false",
            "BENCHVIEW_MANIFEST_STATIC": "false",
            "ALLOWED_HOSTS": _allowed(host),
        }
    )
    setup()


def _allowed(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):  # noqa: S104 - recognising, not binding
        return "*"  # every address of the machine: its names are not known here
    return ",".join(dict.fromkeys([host, "127.0.0.1", "localhost", "[::1]"]))
