"""/data/v1/<bench>/…: the release served back, with the HTTP a static host gives."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from leaderboard.models import Attempt, Batch
from leaderboard.services import batch_publish
from tests.ingest.roundtrip import ADDED_KEYS, json_differences

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mirror_cold")]
BENCH = "integration-bench"


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _url(name: str) -> str:
    return f"/data/v1/{BENCH}/{name}"


def test_the_mirror_serves_every_file_of_the_release_as_imported(client, bench, small_release_dir):
    files = sorted(p for p in small_release_dir.rglob("*") if p.is_file())
    assert len(files) > 100
    for path in files:
        name = path.relative_to(small_release_dir).as_posix()
        response = client.get(_url(name))
        assert response.status_code == 200, name
        body = _body(response)
        if name.endswith(".json"):
            added = ADDED_KEYS.get(name, frozenset())
            served = json.loads(body)
            assert json_differences(json.loads(path.read_bytes()), served, added=added) == [], name
        else:
            assert body == path.read_bytes(), name


def _first_attempt(**filters) -> Attempt:
    return (
        Attempt.objects.released()
        .filter(**filters)
        .select_related("model", "task")
        .order_by("model__slug", "task__slug")
        .first()
    )


def _attempt_url(attempt: Attempt, filename: str) -> str:
    return reverse(
        "mirror-attempt-file", args=[BENCH, attempt.model.slug, attempt.task.slug, filename]
    )


CONTENT_TYPES = {
    "summary.json": "application/json",
    "trajectory.json": "application/json",
    "patch.diff": "text/plain; charset=utf-8",
    "transcript.jsonl": "text/plain; charset=utf-8",
    "problem.md": "text/markdown; charset=utf-8",
}


def test_every_file_carries_its_content_type_cors_a_strong_etag_and_public_caching(client, bench):
    attempt = _first_attempt(evidence__patch__isnull=False)
    urls = {_attempt_url(attempt, name): kind for name, kind in CONTENT_TYPES.items()}
    for name in ("manifest.json", "leaderboard.json", "matrix.json"):
        urls[_url(name)] = "application/json"
    for url, content_type in urls.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == content_type, url
        assert response["Access-Control-Allow-Origin"] == "*"
        etag = response["ETag"]
        assert etag.startswith('"') and etag.endswith('"'), url
        assert response["Cache-Control"] == "public, max-age=300", url
        assert "Cookie" in response["Vary"], url
        assert client.get(url)["ETag"] == etag, url


def test_if_none_match_with_the_current_etag_answers_304_without_a_body(client, bench):
    for name in (
        "leaderboard.json",
        "models/gpt-6-astra-high.json",
        "tasks/stripe-refund-webhook.json",
    ):
        etag = client.get(_url(name))["ETag"]
        response = client.get(_url(name), HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, name
        assert response.content == b""
        assert response["ETag"] == etag
        assert response["Access-Control-Allow-Origin"] == "*"
        assert client.get(_url(name), HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_a_trajectory_is_streamed_and_its_304_never_builds_it(
    client, bench, django_assert_num_queries
):
    attempt = _first_attempt()
    url = _attempt_url(attempt, "trajectory.json")
    response = client.get(url)
    assert response.streaming
    events = json.loads(_body(response))["events"]
    assert [e["index"] for e in events] == list(range(len(events)))
    # 1: the attempt with its task, batch and evidence; the events are never read.
    with django_assert_num_queries(1):
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert not_modified.status_code == 304


def test_head_answers_the_headers_of_get_without_the_body(client, bench):
    attempt = _first_attempt()
    for name in ("leaderboard.json", "trajectory.json", "problem.md"):
        url = _url(name) if name == "leaderboard.json" else _attempt_url(attempt, name)
        get, head = client.get(url), client.head(url)
        assert head.status_code == 200
        assert _body(head) == b""
        assert head["ETag"] == get["ETag"]
        assert head["Content-Type"] == get["Content-Type"]
    assert client.head(_url("leaderboard.json"))["Content-Length"] == str(
        len(client.get(_url("leaderboard.json")).content)
    )


def test_cors_preflight_is_answered_and_other_methods_are_refused(client, bench):
    preflight = client.options(_url("matrix.json"))
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "If-None-Match" in preflight["Access-Control-Allow-Headers"]
    refused = client.post(_url("matrix.json"))
    assert refused.status_code == 405
    assert "Cookie" in refused["Vary"]


def test_a_missing_verdict_answers_404_as_on_a_static_mirror(client, bench):
    attempt = _first_attempt(verdict__isnull=True)
    assert attempt is not None
    response = client.get(_attempt_url(attempt, "verdict.json"))
    assert response.status_code == 404
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Cookie" in response["Vary"]
    assert client.get(_attempt_url(attempt, "summary.json")).status_code == 200


def test_unknown_files_benches_and_models_answer_404(client, bench):
    attempt = _first_attempt()
    assert client.get(_attempt_url(attempt, "secrets.txt")).status_code == 404
    assert client.get("/data/v1/no-such-bench/manifest.json").status_code == 404
    assert client.get(_url("models/no-such-model.json")).status_code == 404


def test_tasks_in_no_batch_have_no_files_for_anyone(admin_client, bench):
    unreleased = Attempt.objects.filter(task__batch__isnull=True).select_related("task").first()
    assert admin_client.get(_url(f"tasks/{unreleased.task.slug}.json")).status_code == 404


@pytest.fixture
def staged(bench) -> Batch:
    batch = bench.batches.get()
    batch_publish(batch=batch, live=False)
    return batch


def test_staged_task_files_answer_404_to_the_public(client, staged):
    attempt = _first_attempt()
    assert client.get(_url(f"tasks/{attempt.task.slug}.json")).status_code == 404
    for filename in ("summary.json", "trajectory.json", "problem.md"):
        assert client.get(_attempt_url(attempt, filename)).status_code == 404


def test_staff_get_staged_files_never_cached_publicly(admin_client, staged):
    attempt = _first_attempt()
    for url in (_url(f"tasks/{attempt.task.slug}.json"), _attempt_url(attempt, "summary.json")):
        response = admin_client.get(url)
        assert response.status_code == 200
        assert response["Cache-Control"] == "private, no-store"
        assert "Cookie" in response["Vary"]


def test_derived_documents_are_the_same_for_everyone_while_a_batch_is_staged(
    client, admin_client, staged
):
    for name in ("manifest.json", "matrix.json", "leaderboard.json"):
        public, staff = client.get(_url(name)), admin_client.get(_url(name))
        assert public.content == staff.content
        assert public["Cache-Control"].startswith("public")
    manifest = json.loads(client.get(_url("manifest.json")).content)
    assert manifest["counts"]["released_tasks"] == staged.tasks.count()


def test_warm_derived_documents_and_their_304s_need_no_query(
    client, bench, settings, django_assert_num_queries
):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 60}
    etag = client.get(_url("matrix.json"))["ETag"]
    with django_assert_num_queries(0):
        assert client.get(_url("matrix.json")).status_code == 200
        assert client.get(_url("matrix.json"), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_building_the_matrix_takes_the_same_queries_however_many_attempts(
    client, bench, django_assert_num_queries
):
    # 1 bench, 6 fingerprint (batches, models, tasks, attempts), then the build:
    # 1 bench by pk, 1 tasks with batches, 1 models, 1 attempts.
    with django_assert_num_queries(9):
        client.get(_url("matrix.json"))
    Attempt.objects.filter(has_detail=False).delete()
    cache.clear()
    with django_assert_num_queries(9):
        client.get(_url("matrix.json"))
