"""The evidence of one attempt: events, vendor requests, patch, transcript, ticket.

Events and requests are one row each, so pages filter and count them in SQL.
Each row keeps the rest of its JSON entry in ``doc`` so the mirror can give
the document back exactly as imported (unknown keys included).
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import models
from django.db.models import Q

from core import jsonsafe
from formats.v1 import sizes
from leaderboard.models import Attempt, CheckResult

# Where large blobs go in Django's default storage: BLOB_FOLDER/<2 hex>/<sha256>.
BLOB_FOLDER = "blobs"


class Blob(models.Model):
    """Bytes addressed by their SHA-256: patches, raw transcripts, tickets.

    Small blobs live in the database; past ``blob_db_max_bytes`` they go to
    Django's storage (a folder by default, object storage in production).
    """

    sha256 = models.CharField(max_length=64, primary_key=True)
    size = models.BigIntegerField()
    data = models.BinaryField(null=True, blank=True)
    storage_name = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(data__isnull=False) | ~Q(storage_name=""),
                name="blob_has_content",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sha256[:12]} ({self.size} bytes)"

    @classmethod
    def store(cls, digest: str, content: bytes) -> Blob:
        """Store ``content``, whose SHA-256 the caller computed and found not stored.

        The file is written at once, inside the caller's transaction: a file
        whose row is rolled back or never committed (a refused or killed
        import) is removed by trajectories.services.blob_files_sweep.
        """
        if len(content) > settings.BENCHVIEW_LIMITS["blob_db_max_bytes"]:
            name = f"{BLOB_FOLDER}/{digest[:2]}/{digest}"
            if not default_storage.exists(name):
                name = default_storage.save(name, ContentFile(content))
            return cls.objects.create(sha256=digest, size=len(content), storage_name=name)
        return cls.objects.create(sha256=digest, size=len(content), data=content)

    def read(self) -> bytes:
        if self.data is not None:
            return bytes(self.data)
        with default_storage.open(self.storage_name, "rb") as handle:
            return handle.read()

    def text(self) -> str:
        return self.read().decode("utf-8", errors="replace")


class Evidence(models.Model):
    """Per-attempt documents that are not rows, and counts computed at import."""

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="evidence")
    # trajectory.json without its events.
    trajectory = models.JSONField(default=dict)
    # vendor-requests.json without its vendors' entries; None: the file was absent.
    vendor_log = models.JSONField(null=True, blank=True)
    vendor_order = models.JSONField(default=list, blank=True)
    patch = models.ForeignKey(
        Blob, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    transcript = models.ForeignKey(Blob, on_delete=models.PROTECT, related_name="+")
    problem = models.ForeignKey(Blob, on_delete=models.PROTECT, related_name="+")

    events_total = models.IntegerField(default=0)
    events_by_type = models.JSONField(default=dict, blank=True)
    tool_calls_by_tool = models.JSONField(default=dict, blank=True)
    failed_tool_calls_by_tool = models.JSONField(default=dict, blank=True)
    # The first few problems, found at import so a long trajectory's page does
    # not read all of them: {"failures": {tool: [index, ...]}, "never_returned":
    # {tool: [index, ...]}, "errors": [index, ...]}, each list capped by the
    # attempt_first_failures / attempt_first_errors limits of the import.
    problems = models.JSONField(default=dict, blank=True)
    requests_total = models.IntegerField(default=0)
    # Estimated lines on the attempt page per block of HEIGHT_BLOCK events
    # (trajectories.render.heights), found at import: placeholders of slices
    # not yet loaded take their room, so nothing moves when they arrive.
    # Empty: imported before the estimate existed (placeholders stay small).
    height_lines = models.JSONField(default=list, blank=True)
    # "": the events are the release's trajectory.json. Otherwise the release
    # had no trajectory.json and the events were normalised from
    # transcript.jsonl, written in the format named here.
    events_from = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        verbose_name_plural = "evidence"

    def __str__(self) -> str:
        return f"evidence of {self.attempt_id}"

    def trajectory_document(self) -> dict:
        """trajectory.json without its events, as imported."""
        return jsonsafe.unpack(self.trajectory)

    def vendor_log_document(self) -> dict | None:
        """vendor-requests.json without its vendors' entries; None when absent."""
        return jsonsafe.unpack(self.vendor_log)


class EventQuerySet(models.QuerySet):
    def failed_tool_calls(self) -> EventQuerySet:
        return self.filter(type="tool_call", ok=False)


