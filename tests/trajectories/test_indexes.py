"""The indexes: /api/ (DRF's root) and /data/v1/, /data/v1/<bench>/ (the mirror's files)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Model, Task
from trajectories.api.root import RESOURCES

pytestmark = pytest.mark.django_db


def test_the_api_root_answers_json_listing_every_resource_and_the_docs(client):
    response = client.get("/api/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {*RESOURCES, "data"}
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["benches"] == "http://testserver/api/benches/"


def test_the_api_root_lists_every_resource_of_the_api():
    from trajectories.api.urls import urlpatterns

    # Every named address of /api/ but the root itself and the detail pages
    # (reached from their lists' items).
    names = {p.name for p in urlpatterns if p.name and p.name != "api-root"}
    listed = {n for n in names if not n.endswith("-detail")}
    assert listed == set(RESOURCES.values())


def test_the_api_root_answers_a_browser_with_an_html_page(client):
    response = client.get("/api/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert 'href="/api/docs/"' in html
    assert "no login" in html
    assert "Log in" not in html


def test_the_schema_declares_no_security_so_the_docs_offer_no_login(client):
    schema = client.get("/api/schema/?format=json", HTTP_ACCEPT="application/json").json()
    assert "securitySchemes" not in schema.get("components", {})
    # [{}] is OpenAPI for "no credentials needed".
    for path in schema["paths"].values():
        for operation in path.values():
            assert operation.get("security", [{}]) == [{}]


def test_unknown_api_addresses_still_answer_the_error_shape(client):
    response = client.get("/api/nothing-here/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_data_root_lists_the_benches_as_json_for_scripts(client, bench):
    response = client.get("/data/v1/")
    assert response.status_code == 200
    body = response.json()
    assert [b["id"] for b in body["benches"]] == [bench.slug]
    assert body["benches"][0]["manifest"].endswith(f"/data/v1/{bench.slug}/manifest.json")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Accept" in response["Vary"]


def test_the_data_root_answers_a_browser_with_a_page(client, bench):
    response = client.get("/data/v1/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response["Content-Type"].startswith("text/html")
    assert f'href="{reverse("data-bench", args=[bench.slug])}"' in response.content.decode()


def test_the_bench_data_index_lists_every_file_the_mirror_serves(client, bench):
    body = client.get(f"/data/v1/{bench.slug}/", {"format": "json"}).json()
    files = body["files"]
    assert files[:3] == ["manifest.json", "leaderboard.json", "matrix.json"]
    assert {
        f"models/{m}.json" for m in Model.objects.filter(bench=bench).values_list("slug", flat=True)
    } <= set(files)
    live = set(Task.objects.filter(bench=bench, batch__live=True).values_list("slug", flat=True))
    assert {f[len("tasks/") : -len(".json")] for f in files if f.startswith("tasks/")} == live
    released = Attempt.objects.filter(bench=bench, has_detail=True, task__batch__live=True).count()
    assert sum(1 for f in files if f.endswith("/summary.json")) == released
    # Every listed file is there to fetch.
    for path in files[:3] + [f for f in files if f.startswith("attempts/")][:7]:
        assert client.get(f"/data/v1/{bench.slug}/{path}").status_code == 200, path


def test_the_bench_data_index_hides_staged_tasks_from_the_public(client, bench):
    batch = bench.batches.first()
    batch.live = False
    batch.save()
    body = client.get(f"/data/v1/{bench.slug}/", {"format": "json"}).json()
    assert not [f for f in body["files"] if f.startswith(("tasks/", "attempts/"))]


def test_an_unknown_bench_has_no_data_index(client, db):
    assert client.get("/data/v1/no-such-bench/").status_code == 404
