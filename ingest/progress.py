"""How far an import is: the phase it is in and the attempts and events behind it.

``check_release`` reports a ``Progress`` after reading the release documents,
after each attempt folder and before the bench is recomputed. The command line
draws it as a bar; an import job stores it where its page can read it while the
import's transaction is still open (``ingest.running.jobs``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import models


class Phase(models.TextChoices):
    READING = "reading", "reading"
    CHECKING = "checking", "checking"
    WRITING = "writing", "writing"
    RECOMPUTING = "recomputing", "recomputing"


@dataclass(frozen=True)
class Progress:
    phase: Phase
    done: int = 0  # attempt folders handled
    total: int = 0  # attempt folders in the release
    events: int = 0  # trajectory events in the attempts handled

    def __str__(self) -> str:
        if self.phase in (Phase.READING, Phase.RECOMPUTING) or not self.total:
            return f"{self.phase.label}"
        return f"{self.phase.label} {self.done}/{self.total} attempts"


ProgressCallback = Callable[[Progress], None]
