"""Which attempts a search may look into.

Live tasks for everyone, staged ones for staff, never a task in no batch
(it has no released detail). One function, so that when the attempt
visibility API moves (an ``Attempt.objects.visible_to`` successor), only
this line changes.
"""

from __future__ import annotations

from django.db.models import QuerySet

from leaderboard.models import Attempt, Bench


def searchable_attempts(user, bench: Bench) -> QuerySet[Attempt]:
    return Attempt.objects.visible_to(user).filter(bench=bench)
