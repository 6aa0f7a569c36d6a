"""Publishing batches in the admin; the import lock (browsing: test_admin_browse.py)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.urls import reverse

from ingest.models import ImportLock, ImportRecord
from ingest.running.locks import ImportBusy, import_lock
from ingest.running.staging import Staged
from leaderboard.models import Attempt, Batch, Model, Task
from tests.factories import import_path, make_user


@pytest.fixture
def staged_bench(db, small_release_dir):
    return import_path(small_release_dir, staged=True).bench


@pytest.fixture
def superuser_client(db) -> Client:
    client = Client()
    client.force_login(make_user("root", superuser=True))
    return client


def public_urls(bench) -> list[str]:
    """The task page and one attempt file of every released task."""
    urls = []
    for attempt in Attempt.objects.released().select_related("model", "task"):
        kwargs = {"bench": bench.slug, "model": attempt.model.slug, "task": attempt.task.slug}
        urls.append(reverse("task", kwargs={"bench": bench.slug, "task": attempt.task.slug}))
        urls.append(reverse("mirror-attempt-file", kwargs={**kwargs, "filename": "summary.json"}))
    return sorted(set(urls))


def statuses(client: Client, urls: list[str]) -> set[int]:
    return {client.get(url).status_code for url in urls}


def test_publishing_a_staged_batch_opens_its_pages_to_everyone(staged_bench, superuser_client):
    staff = make_user("stafford")
    released = set(Task.objects.released().values_list("slug", flat=True))
    assert not Task.objects.visible_to(AnonymousUser()).exists()
    assert set(Task.objects.visible_to(staff).values_list("slug", flat=True)) == released
    urls = public_urls(staged_bench)
    assert statuses(Client(), urls) == {404}
    scores = list(Model.objects.values_list("slug", "score", "rank"))

    batch = Batch.objects.get(bench=staged_bench, number=1)
    response = superuser_client.post(
        reverse("admin:leaderboard_batch_changelist"),
        {"action": "publish_batches", "_selected_action": [batch.pk]},
    )
    assert response.status_code == 302
    visible = Task.objects.visible_to(AnonymousUser()).values_list("slug", flat=True)
    assert set(visible) == released
    assert Attempt.objects.visible_to(AnonymousUser()).count() == Attempt.objects.released().count()
    assert statuses(Client(), urls) == {200}
    assert list(Model.objects.values_list("slug", "score", "rank")) == scores

    record = ImportRecord.objects.get(via="admin")
    assert (record.action, record.outcome, record.via) == ("publish", "applied", "admin")
    assert record.summary["batch"] == 1
    assert set(record.summary["tasks"]) == released  # in the batch's own order
    entry = LogEntry.objects.get(object_id=str(batch.pk))
    assert entry.action_flag == CHANGE and "publish" in entry.change_message


def test_the_bench_page_button_unpublishes_a_batch(imported, superuser_client):
    urls = public_urls(imported)
    assert statuses(Client(), urls) == {200}
    page = superuser_client.get(reverse("admin:leaderboard_bench_change", args=[imported.pk]))
    assert "Unpublish batch 1" in page.content.decode()

    response = superuser_client.post(
        reverse("admin:leaderboard_bench_publish", args=[imported.pk]), {"batch": "1", "live": "0"}
    )
    assert response["Location"] == reverse("admin:leaderboard_bench_change", args=[imported.pk])
    assert not Batch.objects.get(bench=imported, number=1).live
    assert statuses(Client(), urls) == {404}
    assert not Task.objects.visible_to(AnonymousUser()).exists()
    page = superuser_client.get(response["Location"])
    assert "Publish batch 1" in page.content.decode()
    assert ImportRecord.objects.get(via="admin").action == "unpublish"
    assert LogEntry.objects.filter(object_id=str(Batch.objects.get(number=1).pk)).exists()


def test_publishing_a_live_batch_again_changes_nothing_and_says_so(imported, superuser_client):
    superuser_client.post(
        reverse("admin:leaderboard_bench_publish", args=[imported.pk]), {"batch": "1", "live": "1"}
    )
    record = ImportRecord.objects.get(via="admin")
    assert record.outcome == "no-change"
    assert "already live" in record.message


def test_publishing_needs_a_post_and_a_real_batch(imported, superuser_client):
    url = reverse("admin:leaderboard_bench_publish", args=[imported.pk])
    assert superuser_client.get(url).status_code == 405
    assert superuser_client.post(url, {"batch": "x", "live": "1"}).status_code == 404
    assert superuser_client.post(url, {"batch": "99", "live": "1"}).status_code == 404
    assert not ImportRecord.objects.filter(via="admin").exists()


def test_the_preview_page_reads_only_the_session_and_the_user(
    superuser_client, django_assert_num_queries
):
    # The preview was computed once, at upload; showing it again reads the staged JSON.
    staged = Staged.create()
    staged.write("meta.json", {"name": "x.zip", "sha256": "0" * 64})
    staged.write(
        "preview.json",
        {
            "source_name": "x.zip",
            "source_sha256": "0" * 64,
            "title": "",
            "summary": {"bench": "b", "changes": {"models": {"new": ["m"]}}},
            "problems": [],
            "score_changes": [],
        },
    )
    session = superuser_client.session
    session["ingest_imports"] = [staged.token]
    session.save()
    url = reverse("admin:ingest_import_preview", args=[staged.token])
    # 1. the session, 2. the user
    with django_assert_num_queries(2):
        page = superuser_client.get(url)
    assert page.status_code == 200
    assert "<code>m</code>" in page.content.decode()


# --- the lock -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_lock_refuses_an_import_from_another_connection():
    held, done = threading.Event(), threading.Event()

    def holder():
        try:
            with import_lock(holder="alice importing a.zip"):
                held.set()
                done.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(10)
        with pytest.raises(ImportBusy) as busy, import_lock(holder="bob importing b.zip"):
            pass
        assert "alice importing a.zip" in str(busy.value)
        assert " since 20" in str(busy.value)
    finally:
        done.set()
        thread.join()
    with import_lock(holder="bob importing b.zip"):
        with pytest.raises(ImportBusy) as busy, import_lock(holder="carol"):
            pass
        assert "bob importing b.zip" in str(busy.value)
    with import_lock(holder="carol"):
        pass  # released on leaving the block


@pytest.mark.django_db
def test_the_lock_is_refused_to_the_same_process_too():
    # The PostgreSQL advisory lock is taken on a connection of its own: taken
    # twice on one session it would be granted twice.
    with import_lock(holder="alice"), pytest.raises(ImportBusy), import_lock(holder="again"):
        pass


@pytest.mark.django_db
def test_the_lock_is_released_when_the_block_raises():
    with pytest.raises(RuntimeError), import_lock(holder="alice"):
        raise RuntimeError("import failed")
    with import_lock(holder="bob"):
        pass
    assert not ImportLock.objects.exists()  # the holder note went with it (PostgreSQL)
