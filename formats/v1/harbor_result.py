"""A Harbor job's own summary of a model, compared like with like with the site's figures.

Harbor writes each job's ``result.json`` with ``stats.evals.<key>``: the trials,
how many raised (``n_errors``), the mean reward (``metrics[0].mean``) and
which trials got which reward (``reward_stats``). ``import_harbor`` carries
what those say of a model, summed over its jobs, in its ``leaderboard.json``
row as the extension ``x-harbor-result``:

    {"jobs": ["job-a"], "trials": 20, "passed": 16, "mean": 0.8, "errors": 4}

(``passed`` and ``mean`` may be null when the job does not say). The site
compares the pass count, the mean over trials and the errors with its own,
under the bench's exceptions rule; a difference is stored as a disagreement
with the source ``result.json``, like any published figure that differs.
The mean over trials is Harbor's metric; the leaderboard's score may be
defined otherwise (a mean over tasks), so it is not what is compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formats.v1.scoring import Figures, differs

HARBOR_RESULT = "x-harbor-result"
# The figures compared, in the order reports list them.
COMPARED = ("passed", "mean", "errors")


def site_figures(figures: Figures) -> dict[str, float]:
    """The site's counterparts of a job summary's figures: counted trials only."""
    return {
        "passed": float(figures.passed),
        "mean": figures.passed / figures.trials if figures.trials else 0.0,
        "errors": float(figures.errors),
    }


def harbor_result_differences(
    published: Mapping[str, Any] | None, figures: Figures
) -> dict[str, tuple[float, float]]:
    """Figure name -> (the job's, the site's) for every figure that differs."""
    return differences(published, site_figures(figures))


def row_figures(row: Mapping[str, Any]) -> dict[str, float] | None:
    """The site's figures as an import_harbor leaderboard row carries them
    (``passed``, ``trials``, ``errors``): what a preview compares before any write."""
    values = [row.get(k) for k in ("passed", "trials", "errors")]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    passed, trials, errors = values
    return {
        "passed": float(passed),
        "mean": passed / trials if trials else 0.0,
        "errors": float(errors),
    }


def differences(
    published: Mapping[str, Any] | None, ours: Mapping[str, float]
) -> dict[str, tuple[float, float]]:
    """Figure name -> (the job's, the site's) where a job summary and ``ours`` differ."""
    if not isinstance(published, Mapping):
        return {}
    found = {}
    for name in COMPARED:
        value = published.get(name)
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and differs(float(value), ours[name]):
            found[name] = (float(value), ours[name])
    return found
