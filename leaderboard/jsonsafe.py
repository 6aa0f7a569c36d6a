"""Transitional name of core.jsonsafe (issue #32), the same module object.

ingest/ and leaderboard/documents.py still import it from here; branch
r32-format rewrites both. Once it is merged and they import core.jsonsafe,
delete this file.
"""

import sys

from core import jsonsafe

sys.modules[__name__] = jsonsafe
