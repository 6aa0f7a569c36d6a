"""The leaderboard's model facts: results date, organisation, open weights,
open system and verified, from the release's extension fields and the
attempts' dates; shown, filterable, in CSV, JSON and the API."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from leaderboard.facts import ModelFacts, declared, facts_of
from leaderboard.models import Attempt, Model
from tests.factories import import_path

FACTS = {
    # model position in the small release -> extension fields of its "model" object
    0: {"organisation": "Anthropic", "verified": True},
    1: {"organization": "Moonshot", "open_weights": True, "open_system": True},
    2: {"open_weights": "yes"},  # not a boolean: ignored
}


@pytest.fixture
def with_facts(db, release_copy):
    for i, path in enumerate(sorted((release_copy / "models").glob("*.json"))):
        if i in FACTS:
            doc = json.loads(path.read_text())
            doc["model"].update(FACTS[i])
            path.write_text(json.dumps(doc))
    bench = import_path(release_copy).bench
    slugs = [m.slug for m in Model.objects.filter(bench=bench).order_by("slug")]
    return bench, slugs


def test_declared_facts_come_from_the_model_object_or_the_top_level():
    tree = {"__extra__": {"verified": True}, "model": {"__extra__": {"organization": "Zhipu"}}}
    assert declared(tree) == {"verified": True, "organisation": "Zhipu"}
    assert declared({"model": {"__extra__": {"open_weights": 1}}}) == {}
    assert declared(None) == {}


def test_the_results_date_is_the_last_attempt_unless_the_release_says():
    model = Model(extras={})
    assert facts_of(model, "2026-11-02T09:04:50Z").results_date == "2026-11-02"
    model.extras = {"model": {"__extra__": {"results_date": "2026-10-01T00:00:00Z"}}}
    assert facts_of(model, "2026-11-02T09:04:50Z").results_date == "2026-10-01"
    assert facts_of(Model(extras={}), None) == ModelFacts()


def test_the_board_shows_each_models_facts(client, with_facts):
    bench, slugs = with_facts
    html = client.get(reverse("bench", args=[bench.slug])).content.decode()
    assert "✓ verified" in html and "Anthropic" in html and "Moonshot" in html
    assert html.count("open weights</span>") == 1
    last = max(Attempt.objects.filter(bench=bench, model__slug=slugs[0]).values_list(
        "finished_at", flat=True))  # fmt: skip
    assert f'<time datetime="{last[:10]}"' in html


def test_the_board_filters_by_each_fact(client, with_facts):
    bench, slugs = with_facts
    url = reverse("bench", args=[bench.slug])

    def models(query: str) -> list[str]:
        text = client.get(f"{url}?{query}&format=csv").content.decode()
        return sorted(r["model"] for r in csv.DictReader(io.StringIO(text)))

    assert models("verified=1") == [slugs[0]]
    assert models("open_weights=1") == [slugs[1]]
    assert models("open_system=1") == [slugs[1]]
    assert models("organisation=Moonshot") == [slugs[1]]
    # Empty fields are no filter.
    assert models("verified=&organisation=") == sorted(slugs)


def test_csv_json_and_api_carry_the_facts(client, with_facts):
    bench, slugs = with_facts
    url = reverse("bench", args=[bench.slug])
    rows = {
        r["model"]: r
        for r in csv.DictReader(io.StringIO(client.get(f"{url}?format=csv").content.decode()))
    }
    assert rows[slugs[0]]["organisation"] == "Anthropic" and rows[slugs[0]]["verified"] == "True"
    assert rows[slugs[2]]["open_weights"] == ""
    doc = client.get(f"{url}?format=json").json()
    first = next(r for r in doc if r["model"] == slugs[1])
    assert first["open_weights"] is True and first["verified"] is None
    api = client.get(reverse("api-model-list") + f"?bench={bench.slug}").json()["results"]
    by_id = {m["id"]: m for m in api}
    assert by_id[slugs[0]]["verified"] is True
    assert by_id[slugs[1]]["organisation"] == "Moonshot"
    assert by_id[slugs[2]]["open_weights"] is None
    assert by_id[slugs[0]]["results_date"] == rows[slugs[0]]["results_date"] != ""
