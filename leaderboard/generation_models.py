"""The site's generation: one counter every write of published data raises.

Kept apart from ``leaderboard.models`` (imported from there so Django finds it).
"""

from __future__ import annotations

from django.db import connections, models
from django.db.models import Q


class GenerationQuerySet(models.QuerySet):
    def current(self) -> int:
        """The number every write of published data raises (one row, one query).

        Plain SQL: it is read on every request the page cache answers, where
        building the ORM query took longer than the rest of the hit."""
        with connections[self.db].cursor() as cursor:
            cursor.execute(f"SELECT value FROM {self.model._meta.db_table} WHERE id = 1")  # noqa: S608 - a constant
            row = cursor.fetchone()
        return row[0] if row else 0


class Generation(models.Model):
    """A counter raised in the same transaction as every write that changes what
    a page shows (imports, publishing): the rendered-page cache keys on it, so
    no page from before a write is served once the write commits, by any worker."""

    value = models.BigIntegerField(default=0)

    objects = GenerationQuerySet.as_manager()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="generation_single_row")]

    def __str__(self) -> str:
        return f"generation {self.value}"
