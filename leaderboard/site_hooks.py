"""What the site-level core asks of the leaderboard, through settings
(``BENCHVIEW_HOOKS``): core imports no app."""

from __future__ import annotations

from leaderboard.models import Bench, Generation, Task


def generation() -> int:
    """The site's generation: part of every cached page's key (core.page_cache)."""
    return Generation.objects.current()


def unreleased_task(bench: str, task: str) -> tuple[Bench, Task] | None:
    """The bench and task named when the task exists and its batch is not live
    (core.errors says "Not released yet")."""
    found = (
        Task.objects.select_related("bench", "batch")
        .only("slug", "title", "surface", "bench__slug", "bench__title", "batch__live")
        .filter(bench__slug=bench, slug=task)
        .first()
    )
    if found is None or (found.batch is not None and found.batch.live):
        return None
    return found.bench, found
