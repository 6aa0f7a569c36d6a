"""Import records: who brought which release in, when, and with what outcome."""

from django.conf import settings
from django.db import models


class ImportRecord(models.Model):
    ACTIONS = [
        ("import", "import"),
        ("dry-run", "dry run"),
        ("preview", "preview"),
        ("publish", "publish"),
        ("unpublish", "unpublish"),
    ]
    OUTCOMES = [
        ("applied", "applied"),
        ("no-change", "no change"),
        ("checked", "checked, nothing written"),
        ("refused", "refused"),
        ("failed", "failed"),
    ]

    created_at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    via = models.CharField(max_length=32, default="command", help_text="command or admin")
    action = models.CharField(max_length=16, choices=ACTIONS)
    outcome = models.CharField(max_length=16, choices=OUTCOMES)
    source_name = models.CharField(max_length=500, blank=True)
    source_sha256 = models.CharField(max_length=64, blank=True)
    bench = models.CharField(max_length=100, blank=True)
    revision = models.CharField(max_length=100, blank=True)
    staged = models.BooleanField(default=False)
    summary = models.JSONField(default=dict, blank=True)
    problems = models.JSONField(default=list, blank=True)
    message = models.TextField(blank=True)
    duration_s = models.FloatField(default=0.0)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # Admin history: newest first.
            models.Index(fields=["-created_at"], name="importrecord_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.bench or self.source_name} ({self.outcome})"


class ImportLock(models.Model):
    """Who holds the import lock, for the refusal message (ingest.locks): informational only.

    On PostgreSQL the running import writes this row next to its advisory lock,
    which is what excludes a second import; a row left by a killed import
    excludes nothing and is overwritten by the next. SQLite keeps the same
    note in the lock file instead.
    """

    name = models.CharField(max_length=64)
    holder = models.CharField(max_length=300, help_text="who imports what, for the refusal")
    started_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["name"], name="importlock_unique_name")]

    def __str__(self) -> str:
        return f"{self.name}: {self.holder}"
