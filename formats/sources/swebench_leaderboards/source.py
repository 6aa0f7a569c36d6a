"""One leaderboard of leaderboards.json as a ``ResultsSource`` (one bench).

An entry with ``per_instance_details`` gives an attempt per instance it
lists (``resolved`` is the reward, with threshold 1; its cost and API calls
kept); the bench's tasks are the instances any entry lists. An entry without
them is a published-only model (``ModelEntry.published_only``): its
``resolved`` percentage is all there is. Every entry's ``resolved`` is its
published score, compared with the site's where it has instances.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from formats.sources.instances import (
    RULE,
    Outcome,
    outcome_attempt,
    percent_precision,
    surface_of,
)
from formats.sources.protocol import AttemptEntry, BenchFacts, ModelEntry, TaskEntry
from formats.sources.swebench_leaderboards.entries import Board, Entry, slugify

# Where the published figures of an entry go in its leaderboard row.
PUBLISHED_KEY = "swebench"
HARNESS_VERSION_KEY = "mini-swe-agent_version"
EXPORTER = "benchview swebench-leaderboards"


def _finished(entry: Entry) -> str:
    return f"{entry.date or '1970-01-01'}T00:00:00Z"


def model_entry(entry: Entry) -> ModelEntry:
    """The model an entry is: its facts (docs/model-facts.md) and published figures."""
    orgs = entry.tagged("Org")
    facts: dict[str, Any] = {
        "results_date": entry.date,
        "organisation": orgs[0] if orgs else None,
        "open_weights": entry.os_model,
        "open_system": entry.os_system,
        "verified": entry.checked,
        "site": entry.site[0] if entry.site else None,
    }
    extra = {k: v for k, v in facts.items() if v is not None}
    extra["swebench"] = {
        "folder": entry.folder,
        "name": entry.name,
        "tags": entry.tags,
        "site": entry.site,
        **entry.links,
        **entry.extra,
    }
    models = entry.tagged("Model")
    harness = "mini-swe-agent" if HARNESS_VERSION_KEY in entry.extra else "unknown"
    return ModelEntry(
        id=entry.id,
        display_name=entry.name,
        harness=harness,
        provider=models[0] if models else "unknown",
        extra=extra,
        published={
            "resolved": entry.resolved,
            "cost": entry.cost,
            "instance_cost": entry.instance_cost,
            "instance_calls": entry.instance_calls,
        },
        published_score=entry.resolved / 100.0,
        published_precision=percent_precision(entry.resolved),
        published_only=entry.details is None,
    )


class LeaderboardSource:
    """One leaderboard: models from its entries, tasks from their instances."""

    def __init__(self, board: Board, *, bench: str, title: str, file: str):
        self.name = f"{file} ({board.name})"
        self.board = board
        self.bench = BenchFacts(
            id=bench, title=title, scoring_rule=RULE, threshold=1.0, published_key=PUBLISHED_KEY
        )
        self.notes: list[str] = []
        self.problems: list[str] = []
        self.models = {e.id: model_entry(e) for e in board.entries}
        self.tasks: dict[str, TaskEntry] = {}
        self._task_of: dict[str, str] = {}
        for entry in board.entries:
            for instance in entry.details or {}:
                if instance in self._task_of:
                    continue
                task = slugify(instance)
                if task in self.tasks:
                    self.problems.append(
                        f"{file}: leaderboards[{board.index}]: instances "
                        f"{self.tasks[task].title!r} and {instance!r} have one id {task!r}"
                    )
                    continue
                surface = surface_of(instance, "instances")
                self.tasks[task] = TaskEntry(id=task, title=instance, surface=surface)
                self._task_of[instance] = task
        with_details = sum(1 for e in board.entries if e.details is not None)
        self.notes.append(
            f"{board.name}: {len(board.entries)} entries, {with_details} with per-instance "
            f"results over {len(self.tasks)} instances; the others published-only"
        )

    def attempts(self) -> Iterator[AttemptEntry]:
        for entry in self.board.entries:
            if entry.details is None:
                continue
            model = self.models[entry.id]
            for instance, got in entry.details.items():
                task = self._task_of.get(instance)
                if task is None:
                    continue  # its id clashed: a problem already
                outcome = Outcome(
                    bench=self.bench.id,
                    model=entry.id,
                    harness=model.harness,
                    task=task,
                    instance=instance,
                    resolved=got.resolved,
                    cost=got.cost,
                    finished_at=_finished(entry),
                    grader="swebench.com leaderboards.json",
                    run_id=entry.folder,
                    exporter=EXPORTER,
                    extra_key="swebench",
                    extra=(("api_calls", got.api_calls),),
                )
                yield outcome_attempt(outcome, f"{self.name}: {entry.folder}")

    def close(self) -> None:
        self.board = Board(self.board.name, self.board.slug, [], self.board.index)
