"""Every table page answers ?format=csv and ?format=json with the rows it shows, filters kept."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Model, Task

pytestmark = pytest.mark.django_db


def csv_rows(client, url, params):
    response = client.get(url, {**params, "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_leaderboard_csv_is_the_filtered_sorted_table(client, bench):
    url = reverse("bench", args=[bench.slug])
    params = {"harness": "codex", "sort": "-cost"}
    html = client.get(url, params).content.decode()
    shown = re.findall(r'<tr id="model-([^"]+)">', html)
    assert shown
    assert [r["model"] for r in csv_rows(client, url, params)] == shown
    assert [r["model"] for r in client.get(url, {**params, "format": "json"}).json()] == shown
    assert 'href="?harness=codex&amp;sort=-cost&amp;format=csv"' in html


def test_the_matrix_csv_has_one_row_per_shown_cell(client, bench):
    url = reverse("matrix", args=[bench.slug])
    rows = csv_rows(client, url, {"surface": "payments"})
    tasks = Task.objects.filter(bench=bench, surface="payments").count()
    assert len(rows) == Model.objects.filter(bench=bench).count() * tasks
    assert {r["surface"] for r in rows} == {"payments"}


def test_the_model_and_task_csv_list_their_attempts(client, bench):
    model = Model.objects.filter(bench=bench).first()
    rows = csv_rows(client, reverse("model", args=[bench.slug, model.slug]), {})
    visible = Attempt.objects.filter(model=model, has_detail=True, task__batch__live=True)
    assert sorted(r["task"] for r in rows) == sorted(visible.values_list("task__slug", flat=True))
    task = Task.objects.filter(bench=bench, batch__live=True).first()
    rows = csv_rows(client, reverse("task", args=[bench.slug, task.slug]), {})
    assert len(rows) == Attempt.objects.filter(task=task).count()
    assert set(task.checks.values_list("name", flat=True)) <= set(rows[0])
