"""The rendered-page cache is invalidated the moment an import or publish commits (fresh
imports of a copy of the small release, apart from test_page_cache's shared one)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leaderboard.models import Batch
from leaderboard.services import batch_publish
from tests.factories import edit_json, import_path

pytestmark = [pytest.mark.django_db, pytest.mark.page_cache]


def test_a_reimport_invalidates_at_once(client, release_copy):
    bench = import_path(release_copy).bench
    url = reverse("bench", args=[bench.slug])
    before = client.get(url).content.decode()
    assert "0.987" not in before
    # A published figure that disagrees with the recomputed one is shown.
    edit_json(release_copy / "leaderboard.json", lambda d: d["rows"][0].update(score=0.987))
    import_path(release_copy)
    assert "0.987" in client.get(url).content.decode()


def test_publishing_a_batch_invalidates_at_once(client, release_copy):
    bench = import_path(release_copy, staged=True).bench
    staged = Batch.objects.filter(bench=bench, live=False).order_by("number").first()
    assert staged is not None
    task = staged.tasks.order_by("position").first()
    url = reverse("task", args=[bench.slug, task.slug])
    assert client.get(url).status_code == 404
    batch_publish(batch=staged, live=True)
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # kept
    # Taken back: the kept page must not be served to the public.
    batch_publish(batch=staged, live=False)
    assert client.get(url).status_code == 404


def test_staff_and_anonymous_never_share_an_entry(client, admin_client, release_copy):
    bench = import_path(release_copy, staged=True).bench
    staged = Batch.objects.filter(bench=bench, live=False).order_by("number").first()
    task = staged.tasks.order_by("position").first()
    url = reverse("task", args=[bench.slug, task.slug])
    # Staff first, so a shared entry would leak the staged task to the public.
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url).status_code == 200
    assert client.get(url).status_code == 404
    assert admin_client.get(url).status_code == 200
