from tests.search.planted import planted_dir_fixture, planted_fixture  # noqa: F401
