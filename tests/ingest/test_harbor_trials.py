"""Several trials of one model on one task (Harbor's n_attempts): every trial kept
with its own page, cells of passed/total trials, a pass rate counting trials, and
the trials/<n>/ release extension surviving export → import."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from ingest.writing.export import release_export
from leaderboard.models import Attempt, Bench, Disagreement, Model, Task
from samplegen.harbor import write_sample_harbor
from tests.factories import dump
from tests.ingest.harbor_trials import import_harbor, job, trial
from tests.ingest.roundtrip import release_differences
from trajectories.models import Blob
from trajectories.queries import other_models

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_mirror(settings):
    # The mirror trusts a bench's state for a while; each test imports its own "hb".
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 0}
    cache.clear()
    yield
    cache.clear()


A = "claude-sonnet-4-5-claude-code"
B = "gpt-6-codex"


def body(response) -> str:
    assert response.status_code == 200, response.status_code
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def quiet(*paths, **options) -> None:
    import_harbor(*paths, stdout=io.StringIO(), stderr=io.StringIO(), **options)


@pytest.fixture
def three_trials(tmp_path):
    """Model A ran t1 three times (pass, fail, pass) and t2 once (pass); model B
    ran each task once (t1 fails, t2 passes)."""
    j = job(tmp_path / "jobs")
    for name, reward, hour in (("t1__aaa", 1.0, 10), ("t1__bbb", 0.0, 11), ("t1__ccc", 1.0, 12)):
        trial(j, "t1", name=name, reward=reward, started=f"2025-11-19T{hour}:00:00")
    trial(j, "t2", name="t2__aaa", reward=1.0)
    trial(j, "t1", name="t1__bx", model="gpt-6", agent="codex", provider="openai", reward=0.0)
    trial(j, "t2", name="t2__bx", model="gpt-6", agent="codex", provider="openai", reward=1.0)
    quiet(j)
    return j


def _trial_url(model: str, task: str, n: int) -> str:
    return reverse("attempt-trial", args=["hb", model, task, n])


def test_every_trial_is_kept_in_start_order_and_has_its_own_page(three_trials, client):
    rows = Attempt.all_trials.filter(model__slug=A, task__slug="t1").order_by("trial")
    assert [(a.trial, a.summary["harbor"]["trial_name"], a.score) for a in rows] == [
        (0, "t1__aaa", 1.0),
        (1, "t1__bbb", 0.0),
        (2, "t1__ccc", 1.0),
    ]
    # The one-attempt-per-(model, task) view the site relies on is unchanged.
    assert Attempt.objects.filter(model__slug=A, task__slug="t1").count() == 1
    first = body(client.get(reverse("attempt", args=["hb", A, "t1"])))
    assert "t1__aaa" in first and f'href="/hb/attempts/{A}/t1/trials/2/"' in first
    for n, name in ((1, "t1__bbb"), (2, "t1__ccc")):
        page = body(client.get(_trial_url(A, "t1", n)))
        assert f"this is trial {n} ({name}" in page
        assert f'<strong aria-current="page">trial {n}</strong>' in page
        # Its own files, events and transcript, under its own address.
        assert f"/data/v1/hb/attempts/{A}/t1/trials/{n}/summary.json" in page
        assert client.get(f"{_trial_url(A, 't1', n)}events/0/").status_code == 200
        assert client.get(f"{_trial_url(A, 't1', n)}transcript/").status_code == 200
        summary = client.get(f"/data/v1/hb/attempts/{A}/t1/trials/{n}/summary.json").json()
        assert summary["harbor"]["trial_name"] == name
    assert client.get(_trial_url(A, "t1", 3)).status_code == 404
    # Trial 0 has one address only: the attempt's.
    assert client.get(_trial_url(A, "t1", 0)).status_code == 404
    assert client.get(f"/data/v1/hb/attempts/{A}/t1/trials/0/summary.json").status_code == 404


def test_the_cell_shows_passed_over_total_trials(three_trials, client):
    html = body(client.get(reverse("matrix", args=["hb"])))
    assert "2 of 3 trials passed" in html and ">2/3</a>" in html
    assert html.count(' trials"><a ') == 1  # cells of one trial show their score
    cells = client.get("/data/v1/hb/matrix.json").json()["cells"]
    assert cells[A]["t1"]["x-trials"] == {"passed": 2, "total": 3}
    assert "x-trials" not in cells[A]["t2"] and "x-trials" not in cells[B]["t1"]
    assert cells[A]["t1"]["score"] == 1.0  # the cell's v1 score stays the first trial's


def test_the_pass_rate_counts_trials_and_the_leaderboard_says_so(three_trials, client):
    a, b = Model.objects.get(slug=A), Model.objects.get(slug=B)
    # A: t1 pass, fail, pass and t2 pass: 3 of 4 trials; each task weighs the
    # same, so the score is (2/3 + 1) / 2, not 3/4.
    assert (a.passed, a.trials, a.tasks) == (3, 4, 2)
    assert a.score == pytest.approx((2 / 3 + 1) / 2, abs=1e-12)
    assert (b.passed, b.trials, b.tasks, b.score) == (1, 2, 2, 0.5)
    html = body(client.get(reverse("bench", args=["hb"])))
    assert "83.3%: 3 of 4 trials on 2 tasks" in html and "50.0% (1/2)" in html
    assert "Every trial counts, and every task weighs the same." in html
    model_page = body(client.get(reverse("model", args=["hb", A])))
    assert "83.3%: 3 of 4 trials on 2 tasks" in model_page
    # The adapter's leaderboard.json agrees with the recomputed figures.
    assert not Disagreement.objects.exists()
    rows = {r["model"]: r for r in client.get("/data/v1/hb/leaderboard.json").json()["rows"]}
    assert rows[A]["score"] == a.score
    assert rows[A]["pass_rate"] == "83.3%: 3 of 4 trials on 2 tasks"


def test_a_bench_with_one_trial_per_task_keeps_its_addresses_and_figures(tmp_path, client):
    j = job(tmp_path)
    trial(j, "t1", reward=1.0)
    trial(j, "t2", reward=0.0)
    quiet(j)
    assert Attempt.all_trials.count() == Attempt.objects.count() == 2
    model = Model.objects.get()
    assert (model.passed, model.trials, model.tasks, model.score) == (1, 2, 2, 0.5)
    board = body(client.get(reverse("bench", args=["hb"])))
    assert "50.0% (1/2)" in board and "counts trials" not in board
    attempt = body(client.get(f"/hb/attempts/{model.slug}/t1/"))
    assert "/trials/" not in attempt
    matrix = body(client.get(reverse("matrix", args=["hb"])))
    assert "trials passed" not in matrix and f'href="/hb/attempts/{model.slug}/t1/"' in matrix
    assert "x-trials" not in client.get("/data/v1/hb/matrix.json").content.decode()


def _state() -> list:
    rows = Attempt.all_trials.select_related("model", "task", "evidence").order_by(
        "model__slug", "task__slug", "trial"
    )
    return [
        (
            a.model.slug,
            a.task.slug,
            a.trial,
            a.score,
            a.flags,
            a.summary,
            a.evidence.events_total,
            list(a.check_results.values_list("name", "passed")),
            list(a.events.order_by("index").values_list("type", "tool", "ok")),
        )
        for a in rows
    ] + list(Model.objects.order_by("slug").values_list("slug", "score", "passed", "trials"))


def test_export_then_import_release_keeps_every_trial(three_trials, tmp_path):
    before = _state()
    first = tmp_path / "first"
    release_export(bench=Bench.objects.get(slug="hb"), root=first)
    # The extension: further trials as folders under the attempt, the cell's x-trials.
    assert (first / f"attempts/{A}/t1/trials/2/summary.json").is_file()
    matrix = json.loads((first / "matrix.json").read_text())
    assert matrix["cells"][A]["t1"]["x-trials"] == {"passed": 2, "total": 3}
    manifest = json.loads((first / "manifest.json").read_text())
    assert manifest["counts"]["attempts"] == 4  # attempt folders, as v1 counts them
    Bench.objects.all().delete()
    Blob.objects.all().delete()
    call_command("import_release", str(first), stdout=io.StringIO(), stderr=io.StringIO())
    assert _state() == before
    second = tmp_path / "second"
    release_export(bench=Bench.objects.get(slug="hb"), root=second)
    assert release_differences(first, second) == []


def test_importing_the_same_trials_again_changes_nothing(three_trials):
    before = dump()
    quiet(three_trials)
    assert dump() == before


def test_a_trial_folder_that_is_not_numbered_from_one_is_refused(three_trials, tmp_path):
    root = tmp_path / "release"
    release_export(bench=Bench.objects.get(slug="hb"), root=root)
    (root / f"attempts/{A}/t1/trials/2").rename(root / f"attempts/{A}/t1/trials/02")
    before = Attempt.all_trials.count()
    with pytest.raises(CommandError):
        err = io.StringIO()
        try:
            call_command("import_release", str(root), stdout=io.StringIO(), stderr=err)
        finally:
            assert f"attempts/{A}/t1/trials/02/summary.json" in err.getvalue()
            assert "trials are numbered 1, 2, ..." in err.getvalue()
    assert Attempt.all_trials.count() == before


def test_a_trial_folder_without_its_attempt_folder_is_refused(three_trials, tmp_path):
    root = tmp_path / "release"
    release_export(bench=Bench.objects.get(slug="hb"), root=root)
    attempt = root / f"attempts/{A}/t1"
    for path in attempt.iterdir():
        if path.is_file():
            path.unlink()
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_release", str(root), stdout=io.StringIO(), stderr=err)
    assert f"attempts/{A}/t1/trials/1/" in err.getvalue()
    assert "needs the attempt folder's own files" in err.getvalue()


def test_the_sample_runs_one_task_three_times_and_imports_every_trial(tmp_path, client):
    root = tmp_path / "sample"
    write_sample_harbor(root, tasks=4, passes=(2, 1))
    quiet(root, bench="sample")
    further = Attempt.all_trials.filter(trial__gt=0).select_related("model", "task")
    assert sorted(a.trial for a in further) == [1, 2]
    first = further[0]
    html = body(client.get(reverse("matrix", args=["sample"])))
    assert "of 3 trials passed" in html
    model = first.model
    assert model.trials == model.tasks + 2
    shutil.rmtree(root)


def test_pages_of_one_attempt_per_model_see_trial_0_only(three_trials, client):
    task = Task.objects.get(bench__slug="hb", slug="t1")
    # A model with three trials is one model to compare with, not three.
    assert [m.slug for m in other_models(task)] == [A, B]
    page = body(client.get(reverse("task", args=["hb", "t1"])))
    # One row for the model, its further trials linked from that row.
    rows = [r for r in page.split("<tr") if f'href="/hb/attempts/{A}/t1/"' in r]
    assert len(rows) == 1
    assert (
        page.count(f"/hb/attempts/{A}/t1/trials/")
        == rows[0].count(f"/hb/attempts/{A}/t1/trials/")
        == 2
    )
    listed = client.get(f"/api/attempts/?bench=hb&model={A}").json()
    assert len(listed["results"]) == 2


def test_the_import_preview_predicts_the_score_that_counts_every_trial(three_trials, tmp_path):
    from formats.reader import open_release
    from ingest.reading.plan import build_plan
    from ingest.reading.preview import plan_model_figures

    root = tmp_path / "release"
    release_export(bench=Bench.objects.get(slug="hb"), root=root)
    with open_release(root) as source:
        predicted = plan_model_figures(build_plan(source))
    stored = {m.slug: (m.score, m.rank) for m in Model.objects.all()}
    assert predicted == stored
    assert stored[A][0] == pytest.approx((2 / 3 + 1) / 2, abs=1e-12)
