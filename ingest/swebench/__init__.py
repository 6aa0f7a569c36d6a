"""SWE-bench experiments submissions as a release: the adapter's release builder.

``formats.sources.swebench_experiments`` reads the submissions into plain
values; this package maps each (system, instance) to a release-v1 attempt
folder and builds the release's documents with the Harbor adapter's builders
(``ingest.harbor.release``), so the one import pipeline checks, previews and
writes it. See docs/formats.md.

- ``attempts``: one instance of one system → its attempt folder's files.
- ``build``: ``experiments_release``, the entry point.
"""
