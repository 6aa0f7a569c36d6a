"""Shared fixtures: small deterministic releases and imports of them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from leaderboard.models import Bench
from samplegen.release import generate_release
from tests import transcript_format
from tests.factories import SMALL, import_path
from tests.search.planted import TINY, plant


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, request):
    """Tests marked ``worker`` run ``manage.py db_worker`` in a subprocess, which must
    reach the test database: on SQLite that means a file instead of memory (only
    when such a test is collected, so other runs keep the faster in-memory one)."""
    from django.conf import settings

    wants_worker = any(item.get_closest_marker("worker") for item in request.session.items)
    main = settings.DATABASES["default"]
    if wants_worker and main["ENGINE"] == "django.db.backends.sqlite3":
        folder = request.getfixturevalue("tmp_path_factory").mktemp("worker-db")
        main.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
        settings.DATABASES["progress"]["TEST"]["NAME"] = str(folder / "test.sqlite3-progress")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, ending every other session on the test database before it
    is dropped: PostgreSQL refuses to drop a database someone is connected to.
    This process holds more than one (the import's progress connection is an
    alias of its own), and a connection a finished thread opened lives until its
    thread's data is collected."""
    yield
    from django.db import connection, connections

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        connections.close_all()


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    # Large blobs go to file storage; keep them out of the project folder.
    settings.MEDIA_ROOT = tmp_path / "media"
    # The import lock's file (SQLite): one per test, so parallel runs never meet.
    settings.BENCHVIEW_LOCK_DIR = tmp_path / "locks"
    # The shared cache, where it is a folder (SQLite): one per test as well.
    shared = settings.CACHES["shared"]
    if shared["BACKEND"].endswith("FileBasedCache"):
        settings.CACHES = {
            **settings.CACHES,
            "shared": {**shared, "LOCATION": str(tmp_path / "cache")},
        }


@pytest.fixture(scope="session", autouse=True)
def _lock_dir_per_worker(tmp_path_factory):
    """Imports outside a test (the module-wide small release) take the import
    lock too: each pytest worker keeps its lock file apart, so two workers
    importing at once never refuse each other (each test still gets its own)."""
    with override_settings(BENCHVIEW_LOCK_DIR=tmp_path_factory.mktemp("locks")):
        yield


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Test users' passwords are hashed with MD5. The default (PBKDF2, a million
    rounds) spends a third of a second of CPU on every user made and every login:
    its point in production, only waste here."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _no_api_tallies(request):
    """The rate limit's per-process tallies (trajectories.api.counts) start
    empty: requests another test made must not count against this one's limit.
    So do its shared counts where they are rows of the database (PostgreSQL's
    cache table): a ``transaction=True`` test before this one commits them, and
    flushing the database between tests leaves that table alone."""
    from django.conf import settings
    from django.core.cache import caches

    from trajectories.api import counts

    counts.forget()
    in_database = settings.CACHES["shared"]["BACKEND"].endswith("DatabaseCache")
    wants_db = request.node.get_closest_marker("django_db") or {
        "db",
        "transactional_db",
    } & set(request.fixturenames)
    if in_database and wants_db:
        request.getfixturevalue("_django_db_helper")
        caches["shared"].clear()


@pytest.fixture(autouse=True)
def _page_cache(request, settings):
    """Off by default: most tests count the queries of rendering a page, and some
    edit rows directly between two requests, which no deployment does. On for
    the browser journeys and the tests marked ``page_cache``. Either way empty:
    every test's database starts at generation 0, so entries another test
    rendered must not answer this one."""
    from django.core.cache import caches

    caches["pages"].clear()
    if not (
        request.node.get_closest_marker("browser") or request.node.get_closest_marker("page_cache")
    ):
        settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "page_cache_s": 0}


