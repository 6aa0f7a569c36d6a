"""A bench's revisions: the board as anonymous readers saw it after each change.

Kept apart from ``leaderboard.models`` (imported from there so Django finds it).
A revision is written once, by ``leaderboard.revisions.revision_record``, and
never changed: its address and its files are cited in papers.
"""

from __future__ import annotations

from django.db import models


class BenchRevisionQuerySet(models.QuerySet):
    def newest_first(self) -> BenchRevisionQuerySet:
        return self.order_by("-number")

    def of(self, bench_slug: str) -> BenchRevisionQuerySet:
        return self.filter(bench__slug=bench_slug)


class BenchRevision(models.Model):
    class Cause(models.TextChoices):
        IMPORT = "import", "import"
        PUBLISH = "publish", "publish"
        UNPUBLISH = "unpublish", "unpublish"

    bench = models.ForeignKey(
        "leaderboard.Bench", on_delete=models.CASCADE, related_name="revisions"
    )
    # The address: the release's revision string slugged, "-2", "-3" on a repeat.
    slug = models.CharField(max_length=120)
    # 1, 2, 3 … in the order recorded: "newest first" and "the previous one".
    number = models.PositiveIntegerField()
    release_revision = models.CharField(max_length=100, blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.CharField(max_length=200, blank=True)
    cause = models.CharField(max_length=20, choices=Cause.choices)
    # The exact bytes /data/v1/<bench>/leaderboard.json and matrix.json served
    # at that moment. Text, not JSONField: PostgreSQL's jsonb reorders keys, and
    # these files must stay byte-identical forever (their ETag is their hash).
    leaderboard_json = models.TextField()
    matrix_json = models.TextField()
    # Figures the board page shows beyond leaderboard.json, by model id:
    # trial counts, the interval, one run's cost (``revisions.page_figures``).
    figures = models.JSONField(default=dict, blank=True)
    # What changed since the previous revision (``revisions.board_changes``).
    changes = models.JSONField(default=dict, blank=True)

    objects = BenchRevisionQuerySet.as_manager()

    class Meta:
        ordering = ["bench", "-number"]
        constraints = [
            # Also the index of "this bench's revisions, newest first".
            models.UniqueConstraint(fields=["bench", "number"], name="revision_unique_number"),
            # Also the index of the address lookup.
            models.UniqueConstraint(fields=["bench", "slug"], name="revision_unique_slug"),
            models.CheckConstraint(condition=~models.Q(slug=""), name="revision_slug_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.bench_id} revision {self.slug}"
