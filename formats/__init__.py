"""The ground floor: what Benchview reads and writes, with no pages and no ORM.

Nothing here imports an app (``ingest``, ``trajectories``, ``leaderboard``,
``samplegen``) or Django's ORM, so every app may import it (a guard test
checks). See docs/layout.md.

- ``sources``: a source of results (``ResultsSource``), the adapters that
  open one (``Adapter``) and the registry that picks one by content.
"""
