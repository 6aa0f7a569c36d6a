"""SWE-bench experiments submissions: the layout swebench.com's leaderboard is built from.

``evaluation/<split>/<date>_<system>/`` holds one submission: ``metadata.yaml``
(``info.name``, ``info.site``, ``tags.model``, ``tags.org``, ``tags.system``,
``tags.os_model``, ``tags.os_system``, ``tags.checked``), the predictions
(``all_preds.jsonl``, ``preds.json`` or ``model_patch`` in the results), the
per-instance results (``evaluation_details.jsonl``, ``results/results.json``
lists or ``logs/<instance>/report.json``) and the trajectories (``trajs/``:
SWE-agent ``.traj``, mini-swe-agent, OpenHands ``output.jsonl``).

This package reads them into plain values (``System``, ``Instance``); it
writes nothing and imports no app. ``ingest.swebench`` turns them into a
release for the one import pipeline. See docs/formats.md.

- ``layout``: which folders of a tree are submissions (by their content).
- ``metadata``: ``metadata.yaml`` and the README's published figure.
- ``results``: every per-instance results file, and the predictions.
- ``trajs``: which trajectory file belongs to which instance.
- ``systems``: ``read_systems``, the entry point.
"""

from formats.sources.swebench_experiments.errors import ExperimentsError
from formats.sources.swebench_experiments.systems import Instance, System, looks_like, read_systems

__all__ = ["ExperimentsError", "Instance", "System", "looks_like", "read_systems"]
