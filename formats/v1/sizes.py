"""How long a v1 document's strings may be and how large its integers: the sizes of
the columns that store them. The readers (``formats.v1.schema``, the Harbor adapter)
check against these, and the models take their ``max_length`` from here, so the
format decides and the database follows (a guard test checks they agree)."""

from __future__ import annotations

SLUG = 100  # Bench.slug, Model.slug, Task.slug
BENCH_TITLE = 300
REVISION = 100
RELEASED_AT = 64  # Batch.released_at
MODEL_NAME = 300  # Model.display_name
HARNESS = 100  # Model.harness, Attempt.harness
PROVIDER = 100
TASK_TITLE = 500
SURFACE = 100
CHECK_NAME = 200  # Check.name, CheckResult.name
CHECK_LEVEL = 50
TOOL = 200  # Event.tool
VENDOR = 100  # VendorRequest.vendor
REQUEST_ID = 200
DIRECTION = 32
METHOD = 16

# Integer ranges every database stores alike: Django's portable ones
# (PostgreSQL's; SQLite's are wider), so both accept and refuse the same releases.
INT = (-2_147_483_648, 2_147_483_647)  # IntegerField
BIG_INT = (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807)  # BigIntegerField
