"""The reads of tasks and attempts as QuerySet methods: which of them a user may
see (``leaderboard.visibility``), and trial 0 as attempts' default manager."""

from __future__ import annotations

from django.db import models

from leaderboard.visibility import can_see_staged


class TaskQuerySet(models.QuerySet):
    def released(self) -> TaskQuerySet:
        return self.filter(batch__isnull=False)

    def live(self) -> TaskQuerySet:
        return self.filter(batch__live=True)

    def public(self) -> TaskQuerySet:
        """Tasks whose detail everyone may see: those of live batches."""
        return self.live()

    def visible_to(self, user) -> TaskQuerySet:
        """Tasks whose detail pages this user may see: live ones; staff also staged."""
        return self.released() if can_see_staged(user) else self.public()


class AttemptQuerySet(models.QuerySet):
    def released(self) -> AttemptQuerySet:
        """Attempts whose evidence was released (an attempt folder was imported)."""
        return self.filter(has_detail=True)

    def public(self) -> AttemptQuerySet:
        """Released attempts whose evidence everyone may see: of live batches' tasks."""
        return self.released().filter(task__batch__live=True)

    def visible_to(self, user) -> AttemptQuerySet:
        """Released attempts whose evidence this user may see (see leaderboard.visibility):
        never those of a task in no batch, which has no detail pages at all."""
        if can_see_staged(user):
            return self.released().filter(task__batch__isnull=False)
        return self.public()

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
