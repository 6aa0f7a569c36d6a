"""No number breaks a page: every figure a release types is finite and bounded,
so the sums over a bench are too."""

from __future__ import annotations

import math

import pytest
from django.conf import settings
from django.urls import reverse

from leaderboard.models import Model
from tests.factories import edit_json, import_path

MODEL = "claude-opus-5-5-high"


def _at_the_bound(doc: dict) -> None:
    bound = settings.BENCHVIEW_LIMITS["number_max_abs"]
    doc["cost"]["usd"] = bound
    doc["timing"]["duration_s"] = bound


@pytest.mark.django_db
def test_a_model_whose_every_attempt_costs_the_most_a_number_may_be_still_has_its_pages(
    release_copy, client
):
    summaries = sorted((release_copy / "attempts" / MODEL).glob("*/summary.json"))
    assert len(summaries) >= 5
    for path in summaries:
        edit_json(path, _at_the_bound)
    bench = import_path(release_copy).bench
    model = Model.objects.get(bench=bench, slug=MODEL)
    assert math.isfinite(model.cost_usd) and math.isfinite(model.duration_s)
    assert model.cost_usd == pytest.approx(
        len(summaries) * settings.BENCHVIEW_LIMITS["number_max_abs"]
    )
    for address in (
        reverse("bench", args=[bench.slug]),
        reverse("model", args=[bench.slug, MODEL]),
        reverse("matrix", args=[bench.slug]),
        reverse("mirror-leaderboard", args=[bench.slug]),
        reverse("mirror-model", args=[bench.slug, MODEL]),
        "/api/models/",
        f"/api/models/?bench={bench.slug}",
        "/api/attempts/",
    ):
        assert client.get(address).status_code == 200, address
