"""An Inspect scorer's value → the reward the ``reward-threshold`` rule reads.

Inspect scorers give ``C`` (correct), ``I`` (incorrect), ``P`` (partial),
``N`` (no answer), booleans, numbers or numeric text. The reward is Inspect's
own reading of them (its ``value_to_float``): C 1, P 0.5, I and N 0, true 1,
false 0, a number as it is, "yes"/"true" 1 and "no"/"false" 0. A trial passes
when its reward is at least the bench's threshold (``--pass-threshold``, 1.0
by default): with the default a partial answer or a 0.7 fails; a threshold
of 0.5 passes both. A value with no reading (a dict of several values, text)
gives no reward: the trial scores 0, flagged ``unscored``.

The published figure of a model is the header's metric of the deciding
scorer: ``accuracy``, else ``mean`` (Inspect's two names for the mean of the
rewards over samples, each sample's epochs first reduced by their mean).
"""

from __future__ import annotations

import math
from typing import Any

_WORDS = {
    "c": 1.0,
    "correct": 1.0,
    "yes": 1.0,
    "true": 1.0,
    "p": 0.5,
    "partial": 0.5,
    "i": 0.0,
    "incorrect": 0.0,
    "n": 0.0,
    "no": 0.0,
    "false": 0.0,
}
PUBLISHED_METRICS = ("accuracy", "mean")


def reward_of(value: Any) -> float | None:
    """The reward a scorer's value stands for, or None."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _WORDS:
            return _WORDS[word]
        try:
            number = float(word)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def scorer_names(header: dict[str, Any]) -> list[str]:
    """The log's scorers in the order it lists them (results, else the spec)."""
    results = header.get("results")
    names: list[str] = []
    if isinstance(results, dict) and isinstance(results.get("scores"), list):
        for score in results["scores"]:
            if isinstance(score, dict) and isinstance(score.get("name"), str):
                names.append(score["name"])
    spec = header.get("eval", {}).get("scorers")
    if not names and isinstance(spec, list):
        names = [s["name"] for s in spec if isinstance(s, dict) and isinstance(s.get("name"), str)]
    return list(dict.fromkeys(names))


def deciding_scorer(header: dict[str, Any], summaries: list[dict[str, Any]]) -> str | None:
    """The scorer whose value decides: the log's first, else the first any
    sample names."""
    names = scorer_names(header)
    if names:
        return names[0]
    for summary in summaries:
        scores = summary.get("scores")
        if isinstance(scores, dict) and scores:
            return str(next(iter(scores)))
    return None


def published_metrics(header: dict[str, Any], scorer: str | None) -> dict[str, float]:
    """The header's metrics of ``scorer``: name -> value (numbers only)."""
    results = header.get("results")
    if scorer is None or not isinstance(results, dict):
        return {}
    for score in results.get("scores") or []:
        if not isinstance(score, dict) or score.get("name") != scorer:
            continue
        found = {}
        metrics = score.get("metrics")
        for name, metric in metrics.items() if isinstance(metrics, dict) else []:
            value = metric.get("value") if isinstance(metric, dict) else None
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if number and math.isfinite(value):
                found[str(name)] = float(value)
        return found
    return {}


def published_score(metrics: dict[str, float]) -> float | None:
    for name in PUBLISHED_METRICS:
        if name in metrics:
            return metrics[name]
    return None
