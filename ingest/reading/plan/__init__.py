"""The import plan: a release validated and compared with the database, nothing written.

- ``types``: the plan, its problems and per-attempt entries, ``CheckedAttempt``.
- ``checker``: reading documents while recording problems with file and JSON path.
- ``release``: checks across the release's documents and its attempt folders.
- ``attempts``: one attempt folder checked and scrubbed.
- ``diff``: the plan against the database (the only part that reads the ORM).
- ``build``: ``check_release`` and its generator of checked attempts, ``build_plan``.

The plan keeps the small documents (manifest, leaderboard, matrix, models/,
tasks/) as typed models and, per attempt, only hashes and counts: an import
consumes ``check_release(...).attempts()`` and writes each attempt as it comes.
"""

from ingest.reading.plan.attempts import verdict_outcomes
from ingest.reading.plan.build import ReleaseCheck, build_plan, check_release
from ingest.reading.plan.diff import model_signature, task_signature
from ingest.reading.plan.types import (
    AttemptDocs,
    AttemptPlan,
    Changes,
    CheckedAttempt,
    ImportPlan,
    Problem,
)

__all__ = [
    "AttemptDocs",
    "AttemptPlan",
    "Changes",
    "CheckedAttempt",
    "ImportPlan",
    "Problem",
    "ReleaseCheck",
    "build_plan",
    "check_release",
    "model_signature",
    "task_signature",
    "verdict_outcomes",
]
