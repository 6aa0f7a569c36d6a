"""Import records and jobs: who brought which release in, when, how far, with what outcome."""

from django.conf import settings
from django.db import models

from ingest.progress import Phase


class ImportRecord(models.Model):
    class Action(models.TextChoices):
        IMPORT = "import", "import"
        DRY_RUN = "dry-run", "dry run"
        PREVIEW = "preview", "preview"
        PUBLISH = "publish", "publish"
        UNPUBLISH = "unpublish", "unpublish"

    class Outcome(models.TextChoices):
        APPLIED = "applied", "applied"
        NO_CHANGE = "no-change", "no change"
        CHECKED = "checked", "checked, nothing written"
        REFUSED = "refused", "refused"
        FAILED = "failed", "failed"

    class Via(models.TextChoices):
        COMMAND = "command", "command line"
        ADMIN = "admin", "admin"

    created_at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    via = models.CharField(max_length=32, choices=Via, default=Via.COMMAND)
    action = models.CharField(max_length=16, choices=Action)
    outcome = models.CharField(max_length=16, choices=Outcome)
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
    """Who holds the import lock, for the refusal message (ingest.running.locks): informational.

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


class ImportJob(models.Model):
    """An admin import run by a worker (``manage.py db_worker``), from queued to done.

    The job's own row is written only outside the import's transaction (when
    it starts and when it ends); what happens in between is in its
    ``ImportJobLive`` row, which a separate connection keeps current.
    """

    class State(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    created_at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    source_name = models.CharField(max_length=500)
    path = models.TextField(help_text="the release on the server, read by the worker")
    staging_token = models.CharField(max_length=64, blank=True, help_text="its staged folder")
    expected_sha256 = models.CharField(max_length=64)
    bench = models.CharField(
        max_length=100, blank=True, help_text="for Harbor jobs: the bench they go into"
    )
    exceptions_rule = models.CharField(
        max_length=32,
        default="harbor",
        help_text="for Harbor jobs: how a trial that raised is scored",
    )
    staged = models.BooleanField(default=False, help_text="new batches stay staff-only")
    scrub = models.BooleanField(
        default=True, help_text="for Harbor jobs: rewrite home paths and host names, or refuse"
    )
    harbor_models = models.JSONField(
        null=True, blank=True, help_text="for Harbor jobs: the models file's entries, if given"
    )
    chunked = models.BooleanField(
        default=False,
        help_text="written a chunk at a time into a hidden bench, swapped in at the end "
        "(ingest.writing.chunked); one bench only",
    )
    state = models.CharField(max_length=16, choices=State, default=State.QUEUED)
    task_id = models.CharField(max_length=64, blank=True, help_text="its task in the queue")
    tries = models.PositiveIntegerField(default=1)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    worker_host = models.CharField(max_length=255, blank=True)
    worker_pid = models.PositiveIntegerField(null=True, blank=True)
    record = models.ForeignKey(ImportRecord, null=True, blank=True, on_delete=models.SET_NULL)
    error = models.TextField(blank=True, help_text="why it failed, when it did")
    # An input of several benches (ingest.running.several): one job imports them all.
    several = models.JSONField(
        default=dict,
        blank=True,
        help_text='for an input of several benches: {"adapter": its format, "benches": '
        '[{"bench", "sha256"}]}, each bench with the content hash of its preview',
    )
    records = models.ManyToManyField(
        ImportRecord,
        blank=True,
        related_name="several_jobs",
        help_text="for an input of several benches: each bench's import record, of the last try",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["state"], name="importjob_state")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state__in=["queued", "running", "done", "failed"]),
                name="importjob_state_known",
            )
        ]

    def __str__(self) -> str:
        return f"import job {self.pk}: {self.source_name} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)


class ImportJobLive(models.Model):
    """A running job's progress and heartbeat, written mid-transaction.

    It is read and written through the ``progress`` database alias (see
    ``ingest.routers``): on PostgreSQL a second connection to the same
    database, on SQLite a small file of its own, because SQLite lets no other
    connection write while the import holds its one write lock. Hence a plain
    job id, not a foreign key.
    """

    job_id = models.BigIntegerField(primary_key=True)
    phase = models.CharField(max_length=16, choices=Phase, default=Phase.READING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    events = models.PositiveBigIntegerField(default=0)
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(help_text="last sign of life of the worker")
    host = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["job_id"]

    def __str__(self) -> str:
        return f"job {self.job_id}: {self.phase} {self.done}/{self.total}"
