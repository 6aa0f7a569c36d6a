import pytest

from tests.factories import import_path


@pytest.fixture
def planted(db, planted_dir):
    """The planted release imported; returns (bench, first pair, second pair)."""
    root, (first, second) = planted_dir
    return import_path(root).bench, first, second
