"""Send a running import's progress rows through their own connection.

An import writes in one transaction; its job page must see progress before it
commits. ``ImportJobLive`` is therefore read and written through the
``progress`` alias (config/settings.py): on PostgreSQL a second connection to
the same database, whose autocommitted updates are visible at once; on SQLite,
which admits one writer per file, a side file next to the database.
"""

from __future__ import annotations

from django.conf import settings

PROGRESS_DB = "progress"
_LIVE = "importjoblive"


def progress_has_own_file() -> bool:
    return settings.DATABASES[PROGRESS_DB]["ENGINE"] == "django.db.backends.sqlite3"


class ProgressRouter:
    def db_for_read(self, model, **hints):
        return PROGRESS_DB if model._meta.model_name == _LIVE else None

    db_for_write = db_for_read

    def allow_relation(self, obj1, obj2, **hints):
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # The table is migrated on "default" (where PostgreSQL uses it). On
        # SQLite the side file holds only it: created by ingest.running.job_live on
        # first use, or by migrations (the test databases are built so).
        if db == PROGRESS_DB:
            return model_name == _LIVE and progress_has_own_file()
        return None
