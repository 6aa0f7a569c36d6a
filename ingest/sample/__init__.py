"""A deterministic synthetic release in release format v1.

``generate_release`` writes a complete release folder (manifest, leaderboard,
matrix, model and task documents, attempt evidence) that exercises the awkward
corners of the format: missing verdicts and attempts, very long trajectories,
hostile-looking text, large tool outputs, odd check levels, tied scores. Every
derived figure goes through ``leaderboard.scoring`` so the release always agrees
with its own verdicts.

Determinism: every random draw comes from ``random.Random`` instances seeded
from ``seed`` (and, per attempt, from the attempt's identity so one attempt's
length never shifts another's content); no clock, no uuid4, no set iteration.

The generator is split by job: ``catalog`` (models, harnesses, task
catalogue), ``tasks`` (each task's checks, ticket and files), ``plan`` (which
attempts exist and how long they run), ``trajectory`` (an attempt's events),
``transcripts`` (raw harness output, one module per harness), ``vendors``
(simulated vendor request logs), ``patches``, ``verdicts``, ``attempts`` (one
attempt's folder), ``documents`` (leaderboard, matrix, model and task documents,
manifest), ``writer`` (the output folder) and ``release`` (the entry point);
``clock``, ``ids`` and ``pools`` hold the timestamps, identifiers and text they share.
"""

from ingest.sample.release import HARNESS_TIMEOUT, generate_release

__all__ = ["HARNESS_TIMEOUT", "generate_release"]
