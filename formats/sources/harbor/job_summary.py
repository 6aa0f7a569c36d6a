"""What each Harbor job's own ``result.json`` says of its models (``stats.evals``).

A job's summary is read, never trusted: the import carries it per model in
``leaderboard.json`` (``x-harbor-result``, see formats.v1.harbor_result) and
the site compares it with the figures it recomputes from the trials. An eval
is matched to a model through the trial names it lists (``reward_stats``,
``exception_stats``); an eval that lists none belongs to the job's only model,
or to none (and a note says so).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from formats.reader import ReleaseSource
from formats.sources.harbor.layout import RESULT, TrialFolder
from formats.v1 import schema
from formats.v1.scoring import TOLERANCE


@dataclass
class JobFigures:
    """One model's figures summed over the evals of its jobs."""

    jobs: list[str] = field(default_factory=list)
    trials: int = 0
    passed: int | None = 0
    errors: int = 0
    # Sum of mean × trials, for a mean weighted by trials; None once a job gives no mean.
    weighted_mean: float | None = 0.0

    def document(self) -> dict[str, Any]:
        mean = None
        if self.weighted_mean is not None and self.trials:
            mean = self.weighted_mean / self.trials
        return {
            "jobs": sorted(self.jobs),
            "trials": self.trials,
            "passed": self.passed,
            "mean": mean,
            "errors": self.errors,
        }


@dataclass
class Eval:
    job: str
    key: str
    trials: int
    errors: int
    mean: float | None
    passed: int | None  # None: no reward_stats
    trial_names: set[str]


def _obj(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _reward_lists(stats: dict) -> dict[str, list] | None:
    """``reward_stats``' reward -> trial names map: key ``reward``, or its only key."""
    rewards = _obj(stats.get("reward_stats"))
    if not rewards:
        return None
    picked = rewards.get("reward") if "reward" in rewards else None
    if picked is None and len(rewards) == 1:
        (picked,) = rewards.values()
    return picked if isinstance(picked, dict) else None


def _passed(by_reward: dict[str, list], threshold: float) -> int:
    passed = 0
    for value, names in by_reward.items():
        try:
            reward = float(value)
        except ValueError:
            continue
        if math.isfinite(reward) and reward >= threshold - TOLERANCE and isinstance(names, list):
            passed += len(names)
    return passed


def _names(stats: dict) -> set[str]:
    found: set[str] = set()
    for group in (_reward_lists(stats) or {}, _obj(stats.get("exception_stats"))):
        for names in group.values():
            if isinstance(names, list):
                found.update(n for n in names if isinstance(n, str))
    return found


def read_evals(
    tree: ReleaseSource, label: str, trials: Iterable[TrialFolder], *, threshold: float
) -> list[Eval]:
    """Every eval of every job ``result.json`` in ``tree`` (not one inside a trial);
    ``label`` names the tree (a job at its root is named by it, as its trials are)."""
    inside = [t.prefix for t in trials if t.prefix]
    evals: list[Eval] = []
    for name in tree.names():
        if name != RESULT and not name.endswith("/" + RESULT):
            continue
        folder = name[: -len(RESULT)]
        if any(folder.startswith(prefix) for prefix in inside):
            continue
        try:
            doc = schema.parse_json(tree.read(name))
        except ValueError:
            continue  # refused as a trial's or job's result.json by layout already
        if not isinstance(doc, dict) or "task_name" in doc:
            continue
        job = (folder.rstrip("/") or label).rsplit("/", 1)[-1]
        for key, stats in sorted(_obj(_obj(doc.get("stats")).get("evals")).items()):
            stats = _obj(stats)
            metrics = stats.get("metrics")
            first = metrics[0] if isinstance(metrics, list) and metrics else {}
            mean = _obj(first).get("mean")
            by_reward = _reward_lists(stats)
            evals.append(
                Eval(
                    job=job,
                    key=key,
                    trials=_int(stats.get("n_trials")) or 0,
                    errors=_int(stats.get("n_errors")) or 0,
                    mean=float(mean) if isinstance(mean, int | float) else None,
                    passed=_passed(by_reward, threshold) if by_reward is not None else None,
                    trial_names=_names(stats),
                )
            )
    return evals


def job_figures(
    evals: list[Eval], model_of_trial: dict[tuple[str, str], str]
) -> tuple[dict[str, JobFigures], list[str]]:
    """Model id -> its jobs' figures, and notes on evals no model could be found for.

    ``model_of_trial`` maps (job, trial name) to the model id the trial was imported as.
    """
    found: dict[str, JobFigures] = {}
    notes: list[str] = []
    for ev in evals:
        models = {model_of_trial.get((ev.job, n)) for n in ev.trial_names} - {None}
        if not ev.trial_names:
            models = {m for (job, _), m in model_of_trial.items() if job == ev.job}
        if len(models) != 1:
            notes.append(
                f"{ev.job}: {RESULT}: stats.evals.{ev.key}: names no trial of one imported "
                "model; not compared"
            )
            continue
        (model,) = models
        figures = found.setdefault(model, JobFigures())
        figures.jobs.append(ev.job)
        figures.trials += ev.trials
        figures.errors += ev.errors
        figures.passed = (
            figures.passed + ev.passed
            if figures.passed is not None and ev.passed is not None
            else None
        )
        figures.weighted_mean = (
            figures.weighted_mean + ev.mean * ev.trials
            if figures.weighted_mean is not None and ev.mean is not None
            else None
        )
    return found, notes
