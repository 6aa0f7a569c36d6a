"""Transitional name of core.formatting (issue #32), the same module object.

ingest/ and leaderboard/documents.py still import it from here; branch
r32-format rewrites both. Once it is merged and they import core.formatting,
delete this file.
"""

import sys

from core import formatting

sys.modules[__name__] = formatting
