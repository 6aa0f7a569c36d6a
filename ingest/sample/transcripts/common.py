"""What every harness transcript shares: the event cap and the NDJSON line."""

from __future__ import annotations

import json
from typing import Any

# Raw transcripts are evidence, not the browsing surface: long runs keep only
# their opening so the release stays small.
TRANSCRIPT_EVENT_CAP = 240


def ndjson_line(obj: Any) -> str:
    # Harness CLIs print compact NDJSON; mimic that rather than the pretty form.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
