"""Who may see a staged batch's detail: the one rule every page, file and API uses.

A staged task's id, matrix title and surface, its scores and the models'
aggregates are public (they count for the leaderboard); its tasks/ file
(title, ticket, vendors, checks) and its attempts' evidence are for staff
until the batch is published (docs/visibility.md).
"""

from __future__ import annotations


def can_see_staged(user) -> bool:
    """True for active staff: they see staged batches as if they were live."""
    return bool(user is not None and user.is_active and user.is_staff)
