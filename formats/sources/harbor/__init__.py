"""Harbor jobs as a source of results: the adapter behind ``import_harbor``
and the admin's Harbor imports (on the ground floor: it reads and checks,
and never touches the database).

Harbor (``harbor run``) writes job folders of trial folders (see
docs/harbor.md). This package reads them through the safe reader
(``formats.reader.open_tree``) as a ``formats.sources.ResultsSource``: the
bench's models and tasks, then each trial as an attempt, one at a time.
``ingest.reading.harbor.build.release_of`` turns that into a release
(``HarborSource``, the interface ``ingest.reading.plan`` reads) whose attempt
folders are built again as the import reads them, so the one release import does the checking,
preview, atomic write, lock and history, and export, mirror and API need
no second path.

- ``adapter``: ``HARBOR``, registered in ``formats.sources.registry.ADAPTERS``,
  and ``open_jobs`` (the jobs of some trees, read as far as their result.json).
- ``layout``: which folders of a tree are jobs and trials.
- ``trial``: one trial folder → a ``Trial`` (reward, ctrf checks, exception,
  cost, timing, events), refusing bad values against the trial's own file.
- ``events``: a trial's events, from its agent log or its ATIF trajectory.
- ``scrubbing``: home paths and host names in a trial's files, rewritten.
- ``naming``: task and model ids, the models file.
- ``identity``: trials, tasks and models that must be one of a kind.
- ``stream``: ``HarborJobs``, the models and tasks, then each attempt.
- ``attempts``: one trial → its attempt folder's files.
- ``release``: the release's own documents (manifest, leaderboard, ...),
  through the builders of ``formats.v1.documents``.
- ``job_summary``: what each job's own ``result.json`` says of its models.
- ``errors``: ``HarborError``.

What needs the database stays in ``ingest.reading.harbor``: ``existing`` (the
bench's other models, read back from the rows), ``source`` (``HarborSource``)
and ``build`` (``release_of``, ``harbor_release``).
"""

from formats.sources.harbor.errors import HarborError

__all__ = ["HarborError"]
