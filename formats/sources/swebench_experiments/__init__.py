"""SWE-bench experiments submissions: the layout swebench.com's leaderboard is built from.

``evaluation/<split>/<date>_<system>/`` holds one submission: ``metadata.yaml``
(``info.name``, ``info.site``, ``tags.model``, ``tags.org``, ``tags.system``,
``tags.os_model``, ``tags.os_system``, ``tags.checked``), the predictions
(``all_preds.jsonl``, ``preds.json`` or ``model_patch`` in the results), the
per-instance results (``evaluation_details.jsonl``, ``results/results.json``
lists or ``logs/<instance>/report.json``) and the trajectories (``trajs/``:
SWE-agent ``.traj``, mini-swe-agent, OpenHands ``output.jsonl``). See
docs/formats.md.

- ``layout`` of a tree and each submission: ``systems`` (``read_systems``).
- ``metadata``: ``metadata.yaml`` and the README's published figure.
- ``results``: every per-instance results file, and the predictions.
- ``trajs``: which trajectory file belongs to which instance.
- ``attempts``: one instance of one system → its attempt folder's files.
- ``source``: the ``ResultsSource`` and the ``Adapter`` (registered as
  ``swebench-experiments``).
"""

from formats.sources.swebench_experiments.errors import ExperimentsError
from formats.sources.swebench_experiments.systems import Instance, System, looks_like, read_systems

__all__ = ["ExperimentsError", "Instance", "System", "looks_like", "read_systems"]
