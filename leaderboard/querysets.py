"""The reads of benches, tasks and attempts as QuerySet methods: which of them a
user may see (``leaderboard.visibility``), the benches the site shows as benches'
default manager, and trial 0 as attempts' default manager."""

from __future__ import annotations

from django.db import models

from leaderboard.visibility import can_see_staged

# Bench.state (leaderboard.models.Bench.State): shown, or being imported or deleted.
SHOWN, PENDING, RETIRED = "shown", "pending", "retired"


class BenchQuerySet(models.QuerySet):
    def shown(self) -> BenchQuerySet:
        return self.filter(state=SHOWN)

    def pending(self) -> BenchQuerySet:
        """Benches a chunked import is writing aside (ingest.writing.chunked)."""
        return self.filter(state=PENDING)

    def retired(self) -> BenchQuerySet:
        """Benches a chunked import replaced, waiting to be deleted in batches."""
        return self.filter(state=RETIRED)


class ShownBenchManager(models.Manager.from_queryset(BenchQuerySet)):
    """The benches the site shows, to everyone, staff included: every read of
    benches (pages, API, mirror, admin, searches) goes through this default
    manager, so a bench a chunked import is still writing, or one it replaced,
    is nowhere. ``Bench.everything`` sees them all (the importer, the cleanup)."""

    def get_queryset(self) -> BenchQuerySet:
        return super().get_queryset().shown()


class OnShownBenches(models.QuerySet):
    """Rows of the benches the site shows: for lists that span benches (the
    API's lists, analyses across benches, the admin), which do not start from
    a bench found through ``Bench.objects``."""

    def on_shown_benches(self):
        return self.filter(bench__state=SHOWN)


class TaskQuerySet(OnShownBenches):
    def released(self) -> TaskQuerySet:
        return self.filter(batch__isnull=False)

    def live(self) -> TaskQuerySet:
        return self.filter(batch__live=True)

    def public(self) -> TaskQuerySet:
        """Tasks whose detail everyone may see: those of live batches."""
        return self.live()

    def visible_to(self, user) -> TaskQuerySet:
        """Tasks whose detail pages this user may see: live ones; staff also
        staged; nobody those of a bench the site does not show."""
        seen = self.released() if can_see_staged(user) else self.public()
        return seen.on_shown_benches()


class AttemptQuerySet(OnShownBenches):
    def released(self) -> AttemptQuerySet:
        """Attempts whose evidence was released (an attempt folder was imported)."""
        return self.filter(has_detail=True)

    def public(self) -> AttemptQuerySet:
        """Released attempts whose evidence everyone may see: of live batches' tasks."""
        return self.released().filter(task__batch__live=True)

    def visible_to(self, user) -> AttemptQuerySet:
        """Released attempts whose evidence this user may see (see leaderboard.visibility):
        never those of a task in no batch, which has no detail pages at all, nor
        those of a bench the site does not show."""
        if can_see_staged(user):
            seen = self.released().filter(task__batch__isnull=False)
        else:
            seen = self.public()
        return seen.on_shown_benches()

    def counted_unseen_by(self, user) -> AttemptQuerySet:
        """Released attempts whose cost and time count in their model's figures but
        whose evidence this user may not see: for everyone but staff, those of
        staged batches."""
        if can_see_staged(user):
            return self.released().filter(task__batch__isnull=True)
        return self.released().exclude(task__batch__live=True)


class MainAttemptManager(models.Manager.from_queryset(AttemptQuerySet)):
    """Trial 0 only: every page, document and figure built for one attempt per
    (model, task) keeps seeing exactly that, whatever further trials a bench has.
    It is the default manager, so reverse relations (``task.attempts``) filter too."""

    def get_queryset(self) -> AttemptQuerySet:
        return super().get_queryset().filter(trial=0)
