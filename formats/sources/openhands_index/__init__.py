"""OpenHands' index results: one folder feeds a bench per benchmark.

- ``folders``: model folders found by content and read (file and JSON path in
  every problem).
- ``source``: one benchmark as a ``ResultsSource``; models with
  ``instance_results`` are attempts, the others published-only.
- ``adapter``: detection and ``open_all`` (docs/formats.md).
"""
