"""A deterministic synthetic release in release format v1.

``generate_release`` writes a complete release folder (manifest, leaderboard,
matrix, model and task documents, attempt evidence) that exercises the awkward
corners of the format: missing verdicts and attempts, very long trajectories,
hostile-looking text, large tool outputs, odd check levels, tied scores. Every
derived figure goes through ``formats.v1.scoring`` so the release always agrees
with its own verdicts.

Determinism: every random draw comes from a ``random.Random`` of its own, keyed
by the seed and the entity it is for (a task, a (model, task) cell or attempt;
see ``draws``), and the special cases are planted by task position: no clock, no
uuid4, no set iteration, and no stream shared across entities. So releasing a
further batch with the same seed leaves every earlier task's attempt folders and
task document byte for byte as they were, unless ``events`` spreads a fixed total.

The generator is split by job: ``catalog`` (models, harnesses, task
catalogue), ``tasks`` (each task's checks, ticket and files), ``plan`` (which
attempts exist and how long they run), ``trajectory`` (an attempt's events),
``transcripts`` (raw harness output, one module per harness), ``vendors``
(simulated vendor request logs), ``patches``, ``verdicts``, ``attempts`` (one
attempt's folder), ``documents`` (leaderboard, matrix, model and task documents,
manifest), ``writer`` (the output folder) and ``release`` (the entry point);
``clock``, ``ids``, ``pools`` and ``draws`` hold the timestamps, identifiers, text and
random streams they share.
"""