class Event(models.Model):
    """One trajectory event. ``index`` is its identity and its page anchor."""

    # No index of its own: event_unique_index (attempt, index) serves every
    # lookup by attempt, and one index less is one less to fill per event.
    attempt = models.ForeignKey(
        Attempt, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    index = models.IntegerField()
    type = models.CharField(max_length=32)
    ts = models.CharField(max_length=64, blank=True)
    tool = models.CharField(max_length=sizes.TOOL, blank=True)
    ok = models.BooleanField(null=True, blank=True)
    exit_code = models.IntegerField(null=True, blank=True)
    # The large strings, moved out of ``doc``; None means the key was absent.
    text = models.TextField(null=True, blank=True)
    output = models.TextField(null=True, blank=True)
    # The event as imported, without ``text`` and ``result.output``.
    doc = models.JSONField(default=dict)
    # The transcript.jsonl line numbers (1-based, ascending) the event came
    # from; None when the transcript could not be matched to the trajectory.
    lines = models.JSONField(null=True, blank=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        # By column, not through Attempt's own ordering (which would join per event).
        ordering = ["attempt_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "index"], name="event_unique_index"),
            models.CheckConstraint(condition=Q(index__gte=0), name="event_index_non_negative"),
        ]
        indexes = [
            # Tool-failure analysis: tool calls by tool and outcome.
            models.Index(fields=["type", "tool", "ok"], name="event_type_tool_ok"),
        ]

    def __str__(self) -> str:
        return f"#{self.index} {self.type}"

    def as_document(self) -> dict:
        """The event exactly as imported."""
        if jsonsafe.RAW_KEY in self.doc:
            return jsonsafe.unpack(self.doc)
        event = dict(self.doc)
        if self.text is not None:
            event["text"] = self.text
        if self.output is not None and isinstance(event.get("result"), dict):
            event["result"] = {**event["result"], "output": self.output}
        return event


class VendorRequest(models.Model):
    """One entry of the vendor simulator's log: a request in, or a webhook out."""

    # No index of its own: vendorrequest_unique_id and vendorrequest_attempt_ts
    # both start with the attempt.
    attempt = models.ForeignKey(
        Attempt, on_delete=models.CASCADE, related_name="vendor_requests", db_index=False
    )
    vendor = models.CharField(max_length=sizes.VENDOR)
    position = models.IntegerField(help_text="order within the vendor's list")
    request_id = models.CharField(max_length=sizes.REQUEST_ID)
    direction = models.CharField(max_length=sizes.DIRECTION)
    ts = models.CharField(max_length=64, blank=True)
    method = models.CharField(max_length=sizes.METHOD, blank=True)
    path = models.TextField(blank=True)
    status = models.IntegerField(null=True, blank=True)
    duration_ms = models.FloatField(null=True, blank=True)
    # The entry as imported (bodies included).
    doc = models.JSONField(default=dict)
    checks = models.ManyToManyField(CheckResult, related_name="vendor_requests", blank=True)

    class Meta:
        ordering = ["attempt_id", "vendor", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "vendor", "request_id"], name="vendorrequest_unique_id"
            ),
        ]
        indexes = [
            # Vendor log: one attempt's entries per vendor in time order.
            models.Index(fields=["attempt", "vendor", "ts"], name="vendorrequest_attempt_ts"),
        ]

    def __str__(self) -> str:
        return f"{self.vendor}:{self.request_id}"

    @property
    def ref(self) -> str:
        return f"{self.vendor}:{self.request_id}"

    def as_document(self) -> dict:
        """The log entry exactly as imported."""
        return jsonsafe.unpack(self.doc)


class TranscriptCheck(models.Model):
    """What the import read in one attempt's transcript.jsonl.

    With a published trajectory.json, the transcript is normalised and
    compared with it (``compared`` or ``differs``); without one, the events
    came from it (``derived``). ``unrecognised``: its format is none the site
    knows, a finding, never an import error. Lines that gave no event are
    kept in ``unmapped`` with the normaliser's reason.
    """

    AGREES, DIFFERS, UNRECOGNISED, DERIVED = "agrees", "differs", "unrecognised", "derived"
    STATUSES = (AGREES, DIFFERS, UNRECOGNISED, DERIVED)

    attempt = models.OneToOneField(
        Attempt, on_delete=models.CASCADE, related_name="transcript_check"
    )
    status = models.CharField(max_length=16, choices=[(s, s) for s in STATUSES])
    format = models.CharField(max_length=64, blank=True)
    # Why the transcript was not read (for ``unrecognised``).
    note = models.TextField(blank=True)
    # Fidelity findings, as fidelity.Difference.as_dict(), the first few only.
    differences = models.JSONField(default=list, blank=True)
    differences_total = models.IntegerField(default=0)
    first_difference = models.IntegerField(null=True, blank=True)
    # [[line, reason], ...], the first ``transcript_unmapped_max`` only.
    unmapped = models.JSONField(default=list, blank=True)
    unmapped_total = models.IntegerField(default=0)
    lines_total = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["agrees", "differs", "unrecognised", "derived"]),
                name="transcriptcheck_status_known",
            ),
            models.CheckConstraint(
                condition=Q(status="differs") | Q(differences_total=0),
                name="transcriptcheck_differences_only_when_differs",
            ),
            models.CheckConstraint(
                condition=Q(first_difference__isnull=True) | Q(first_difference__gte=0),
                name="transcriptcheck_first_difference_non_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"transcript of {self.attempt_id}: {self.status}"
