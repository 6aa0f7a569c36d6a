"""What every harness transcript shares: the NDJSON line.

Transcripts are complete (no event cap): ``trajectory.json`` is the
transcript normalised, and the tests normalise each one back to it.
"""

from __future__ import annotations

import json
from typing import Any


def ndjson_line(obj: Any) -> str:
    # Harness CLIs print compact NDJSON; mimic that rather than the pretty form.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
