"""Terminal-Bench submissions as a ``ResultsSource``: models, tasks, then each trial.

Every entry of every run's ``results[]`` is a trial of its submission's model
on its task (the ``i-of-n`` attempts and the runs alike), whether or not its
folder was shipped. A model's trials of one task are numbered in run order
(the run's start, then its file), then as the run lists them: trial 0 is the
attempt's own page, the others its further trials.

Each model carries what its runs publish (``published``): every run's
``accuracy``, ``n_resolved`` and trial count, their sums and mean, and the
``pass_at_k`` of a run that made several attempts per task. The site
recomputes its own figures from ``is_resolved`` and shows any difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from formats.sources.protocol import (
    AttemptEntry,
    BenchFacts,
    LazyFolder,
    ModelEntry,
    SourceError,
    TaskEntry,
    digests_of,
)
from formats.sources.terminal_bench.attempts import HARBOR, RULE, THRESHOLD, trial_attempt
from formats.sources.terminal_bench.runs import Run
from formats.sources.terminal_bench.trial import TBTrial, TrialProblem, read_entry

# The row extension the site compares published figures under
# (formats.v1.harbor_result: ``passed`` and ``mean`` against its own); the
# runs' own figures (accuracy, pass_at_k, each run) ride along in it.
PUBLISHED_KEY = "x-harbor-result"
_NOT_SLUG = re.compile(r"[^a-z0-9._-]+")


def slugify(name: str) -> str:
    """``20250924_droid_gpt-5`` -> ``20250924-droid-gpt-5`` (formats.v1's slug rule)."""
    slug = _NOT_SLUG.sub("-", name.lower().replace("_", "-"))
    slug = re.sub(r"-{2,}", "-", slug).lstrip("._-").rstrip("-")
    return slug[:100].rstrip("-")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def published_figures(runs: list[Run]) -> dict[str, Any]:
    """What a model's runs say of it, summed (``passed``/``trials``/``mean`` are
    the figures the site compares with its own)."""
    listed = []
    for run in runs:
        accuracy = _number(run.doc.get("accuracy"))
        resolved = run.doc.get("n_resolved")
        listed.append(
            {
                "run": run.run_id,
                "results": run.label,
                "trials": len(run.entries),
                "n_resolved": resolved if isinstance(resolved, int) else None,
                "accuracy": accuracy,
            }
        )
    trials = sum(r["trials"] for r in listed)
    known = all(r["n_resolved"] is not None for r in listed)
    passed = sum(r["n_resolved"] for r in listed) if known else None
    accuracies = [r["accuracy"] for r in listed if r["accuracy"] is not None]
    doc: dict[str, Any] = {
        "jobs": [r["run"] for r in listed],
        "trials": trials,
        "passed": passed,
        "mean": passed / trials if passed is not None and trials else None,
        "errors": None,
        "accuracy": sum(accuracies) / len(accuracies) if accuracies else None,
        "runs": listed,
    }
    at_k = [
        run.doc["pass_at_k"]
        for run in runs
        if isinstance(run.doc.get("pass_at_k"), dict) and run.doc["pass_at_k"]
    ]
    if len(at_k) == 1:
        doc["pass_at_k"] = {str(k): float(v) for k, v in at_k[0].items() if _number(v) is not None}
    return doc


@dataclass
class PipelineScrub:
    """Home paths and host names are scrubbed by the import pipeline in the
    release built from this source (each rewrite reported against the release
    file and the trial folder it comes from): this says only whether it
    rewrites them (``--scrub``, the default) or refuses them (``--no-scrub``)."""

    rewrite: bool = True

    def found(self) -> list[str]:
        return []


@dataclass
class _Slot:
    trial: TBTrial
    tree: Any
    model: str
    task: str
    n: int
    of: int


@dataclass
class TerminalBenchSource:
    """Terminal-Bench runs opened as one bench's results (``ResultsSource``)."""

    name: str
    bench: BenchFacts
    models: dict[str, ModelEntry] = field(default_factory=dict)
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    groups: dict[tuple[str, str], list[tuple[TBTrial, Any]]] = field(default_factory=dict)
    harness: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    trials: int = 0
    closers: list[Any] = field(default_factory=list)
    progress: Any = None
    scrubbing: PipelineScrub = field(default_factory=PipelineScrub)

    def _build(self, slot: _Slot) -> dict[str, bytes]:
        return self._built(slot).files

    def _built(self, slot: _Slot):
        harness, model_name = self.harness[slot.model]
        more = []
        if slot.of > 1:
            more.append(
                f"{slot.of} trials of this model on this task; this is trial {slot.n} "
                f"({slot.trial.trial_name}; trial 0 is the attempt's own page)"
            )
        return trial_attempt(
            slot.trial,
            slot.tree,
            bench=self.bench.id,
            model=slot.model,
            task=slot.task,
            harness=harness,
            model_name=model_name,
            exceptions_rule=self.bench.exceptions_rule or HARBOR,
            extra_notes=more,
        )

    def attempts(self) -> Iterator[AttemptEntry]:
        done = 0
        for (model, task), group in sorted(self.groups.items()):
            for n, (trial, tree) in enumerate(group):
                slot = _Slot(trial, tree, model, task, n, len(group))
                built = self._built(slot)
                done += 1
                if self.progress is not None:
                    self.progress(done, self.trials)
                origin = f"{trial.run.label.rsplit('/', 1)[0]}/{trial.folder}"
                yield AttemptEntry(
                    model=model,
                    task=task,
                    score=built.score,
                    flags=built.flags,
                    checks=built.checks,
                    cost_usd=None,
                    duration_s=built.duration_s,
                    finished_at=built.finished_at,
                    folder=LazyFolder(partial(self._build, slot), digests_of(built.files), origin),
                    trial=n,
                    ticket=trial.instruction,
                )

    def close(self) -> None:
        for close in self.closers:
            close()
        self.closers = []


def _order(item: tuple[TBTrial, Any]) -> tuple[str, str, int]:
    trial = item[0]
    return (trial.run.started, trial.run.label, trial.position)


def _display(runs: list[Run], label: str) -> tuple[str, str, str | None, str]:
    """(display name, harness, model name, provider) of a submission."""
    agents = [r.metadata.get("agent_name") for r in runs]
    agent = next((a for a in agents if isinstance(a, str) and a), "") or "terminal-bench"
    names = [r.metadata.get("model_name") for r in runs]
    model_name = next((m for m in names if isinstance(m, str) and m), None)
    folder = label.rstrip("/").rsplit("/", 1)[-1]
    shown = f"{agent} ({model_name})" if model_name else f"{agent} ({folder})"
    provider = model_name.split("/", 1)[0] if model_name and "/" in model_name else ""
    return shown[:300], agent[:100], model_name, provider[:100]


def build_source(
    trees: list[tuple[Any, str, list[Run]]],
    *,
    bench: str,
    title: str,
    exceptions_rule: str = HARBOR,
    name: str = "",
) -> TerminalBenchSource:
    """The source of ``trees`` (each an opened tree, its label and its runs)."""
    facts = BenchFacts(
        id=bench,
        title=title,
        scoring_rule=RULE,
        threshold=THRESHOLD,
        exceptions_rule=exceptions_rule,
        published_key=PUBLISHED_KEY,
    )
    source = TerminalBenchSource(name=name, bench=facts)
    by_submission: dict[str, list[tuple[Run, Any]]] = {}
    for tree, _label, runs in trees:
        for run in runs:
            by_submission.setdefault(run.submission, []).append((run, tree))
    surfaces: dict[str, str] = {}
    for submission, runs in sorted(by_submission.items()):
        model = slugify(submission.rstrip("/").rsplit("/", 1)[-1]) or "terminal-bench"
        if model in source.models:
            source.problems.append(f"{submission}: its id {model!r} is another submission's too")
            continue
        shown, agent, model_name, provider = _display([r for r, _ in runs], submission)
        published = published_figures([r for r, _ in runs])
        accuracy = published["accuracy"]
        source.models[model] = ModelEntry(
            model,
            shown,
            agent,
            provider,
            published=published,
            # The runs' accuracy as published (their mean) is the row's
            # published_score too: compared with the site's score and shown
            # as every format's is, beside the x-harbor-result counts.
            published_score=accuracy if accuracy is not None and 0 <= accuracy <= 1 else None,
        )
        source.harness[model] = (agent, model_name)
        for run, tree in runs:
            dataset = run.metadata.get("dataset_name")
            for position in range(len(run.entries)):
                try:
                    trial = read_entry(run, position)
                except TrialProblem as exc:
                    source.problems.append(str(exc))
                    continue
                task = slugify(trial.task_id)
                if not task:
                    source.problems.append(f"{trial.where}.task_id: gives no task id")
                    continue
                source.tasks.setdefault(task, TaskEntry(task, trial.task_id, "", trial.instruction))
                if isinstance(dataset, str) and dataset:
                    surfaces.setdefault(task, dataset[:100])
                source.groups.setdefault((model, task), []).append((trial, tree))
                source.trials += 1
    for task in source.tasks.values():
        task.surface = surfaces.get(task.id, "terminal-bench")
        task.extra = {"terminal_bench_task_id": task.title}
    for (model, task), group in source.groups.items():
        group.sort(key=_order)
        names = [t.trial_name for t, _ in group]
        seen = {(t.run.label, t.trial_name) for t, _ in group}
        if len(seen) < len(names):
            source.problems.append(
                f"{model}/{task}: a trial listed twice in one run ({', '.join(sorted(names))})"
            )
    if not source.groups and not source.problems:
        raise SourceError(["no trials: every run's results[] is empty"])
    return source
