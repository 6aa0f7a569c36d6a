"""swebench.com's ``leaderboards.json``: several leaderboards, one bench each.

- ``entries``: the document read and checked (file and JSON path in every problem).
- ``source``: one leaderboard as a ``ResultsSource``; entries with per-instance
  details are attempts, the others published-only models.
- ``adapter``: detection by content and ``open_all`` (docs/formats.md).
"""
