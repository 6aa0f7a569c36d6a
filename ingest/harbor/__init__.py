"""Harbor jobs as a release: the adapter behind ``import_harbor``.

Harbor (``harbor run``) writes job folders of trial folders (see
docs/harbor.md). This package reads them through the safe reader
(``formats.reader.open_tree``), maps every trial to a release-v1 attempt and
builds a release (``HarborSource``, the interface ``ingest.plan`` reads)
whose attempt folders are built one at a time as the import reads them, so
the one release import does the checking, preview, atomic write, lock and
history, and export, mirror and API need no second path.

- ``layout``: which folders of a tree are jobs and trials.
- ``trial``: one trial folder → a ``Trial`` (reward, ctrf checks, exception,
  cost, timing, events), refusing bad values against the trial's own file.
- ``scrubbing``: home paths and host names in a trial's files, rewritten.
- ``naming``: task and model ids, the models file.
- ``identity``: trials, tasks and models that must be one of a kind.
- ``stream``: the models and tasks, then each attempt one at a time.
- ``attempts``: one trial → its attempt folder's files.
- ``release``: the release's own documents (manifest, leaderboard, ...).
- ``job_summary``: what each job's own ``result.json`` says of its models.
- ``existing``: the bench's other models, read back from the database.
- ``source``: the release, its attempt folders built when read.
- ``build``: ``harbor_release``, the entry point.
"""

from ingest.harbor.errors import HarborError

__all__ = ["HarborError"]
