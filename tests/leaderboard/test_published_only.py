"""A leaderboard row whose source published only an aggregate (no per-task
results): placed by its published score, marked, and in no statistic that
needs tasks (docs/statistics.md, "Published-only rows")."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.urls import reverse

from formats.reader import open_release
from ingest.writing.services import ImportRefused, write_release
from leaderboard.models import Model, Task
from tests.factories import dump, edit_json, import_path

ONLY = "leaderboard-only-agent"


def add_published_only(root: Path, score: float, *, model: str = ONLY) -> None:
    """Add a model the release has only a leaderboard row for: no matrix cells,
    no attempt folders, ``published_only: true``."""

    def manifest(doc):
        doc["models"].append(model)
        doc["counts"]["models"] += 1

    def board(doc):
        doc["rows"].append(
            {
                "rank": 1,
                "model": model,
                "display_name": "Leaderboard-only Agent",
                "harness": "unknown",
                "provider": "acme",
                "score": score,
                "tasks": 0,
                "flagged": 0,
                "cost_usd": None,
                "duration_s": 0.0,
                "by_surface": {},
                "published_only": True,
            }
        )

    def matrix(doc):
        doc["models"].append(model)

    edit_json(root / "manifest.json", manifest)
    edit_json(root / "leaderboard.json", board)
    edit_json(root / "matrix.json", matrix)
    bench = json.loads((root / "manifest.json").read_text())["bench"]
    (root / "models" / f"{model}.json").write_text(
        json.dumps(
            {
                "schema": "v1",
                "bench": bench,
                "model": {
                    "id": model,
                    "display_name": "Leaderboard-only Agent",
                    "harness": "unknown",
                    "provider": "acme",
                },
                "aggregate": {
                    "score": score,
                    "tasks": 0,
                    "flagged": 0,
                    "cost_usd": None,
                    "duration_s": 0.0,
                    "by_surface": {},
                },
                "attempts": [],
            }
        )
    )


@pytest.fixture
def with_top(db, release_copy):
    """The small release plus a published-only model above every other one."""
    add_published_only(release_copy, 0.99)
    return import_path(release_copy).bench


def test_it_is_placed_by_its_published_score_with_nothing_that_needs_tasks(with_top):
    only = Model.objects.get(bench=with_top, slug=ONLY)
    assert only.published_only is True
    assert only.score == pytest.approx(0.99) and only.published_score == pytest.approx(0.99)
    assert only.rank == 1
    assert (only.rank_low, only.rank_high, only.ci_low, only.ci_high) == (None,) * 4
    assert only.tasks == 0 and only.trials == 0 and only.flagged == 0
    assert only.pass_at_k == {} and only.by_surface == {} and only.cost_usd is None
    assert not with_top.disagreements.filter(model=only).exists()


def test_the_others_rank_ranges_count_it_but_their_scores_do_not_change(
    with_top, small_release_dir
):
    others = list(Model.objects.filter(bench=with_top, published_only=False))
    assert others and all(m.rank >= 2 and m.rank_low >= 2 for m in others)
    means = dict(Task.objects.filter(bench=with_top).values_list("slug", "mean_score"))
    # The same release without the row: every other figure the same, ranks one lower.
    plain = {m.slug: m for m in others}
    with open_release(small_release_dir) as source:
        write_release(source=source)
    for m in Model.objects.filter(bench=with_top).exclude(slug=ONLY):
        assert m.score == plain[m.slug].score
        assert m.rank == plain[m.slug].rank - 1
        assert (m.ci_low, m.ci_high) == (plain[m.slug].ci_low, plain[m.slug].ci_high)
    # A task's mean is over the models with per-task results only.
    assert dict(Task.objects.filter(bench=with_top).values_list("slug", "mean_score")) == means


def test_leaderboard_json_marks_it_and_matrix_json_has_no_row_for_it(client, with_top):
    rows = client.get(reverse("mirror-leaderboard", args=[with_top.slug])).json()["rows"]
    row = next(r for r in rows if r["model"] == ONLY)
    assert row["published_only"] is True and row["published_score"] == pytest.approx(0.99)
    assert row["rank"] == 1 and row["rank_low"] is None and row["tasks"] == 0
    assert all(r["published_only"] is False for r in rows if r["model"] != ONLY)
    matrix = client.get(reverse("mirror-matrix", args=[with_top.slug])).json()
    assert ONLY in matrix["models"]  # v1: every model is listed
    assert ONLY not in matrix["cells"]


def test_the_pages_mark_it_and_leave_it_out_of_the_matrix_and_versus(client, with_top):
    board = client.get(reverse("bench", args=[with_top.slug])).content.decode()
    row = board.split(f'id="model-{ONLY}"')[1].split("</tr>")[0]
    assert "published; no per-task results" in row
    assert "99.0" in row or "0.99" in row
    matrix = client.get(reverse("matrix", args=[with_top.slug])).content.decode()
    assert "Leaderboard-only Agent" not in matrix
    page = client.get(reverse("model", args=[with_top.slug, ONLY])).content.decode()
    assert "Published; no per-task results" in page and "its matrix row" not in page
    other = Model.objects.filter(bench=with_top, published_only=False).first()
    assert client.get(reverse("versus", args=[with_top.slug, ONLY, other.slug])).status_code == 404
    assert client.get(reverse("versus", args=[with_top.slug, other.slug, ONLY])).status_code == 404
    pick = client.get(reverse("versus-pick", args=[with_top.slug, other.slug])).content.decode()
    assert ONLY not in pick
    # Not "missing" on a task page: it has no per-task results at all.
    task = Task.objects.filter(bench=with_top, batch__isnull=False).first()
    page = client.get(reverse("task", args=[with_top.slug, task.slug]))
    assert page.status_code == 200 and ONLY not in page.content.decode()


def test_csv_and_api_carry_the_published_figure_and_the_mark(client, with_top):
    text = client.get(reverse("bench", args=[with_top.slug]), {"format": "csv"}).content
    rows = {r["model"]: r for r in csv.DictReader(io.StringIO(text.decode()))}
    assert rows[ONLY]["published_only"] == "True" and float(rows[ONLY]["published_score"]) == 0.99
    assert rows[ONLY]["rank_low"] == "" and rows[ONLY]["passed"] == ""
    api = client.get(reverse("api-model-list"), {"bench": with_top.slug}).json()["results"]
    found = {r["id"]: r for r in api}
    assert found[ONLY]["published_only"] is True and found[ONLY]["passed"] is None
    assert found[ONLY]["published_score"] == pytest.approx(0.99)
    assert all(r["published_only"] is False for k, r in found.items() if k != ONLY)


def test_a_published_only_row_with_matrix_cells_is_refused_and_nothing_written(db, release_copy):
    add_published_only(release_copy, 0.5)
    task = json.loads((release_copy / "manifest.json").read_text())["tasks"][0]
    edit_json(
        release_copy / "matrix.json",
        lambda d: d["cells"].setdefault(ONLY, {}).update({task: {"score": 1.0, "flags": []}}),
    )
    before = dump()
    with open_release(release_copy) as source, pytest.raises(ImportRefused) as refused:
        write_release(source=source)
    found = [(p.file, p.path, p.message) for p in refused.value.plan.problems]
    assert ("leaderboard.json", "rows[5].published_only", "the model has matrix cells") in found
    assert dump() == before


def test_a_published_only_mark_that_is_not_a_boolean_is_refused(db, release_copy):
    add_published_only(release_copy, 0.5)
    edit_json(release_copy / "leaderboard.json", lambda d: d["rows"][5].update(published_only=1))
    with open_release(release_copy) as source, pytest.raises(ImportRefused) as refused:
        write_release(source=source)
    found = [(p.file, p.path) for p in refused.value.plan.problems]
    assert ("leaderboard.json", "rows[5].published_only") in found
