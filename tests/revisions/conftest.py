"""Releases A then B of one bench, imported once per module, with what A's pages
and files answered before B was imported (``before_b``)."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

from leaderboard.models import Bench
from tests.factories import import_path
from tests.revisions.releases import release_a, release_b

BENCH = "integration-bench"


def a_addresses() -> list[str]:
    """Revision A's pages and mirror files: what must never change."""
    return [
        reverse("revision", args=[BENCH, "01"]),
        reverse("revision-matrix", args=[BENCH, "01"]),
        reverse("mirror-revision-leaderboard", args=[BENCH, "01"]),
        reverse("mirror-revision-matrix", args=[BENCH, "01"]),
    ]


def answers(client: Client) -> dict[str, tuple[int, bytes, str | None]]:
    found = {}
    for url in a_addresses():
        response = client.get(url)
        # A page's ETag is the page cache's (on or off by test); a file's is its own.
        etag = response.get("ETag") if url.startswith("/data/") else None
        found[url] = (response.status_code, response.content, etag)
    return found


@pytest.fixture(scope="module")
def _a_then_b(django_db_setup, django_db_blocker, tmp_path_factory):
    root = tmp_path_factory.mktemp("revisions")
    media = tmp_path_factory.mktemp("revisions-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        import_path(release_a(root / "a"))
        caches["pages"].clear()
        client = Client()
        before = {
            "answers": answers(client),
            "live_leaderboard": client.get(reverse("mirror-leaderboard", args=[BENCH])).content,
            "live_matrix": client.get(reverse("mirror-matrix", args=[BENCH])).content,
        }
        import_path(release_b(root / "b"))
    yield before, media, root
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def a_then_b(_a_then_b, db, settings):
    """Bench after A then B; the dict of what A's addresses answered before B."""
    before, media, root = _a_then_b
    settings.MEDIA_ROOT = media
    caches["default"].clear()
    caches["pages"].clear()
    return Bench.objects.get(slug=BENCH), before, root
