"""Unknown costs stay unknown: null in every document, "+ N unknown" on pages, sorted last."""

from __future__ import annotations

import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from leaderboard.models import Bench, Model
from tests.factories import import_path
from tests.ingest.harbor_trials import import_harbor, job, trial

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_mirror_state():
    # The mirror caches a bench's state by slug; every test here imports "hb" anew.
    cache.clear()


PARTLY = "partly-claude-code"
NONE = "nocost-claude-code"
PAID = "paid-claude-code"


def three_models(root) -> None:
    """``partly``: $2.00, unknown, $1.50; ``nocost``: all unknown; ``paid``: $0.50 each."""
    folder = job(root)
    for task, cost in (("t1", 2.0), ("t2", None), ("t3", 1.5)):
        trial(folder, task, model="partly", cost=cost, name=f"{task}__p")
        trial(folder, task, model="nocost", cost=None, name=f"{task}__n")
        trial(folder, task, model="paid", cost=0.5, name=f"{task}__c")
    import_harbor(root, stdout=io.StringIO(), stderr=io.StringIO())


def test_a_sum_of_partly_unknown_costs_says_how_many_are_unknown(tmp_path, client):
    three_models(tmp_path)
    partly = Model.objects.get(slug=PARTLY)
    assert (partly.cost_usd, partly.cost_unknown_trials) == (3.5, 1)
    nocost = Model.objects.get(slug=NONE)
    assert (nocost.cost_usd, nocost.cost_unknown_trials) == (None, 3)
    html = client.get(reverse("bench", args=["hb"])).content.decode()
    assert "$3.50 + 1 unknown" in html
    page = client.get(reverse("model", args=["hb", PARTLY])).content.decode()
    assert "<dd>$3.50 + 1 unknown</dd>" in page
    page = client.get(reverse("model", args=["hb", NONE])).content.decode()
    assert "<dd>unknown</dd>" in page and "$0.00" not in page


def test_unknown_cost_is_null_in_every_document_and_the_api(tmp_path, client):
    three_models(tmp_path)
    rows = {
        r["model"]: r for r in client.get(reverse("mirror-leaderboard", args=["hb"])).json()["rows"]
    }
    assert rows[NONE]["cost_usd"] is None and rows[NONE]["cost_unknown_trials"] == 3
    assert rows[PARTLY]["cost_usd"] == 3.5 and rows[PARTLY]["cost_unknown_trials"] == 1
    assert "cost_unknown_trials" not in rows[PAID]
    doc = client.get(reverse("mirror-model", args=["hb", NONE])).json()
    assert doc["aggregate"]["cost_usd"] is None
    assert [a["cost_usd"] for a in doc["attempts"]] == [None, None, None]
    api = {m["id"]: m for m in client.get("/api/models/?bench=hb").json()["results"]}
    assert api[NONE]["cost_usd"] is None and api[NONE]["cost_unknown_trials"] == 3
    assert api[PAID]["cost_usd"] == 1.5


def test_export_then_import_keeps_unknown_costs_unknown(tmp_path):
    three_models(tmp_path / "jobs")
    out = tmp_path / "release"
    call_command("export_release", "hb", str(out), stdout=io.StringIO())
    rows = {r["model"]: r for r in json.loads((out / "leaderboard.json").read_text())["rows"]}
    assert rows[NONE]["cost_usd"] is None
    Bench.objects.all().delete()
    import_path(out)
    assert Model.objects.get(slug=NONE).cost_usd is None
    partly = Model.objects.get(slug=PARTLY)
    assert (partly.cost_usd, partly.cost_unknown_trials) == (3.5, 1)


def test_sorting_by_cost_puts_unknown_last_either_way(tmp_path, client):
    three_models(tmp_path)
    for sort in ("cost", "-cost"):
        html = client.get(reverse("bench", args=["hb"]) + f"?sort={sort}").content.decode()
        order = sorted((PARTLY, NONE, PAID), key=lambda m: html.index(f'id="model-{m}"'))
        assert order[-1] == NONE, sort
