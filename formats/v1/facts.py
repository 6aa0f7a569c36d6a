"""The facts a release may declare of a model (extension fields of its model
entry), and the spellings read as them: read by the adapters (Harbor's models
file) and by ``leaderboard.facts``, which shows and filters them."""

from __future__ import annotations

# Extension field -> the type it must have to be used (others are ignored).
FIELDS: dict[str, type] = {
    "results_date": str,
    "organisation": str,
    "open_weights": bool,
    "open_system": bool,
    "verified": bool,
    "site": str,
}
SPELLINGS = {"organization": "organisation"}
