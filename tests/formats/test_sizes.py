"""The column sizes of release format v1 are the database's: the models take their
lengths from formats.v1.sizes, and each integer range a reader checks is the
portable range of the column that stores it."""

import pytest
from django.db.backends.base.operations import BaseDatabaseOperations

from formats.v1 import sizes
from leaderboard.models import Attempt, Batch, Bench, Check, CheckResult, Model, Task
from trajectories.models import Event, VendorRequest

LENGTHS = [
    (Bench, "slug", sizes.SLUG),
    (Bench, "title", sizes.BENCH_TITLE),
    (Bench, "revision", sizes.REVISION),
    (Batch, "released_at", sizes.RELEASED_AT),
    (Model, "slug", sizes.SLUG),
    (Model, "display_name", sizes.MODEL_NAME),
    (Model, "harness", sizes.HARNESS),
    (Model, "provider", sizes.PROVIDER),
    (Task, "slug", sizes.SLUG),
    (Task, "title", sizes.TASK_TITLE),
    (Task, "surface", sizes.SURFACE),
    (Check, "name", sizes.CHECK_NAME),
    (Check, "level", sizes.CHECK_LEVEL),
    (Attempt, "harness", sizes.HARNESS),
    (CheckResult, "name", sizes.CHECK_NAME),
    (CheckResult, "level", sizes.CHECK_LEVEL),
    (Event, "tool", sizes.TOOL),
    (VendorRequest, "vendor", sizes.VENDOR),
    (VendorRequest, "request_id", sizes.REQUEST_ID),
    (VendorRequest, "direction", sizes.DIRECTION),
    (VendorRequest, "method", sizes.METHOD),
]
RANGES = [
    (Batch, "number", sizes.INT),
    (Attempt, "input_tokens", sizes.BIG_INT),
    (Event, "index", sizes.INT),
    (Event, "exit_code", sizes.INT),
    (VendorRequest, "status", sizes.INT),
]


@pytest.mark.parametrize(("model", "name", "length"), LENGTHS)
def test_each_column_is_as_long_as_the_format_allows(model, name, length):
    assert model._meta.get_field(name).max_length == length


@pytest.mark.parametrize(("model", "name", "bounds"), RANGES)
def test_each_integer_range_is_the_portable_range_of_its_column(model, name, bounds):
    kind = model._meta.get_field(name).get_internal_type()
    assert BaseDatabaseOperations.integer_field_ranges[kind] == bounds
