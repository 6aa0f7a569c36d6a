"""One benchmark of OpenHands' index results as a ``ResultsSource`` (one bench).

Every model folder with a score for the benchmark is a model. Its
``instance_results/<benchmark>.json`` gives an attempt per instance
(``resolved`` the reward; null: no verdict); without that file the model is
published-only. The bench's tasks are the instances any model lists. The
published ``score`` (a percentage, of the ``metric`` named beside it) is
the row's published figure.
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
from formats.sources.openhands_index.folders import ModelFolder, Score, slugify
from formats.sources.protocol import AttemptEntry, BenchFacts, ModelEntry, TaskEntry

PUBLISHED_KEY = "openhands_index"
EXPORTER = "benchview openhands-index"
# metadata.json's openness -> whether the model's weights are published.
OPEN_WEIGHTS = {
    "open_weights_available": True,
    "open_api_available": True,
    "closed_api_available": False,
}


def _finished(score: Score, metadata: dict[str, Any]) -> str:
    for value in (score.fields.get("submission_time"), metadata.get("release_date")):
        if isinstance(value, str) and len(value) >= 10 and value[4] == "-":
            return f"{value[:10]}T00:00:00Z"
    return "1970-01-01T00:00:00Z"


def model_entry(folder: ModelFolder, score: Score) -> ModelEntry:
    meta = folder.metadata
    name = meta.get("model") if isinstance(meta.get("model"), str) else folder.id
    agent = meta.get("agent_name") if isinstance(meta.get("agent_name"), str) else "unknown"
    alternative = "alternative_agents/" in "/" + folder.folder
    if alternative:
        name = f"{name} ({folder.folder.strip('/').split('/')[-2]})"
    extra: dict[str, Any] = {"results_date": _finished(score, meta)[:10]}
    if meta.get("openness") in OPEN_WEIGHTS:
        extra["open_weights"] = OPEN_WEIGHTS[meta["openness"]]
    extra["openhands_index"] = {"folder": folder.folder, "metadata": meta}
    return ModelEntry(
        id=folder.id,
        display_name=name,
        harness=agent,
        provider="unknown",
        extra=extra,
        published=dict(score.fields),
        published_score=score.score / 100.0,
        published_precision=percent_precision(score.score),
        published_only=score.instances is None,
    )


class BenchmarkSource:
    def __init__(
        self,
        benchmark: str,
        entries: list[tuple[ModelFolder, Score]],
        *,
        bench: str,
        title: str,
        name: str,
    ):
        self.name = f"{name} ({benchmark})"
        self.benchmark = benchmark
        self.bench = BenchFacts(
            id=bench, title=title, scoring_rule=RULE, threshold=1.0, published_key=PUBLISHED_KEY
        )
        self.notes: list[str] = []
        self.problems: list[str] = []
        self._entries = entries
        self.models = {f.id: model_entry(f, s) for f, s in entries}
        self.tasks: dict[str, TaskEntry] = {}
        self._task_of: dict[str, str] = {}
        for folder, score in entries:
            for instance in score.instances or {}:
                if instance in self._task_of:
                    continue
                task = slugify(instance)
                if task in self.tasks:
                    self.problems.append(
                        f"{folder.folder}instance_results/{benchmark}.json: instances "
                        f"{self.tasks[task].title!r} and {instance!r} have one id {task!r}"
                    )
                    continue
                surface = surface_of(instance, slugify(benchmark))
                self.tasks[task] = TaskEntry(id=task, title=instance, surface=surface)
                self._task_of[instance] = task
        with_instances = sum(1 for _, s in entries if s.instances is not None)
        self.notes.append(
            f"{benchmark}: {len(entries)} models, {with_instances} with per-instance results "
            f"over {len(self.tasks)} instances; the others published-only"
        )

    def attempts(self) -> Iterator[AttemptEntry]:
        for folder, score in self._entries:
            model = self.models[folder.id]
            for instance, got in (score.instances or {}).items():
                task = self._task_of.get(instance)
                if task is None:
                    continue  # its id clashed: a problem already
                outcome = Outcome(
                    bench=self.bench.id,
                    model=folder.id,
                    harness=model.harness,
                    task=task,
                    instance=instance,
                    resolved=got.resolved,
                    cost=got.cost,
                    finished_at=_finished(score, folder.metadata),
                    grader="OpenHands index instance_results",
                    run_id=str(score.fields.get("full_archive") or folder.folder),
                    exporter=EXPORTER,
                    extra_key="openhands_index",
                )
                origin = f"{folder.folder}instance_results/{self.benchmark}.json: {instance}"
                yield outcome_attempt(outcome, origin)

    def close(self) -> None:
        self._entries = []
