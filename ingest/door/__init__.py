"""The one door: every registered results format, detected by content, into the one import.

- ``adapters``: the registry filled (v1 release, Harbor jobs, the formats'
  adapters) and ``opened``, which gives what the import reads for each.
- ``release``: any ``ResultsSource`` as release files (the derived documents
  figured by the site's scoring code, attempt folders built when read).
- ``command``: what ``import_results``, ``import_release`` and
  ``import_harbor`` share (the options, the recorded import, the report).
"""
