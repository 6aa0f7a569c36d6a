"""Harbor jobs as a release: the adapter behind ``import_harbor``.

Harbor (``harbor run``) writes job folders of trial folders (see
docs/harbor.md). This package reads them through the safe reader
(``ingest.reader.open_tree``), maps every trial to a release-v1 attempt and
builds the whole release in memory (``HarborSource``, the interface
``ingest.plan`` reads), so the one release import does the checking,
preview, atomic write, lock and history, and export, mirror and API need no
second path.

- ``layout``: which folders of a tree are jobs and trials.
- ``trial``: one trial folder → a ``Trial`` (reward, ctrf checks, exception,
  cost, timing, events).
- ``documents``: trials (and the models of the bench kept from the database)
  → the release's files.
- ``existing``: the bench's other models, read back as release files.
- ``job_summary``: what each job's own ``result.json`` says of its models.
- ``source``: the in-memory release.
"""

from ingest.harbor.errors import HarborError

__all__ = ["HarborError"]