@pytest.fixture(scope="session")
def sqlite_child_database(tmp_path_factory) -> str:
    """A migrated SQLite file for child processes (the test database is in this one's memory)."""
    from tests import children

    url = f"sqlite:///{tmp_path_factory.mktemp('child-db') / 'child.sqlite3'}"
    done = children.run(["migrate", "--noinput", "-v0"], env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    return url


@pytest.fixture
def child_database_url(request) -> str:
    """A database a child process shares with this test: its own on PostgreSQL, and on
    SQLite its own file where it is one (when ``worker`` tests are collected), else a
    migrated file of the child's (migrating one takes a process and many seconds).
    Either way the test must be ``transaction=True`` for the child to see its rows."""
    from django.db import connection

    from tests import children

    if connection.vendor == "postgresql":
        return children.database_url()
    if not connection.is_in_memory_db():
        return f"sqlite:///{connection.settings_dict['NAME']}"
    return request.getfixturevalue("sqlite_child_database")


@pytest.fixture(scope="session")
def small_release_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("small-release") / "release"
    generate_release(root, **SMALL)
    return root


@pytest.fixture(scope="session")
def planted_dir(tmp_path_factory):
    """A tiny release with known events planted for the search tests (tests/search/planted.py)."""
    root = tmp_path_factory.mktemp("planted") / "release"
    generate_release(root, **TINY)
    return root, plant(root)


@pytest.fixture
def release_copy(small_release_dir, tmp_path) -> Path:
    """A private copy of the small release, for tests that edit files."""
    target = tmp_path / "release"
    shutil.copytree(small_release_dir, target)
    return target


@pytest.fixture
def imported(db, small_release_dir):
    """The small release imported afresh into this test's empty database; returns the
    Bench. Tests that only read it (or change it and let the rollback undo that)
    take ``bench`` instead, which imports once per module."""
    return import_path(small_release_dir).bench


@pytest.fixture(scope="module")
def _shared_small_release(django_db_setup, django_db_blocker, small_release_dir, tmp_path_factory):
    """The small release imported once for a test module, outside any test's transaction,
    with its own media folder; the module's teardown flushes the database so later
    modules start empty as usual."""
    media = tmp_path_factory.mktemp("shared-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        pk = import_path(small_release_dir).bench.pk
    yield pk, media
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def bench(_shared_small_release, db, settings) -> Bench:
    """The small release, imported once per module (see ``_shared_small_release``); each
    test runs in its own rolled-back transaction on top of it, so what a test changes
    vanishes with it. Every other test of such a module sees the release too, so a
    module takes ``bench`` only if none of its tests needs an empty database, imports
    the small release again (that would be a re-import, not a first import) or runs
    outside a transaction (``transactional_db``, ``live_server``, which flush)."""
    pk, media = _shared_small_release
    settings.MEDIA_ROOT = media
    # The mirror keeps a bench's state in the local cache by slug; a state an
    # earlier test saw (and rolled back) must not answer this one.
    cache.clear()
    return Bench.objects.get(pk=pk)


def _outside_a_transaction(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    flagged = marker is not None and (
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
    )
    return bool(flagged) or bool(
        {"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A module that shares one import (``bench``) holds no test that runs outside a
    transaction: such a test would see the shared rows, and its flush would take
    them from the module's later tests."""
    sharing = {
        getattr(i, "module", None)
        for i in items
        if "_shared_small_release" in getattr(i, "fixturenames", ())
    }
    wrong = [
        i.nodeid
        for i in items
        if getattr(i, "module", None) in sharing and _outside_a_transaction(i)
    ]
    if wrong:
        raise pytest.UsageError(f"transactional tests in a module that shares bench: {wrong}")


@pytest.fixture
def lines_format(monkeypatch) -> str:
    """The test transcript format of tests/transcript_format.py, registered."""
    return transcript_format.register(monkeypatch)


@pytest.fixture
def mirror_cold(settings):
    """The mirror asks the database for the bench's state on every request, and
    starts (and leaves) the cache cold: for tests that change a release between
    requests."""
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 0}
    cache.clear()
    yield
    cache.clear()
