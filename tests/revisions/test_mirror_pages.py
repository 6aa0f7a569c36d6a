"""A revision's pages and mirror files never change; the list, the difference,
the model's history, the live board's "cite this" and the API say the same."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from leaderboard.models import BenchRevision
from tests.factories import grow, h1_count
from tests.revisions.conftest import BENCH, a_addresses, answers
from tests.revisions.releases import ADDED, REMOVED

pytestmark = pytest.mark.django_db


def test_a_pages_and_files_are_byte_identical_before_and_after_b(a_then_b, client):
    _, before, _ = a_then_b
    assert answers(client) == before["answers"]
    assert all(status == 200 for status, _, _ in before["answers"].values())


def test_a_files_are_immutable_with_a_strong_etag_and_open_cors(a_then_b, client):
    _, before, _ = a_then_b
    for url in a_addresses()[2:]:
        response = client.get(url)
        assert response["Cache-Control"] == "public, max-age=31536000, immutable"
        assert re.fullmatch(r'"[0-9a-f]{40}"', response["ETag"])
        assert response["ETag"] == before["answers"][url][2]
        assert response["Access-Control-Allow-Origin"] == "*"
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_an_unknown_revision_is_not_found(a_then_b, client):
    assert client.get(reverse("mirror-revision-matrix", args=[BENCH, "99"])).status_code == 404
    assert client.get(reverse("revision", args=[BENCH, "99"])).status_code == 404
    assert client.get(reverse("revision-diff", args=[BENCH, "01", "99"])).status_code == 404


def test_revisions_json_lists_them_newest_first(a_then_b, client):
    response = client.get(reverse("mirror-revisions", args=[BENCH]))
    doc = json.loads(response.content)
    assert [(r["id"], r["revision"], r["cause"]) for r in doc["revisions"]] == [
        ("02", "02", "import"),
        ("01", "01", "import"),
    ]
    assert doc["revisions"][1]["leaderboard"] == (
        "http://testserver" + reverse("mirror-revision-leaderboard", args=[BENCH, "01"])
    )
    assert response["Access-Control-Allow-Origin"] == "*"


def test_the_list_page_says_what_changed_newest_first(a_then_b, client):
    html = client.get(reverse("revisions", args=[BENCH])).content.decode()
    assert h1_count(html) == 1
    assert html.index('id="rev-02"') < html.index('id="rev-01"')
    assert "Added <a" in html and "Removed Qwen4 Coder (OpenCode)" in html
    assert "<code>currency-rounding-fix</code>" in html
    assert reverse("revision-diff", args=[BENCH, "01", "02"]) in html


def test_the_difference_lists_exactly_the_changes_of_b(a_then_b, client):
    html = client.get(reverse("revision-diff", args=[BENCH, "01", "02"])).content.decode()
    assert h1_count(html) == 1
    items = re.findall(r'<li class="(change-[a-z]+)">', html)
    assert sorted(items) == ["change-added", "change-moved", "change-moved", "change-released",
                             "change-removed"]  # fmt: skip
    assert f'href="{reverse("model", args=[BENCH, ADDED])}"' in html
    assert "(<code>" + REMOVED + "</code>)" in html
    assert "rank 4 → 5" in html and "0.591 → 0.627" in html
    assert "<code>currency-rounding-fix</code>, <code>stripe-dispute-slack-alert</code>" in html


def test_a_revision_board_shows_the_frozen_rows_with_counts_interval_and_surfaces(a_then_b, client):
    bench, _, _ = a_then_b
    html = client.get(reverse("revision", args=[BENCH, "01"])).content.decode()
    assert h1_count(html) == 1
    frozen = json.loads(bench.revisions.get(slug="01").leaderboard_json)
    names = re.findall(r'<th scope="row" class="model-name"><a href="[^"]+">([^<]+)</a>', html)
    assert names == [r["display_name"] for r in frozen["rows"]]
    assert REMOVED in html and ADDED not in html
    assert '<th scope="col" class="num">payments</th>' in html


def test_the_model_page_charts_its_score_in_both_revisions(a_then_b, client):
    bench, _, _ = a_then_b
    html = client.get(reverse("model", args=[BENCH, "gpt-6-astra-high"])).content.decode()
    assert html.count('<circle class="dot"') == 2
    assert "<title>01: 0.591</title>" in html and "<title>02: 0.627</title>" in html
    added = client.get(reverse("model", args=[BENCH, ADDED])).content.decode()
    assert added.count('<circle class="dot"') == 1


def test_the_live_board_says_its_revision_and_offers_a_citation(a_then_b, client):
    html = client.get(reverse("bench", args=[BENCH])).content.decode()
    permalink = "http://testserver" + reverse("revision", args=[BENCH, "02"])
    assert f'<a href="{reverse("revision", args=[BENCH, "02"])}">02</a>' in html
    assert "<summary>Cite this</summary>" in html
    assert f"howpublished = {{\\url{{{permalink}}}}}" in html
    assert "@misc{benchview-integration-bench-02," in html
    assert "{{Integration Bench} leaderboard, revision 02}" in html


def test_the_api_lists_revisions_with_the_frozen_documents(a_then_b, client):
    bench, _, _ = a_then_b
    response = client.get(reverse("api-bench-revisions", args=[BENCH]))
    assert response.status_code == 200
    results = response.json()["results"]
    assert [r["id"] for r in results] == ["02", "01"]
    a = bench.revisions.get(slug="01")
    assert results[1]["leaderboard"] == json.loads(a.leaderboard_json)
    assert results[1]["matrix"] == json.loads(a.matrix_json)
    assert results[0]["changes"] == bench.revisions.get(slug="02").changes
    assert client.get(reverse("api-bench-revisions", args=["nope"])).status_code == 404


def test_the_api_schema_describes_the_revisions_endpoint(client):
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert "/api/benches/{bench}/revisions/" in json.loads(schema.content)["paths"]


@pytest.mark.parametrize(
    ("name", "args", "queries"),
    [
        # 1 bench, 2 the revisions (without their files)
        ("revisions", [BENCH], 2),
        # 1 bench, 2 the revision
        ("revision", [BENCH, "01"], 2),
        ("revision-matrix", [BENCH, "01"], 2),
        # 1 bench, 2 both revisions in one query
        ("revision-diff", [BENCH, "01", "02"], 2),
    ],
)
def test_revision_pages_query_count_does_not_grow(
    a_then_b, client, django_assert_num_queries, name, args, queries
):
    bench, _, _ = a_then_b
    url = reverse(name, args=args)
    with django_assert_num_queries(queries):
        client.get(url)
    grow(bench, models=3, tasks=4)
    BenchRevision.objects.create(
        bench=bench, slug="03", number=3, recorded_at=bench.revisions.get(slug="02").recorded_at,
        cause="import", leaderboard_json=bench.revisions.get(slug="02").leaderboard_json,
        matrix_json=bench.revisions.get(slug="02").matrix_json,
    )  # fmt: skip
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200
