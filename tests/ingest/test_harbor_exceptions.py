"""Trials that raised, under each exceptions rule; errors; jobs' own result.json compared."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from leaderboard.models import Attempt, Bench, Disagreement, Model
from tests.factories import edit_json, failing_import, import_path
from tests.ingest.harbor_trials import import_harbor, job, trial, write

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_mirror_state():
    # The mirror caches a bench's state by slug; every test here imports "hb" anew.
    cache.clear()


TIMEOUT = {"exception_type": "AgentTimeoutError", "exception_message": "timed out"}
EXIT = {"exception_type": "NonZeroAgentExitCodeError", "exception_message": "exit 1"}
RATE = {"exception_type": "ApiRateLimitError", "exception_message": "429"}

# task -> (exception, reward): raised and rewarded 1, raised and rewarded 0,
# raised with no reward at all, and trials that did not raise.
TRIALS = {
    "t1": (TIMEOUT, 1.0),
    "t2": (EXIT, 1.0),
    "t3": (RATE, 0.0),
    "t4": (EXIT, None),
    "t5": (None, 1.0),
    "t6": (None, 0.0),
}
MODEL = "claude-sonnet-4-5-claude-code"


def harbor_job(root, *, mean: float = 0.5, passed_names: list[str] | None = None):
    """One job of one model on TRIALS, with the result.json Harbor writes for it."""
    folder = job(root, "job-a")
    names = {}
    for task, (exception, reward) in TRIALS.items():
        names[task] = f"{task}__x"
        trial(folder, task, reward=reward, exception=exception, name=names[task])
    rewarded = passed_names or [names[t] for t, (_, r) in TRIALS.items() if r == 1.0]
    failed = [names[t] for t, (_, r) in TRIALS.items() if r == 0.0]
    raised: dict[str, list[str]] = {}
    for task, (exception, _) in TRIALS.items():
        if exception:
            raised.setdefault(exception["exception_type"], []).append(names[task])
    write(
        folder / "result.json",
        {
            "id": "job-a",
            "n_total_trials": 6,
            "stats": {
                "n_errored_trials": 4,
                "evals": {
                    "claude-code__claude-sonnet-4-5__harbor": {
                        "n_trials": 6,
                        "n_errors": 4,
                        "metrics": [{"mean": mean}],
                        "reward_stats": {"reward": {"1.0": rewarded, "0.0": failed}},
                        "exception_stats": raised,
                    }
                },
            },
        },
    )
    return folder


def run(*paths, **options) -> str:
    out = io.StringIO()
    import_harbor(*paths, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def scores() -> dict[str, float]:
    return dict(Attempt.objects.values_list("task__slug", "score"))


def test_by_default_a_trial_passes_on_its_reward_whether_or_not_it_raised(tmp_path):
    out = run(harbor_job(tmp_path))
    assert scores() == {"t1": 1.0, "t2": 1.0, "t3": 0.0, "t4": 0.0, "t5": 1.0, "t6": 0.0}
    model = Model.objects.get()
    # What the job's own result.json says: 3 of 6 passed, mean 0.5, 4 errors.
    assert (model.passed, model.trials, model.errors, model.tasks) == (3, 6, 4, 6)
    assert Bench.objects.get().exceptions_rule == "harbor"
    assert not Disagreement.objects.exists()
    assert "result.json disagreements" not in out
    assert "exception:NonZeroAgentExitCodeError" in Attempt.objects.get(task__slug="t2").flags


def test_under_fail_any_exception_fails_and_the_jobs_figures_are_reported_and_stored(tmp_path):
    out = run(harbor_job(tmp_path), exceptions="fail")
    assert scores() == {"t1": 0.0, "t2": 0.0, "t3": 0.0, "t4": 0.0, "t5": 1.0, "t6": 0.0}
    model = Model.objects.get()
    assert (model.passed, model.trials, model.errors) == (1, 6, 4)
    assert Bench.objects.get().exceptions_rule == "fail"
    stored = {
        d.field: (d.published, d.recomputed)
        for d in Disagreement.objects.filter(source="result.json", task__isnull=True)
    }
    assert stored == {"passed": (3.0, 1.0), "mean": (0.5, pytest.approx(1 / 6))}
    assert "result.json disagreements (2, exceptions rule fail)" in out
    assert f"  {MODEL}  passed  3  1  (job job-a)" in out


def test_under_terminal_bench_trials_that_raised_other_than_timeouts_are_left_out(tmp_path, client):
    run(harbor_job(tmp_path), exceptions="terminal-bench")
    left_out = {
        task
        for task, flags in Attempt.objects.values_list("task__slug", "flags")
        if "left-out" in flags
    }
    assert left_out == {"t2", "t3", "t4"}
    model = Model.objects.get()
    # Counted: t1 (timeout, reward 1), t5 (1), t6 (0); t2-t4 are left out, and
    # with them their tasks: the mean covers 3 of the 6 tasks.
    assert (model.passed, model.trials, model.tasks, model.errors) == (2, 3, 3, 4)
    assert model.score == pytest.approx(2 / 3)
    html = client.get(reverse("bench", args=["hb"])).content.decode()
    assert "covers 3 of 6 tasks" in html
    page = client.get(reverse("attempt", args=["hb", MODEL, "t2"])).content.decode()
    assert "it is left out of the figures" in " ".join(page.split())


def test_changing_the_rule_on_the_same_jobs_rescores_every_trial(tmp_path):
    folder = harbor_job(tmp_path)
    run(folder)
    assert Model.objects.get().passed == 3
    run(folder, exceptions="fail")
    assert Model.objects.get().passed == 1
    assert Bench.objects.get().exceptions_rule == "fail"
    run(folder)
    assert Model.objects.get().passed == 3
    assert not Disagreement.objects.exists()


def test_a_job_result_whose_mean_disagrees_is_reported_stored_and_shown(tmp_path, client):
    out = run(harbor_job(tmp_path, mean=0.9))
    assert "result.json disagreements (1, exceptions rule harbor)" in out
    assert f"  {MODEL}  mean  0.9  0.5  (job job-a)" in out
    row = Disagreement.objects.get(source="result.json")
    assert (row.field, row.published, row.recomputed, row.task) == ("mean", 0.9, 0.5, None)
    about = " ".join(client.get(reverse("about", args=["hb"])).content.decode().split())
    assert "1 figure differs:" in about and "<td>mean</td>" in about
    page = " ".join(client.get(reverse("model", args=["hb", MODEL])).content.decode().split())
    assert "the Harbor job's result.json says mean 0.9; the site counts 0.5" in page


def test_errors_are_in_the_leaderboard_its_json_csv_api_and_model_page(tmp_path, client):
    run(harbor_job(tmp_path))
    html = client.get(reverse("bench", args=["hb"])).content.decode()
    assert "?sort=errors" in html or "sort=errors" in html
    assert '<td class="num errors">4</td>' in html
    doc = client.get(reverse("mirror-leaderboard", args=["hb"])).json()
    assert doc["rows"][0]["errors"] == 4
    assert doc["rows"][0]["x-harbor-result"] == {
        "jobs": ["job-a"],
        "trials": 6,
        "passed": 3,
        "mean": 0.5,
        "errors": 4,
    }
    manifest = client.get(reverse("mirror-manifest", args=["hb"])).json()
    assert manifest["exceptions_rule"] == "harbor"
    table = client.get(reverse("bench", args=["hb"]) + "?format=csv")
    body = b"".join(table.streaming_content) if table.streaming else table.content
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert rows[0]["errors"] == "4"
    api = client.get("/api/models/?bench=hb").json()
    assert api["results"][0]["errors"] == 4
    page = client.get(reverse("model", args=["hb", MODEL])).content.decode()
    assert "<dt>Errors</dt><dd>4" in page


def test_sorting_by_errors_orders_the_models(tmp_path, client):
    harbor_job(tmp_path)
    other = job(tmp_path, "job-b")
    trial(other, "t1", model="quiet-model", reward=1.0, name="t1__q")
    run(tmp_path)
    html = client.get(reverse("bench", args=["hb"]) + "?sort=-errors").content.decode()
    assert html.index(f'id="model-{MODEL}"') < html.index('id="model-quiet-model-claude-code"')
    html = client.get(reverse("bench", args=["hb"]) + "?sort=errors").content.decode()
    assert html.index(f'id="model-{MODEL}"') > html.index('id="model-quiet-model-claude-code"')


def test_a_matrix_cell_whose_trial_raised_is_marked(tmp_path, client):
    run(harbor_job(tmp_path))
    html = client.get(reverse("matrix", args=["hb"])).content.decode()
    assert html.count('class="raised-mark"') == 4 + 1  # four cells and the legend
    assert "exception:AgentTimeoutError" in html


def test_an_exception_time_without_offset_is_never_shown_as_an_absolute_time(tmp_path, client):
    folder = job(tmp_path)
    # The trial ran 14:18-14:20 UTC; the exception's time is the runner's clock, hours off.
    raised = {**TIMEOUT, "occurred_at": "2025-11-19T09:19:00.000001"}
    trial(folder, "t1", exception=raised, started="2025-11-19T14:18:43Z")
    run(folder)
    attempt = Attempt.objects.get()
    exception = attempt.summary["harbor"]["exception"]
    assert exception["occurred_at"] is None
    assert exception["occurred_at_local"] == "2025-11-19T09:19:00.000001"
    page = client.get(reverse("attempt", args=["hb", MODEL, "t1"])).content.decode()
    assert "2025-11-19T09:19:00.000001Z" not in page
    assert "no UTC offset" in page


def test_an_exception_time_outside_its_trial_is_not_shown_as_when_it_happened(tmp_path):
    folder = job(tmp_path)
    late = {**TIMEOUT, "occurred_at": "2025-11-19T18:00:00+00:00"}
    inside = {**EXIT, "occurred_at": "2025-11-19T14:19:00+00:00"}
    trial(folder, "t1", exception=late, name="a")
    trial(folder, "t2", exception=inside, name="b")
    run(folder)
    found = {
        a.task.slug: a.summary["harbor"]["exception"]
        for a in Attempt.objects.select_related("task")
    }
    assert found["t1"]["occurred_at"] is None
    assert found["t1"]["occurred_at_as_written"] == "2025-11-19T18:00:00+00:00"
    assert found["t2"]["occurred_at"] == "2025-11-19T14:19:00Z"


def test_export_then_import_keeps_the_rule_and_an_unknown_rule_is_refused(tmp_path):
    run(harbor_job(tmp_path / "jobs"), exceptions="fail")
    out = tmp_path / "release"
    call_command("export_release", "hb", str(out), stdout=io.StringIO())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["exceptions_rule"] == "fail"
    Bench.objects.all().delete()
    import_path(out)
    assert Bench.objects.get().exceptions_rule == "fail"
    assert Model.objects.get().passed == 1
    Bench.objects.all().delete()
    edit_json(out / "manifest.json", lambda doc: doc.update(exceptions_rule="lenient"))
    said = failing_import(out)
    assert "manifest.json" in said and "unknown exceptions rule 'lenient'" in said
    assert not Bench.objects.exists()


def test_a_kept_models_job_figures_are_still_compared_after_another_job_is_added(tmp_path):
    run(harbor_job(tmp_path / "a", mean=0.9))
    other = job(tmp_path / "b", "job-b")
    trial(other, "t1", model="quiet-model", reward=1.0, name="t1__q")
    run(other)
    assert Model.objects.count() == 2
    row = Disagreement.objects.get(source="result.json")
    assert (row.model.slug, row.field, row.published) == (MODEL, "mean", 0.9)


def test_a_left_out_trial_counts_in_no_trials_figure(tmp_path, client):
    folder = job(tmp_path)
    trial(folder, "t1", reward=1.0, exception=EXIT, name="a", started="2025-11-19T14:00:00")
    trial(folder, "t1", reward=0.0, name="b", started="2025-11-19T15:00:00")
    run(folder, exceptions="terminal-bench")
    model = Model.objects.get()
    assert (model.passed, model.trials, model.tasks, model.errors) == (0, 1, 1, 1)
    doc = client.get(reverse("mirror-matrix", args=["hb"])).json()
    # Two trials run; the one that raised (and was rewarded) is left out, so none passed.
    assert doc["cells"][MODEL]["t1"]["x-trials"] == {"passed": 0, "total": 2}
    html = client.get(reverse("matrix", args=["hb"])).content.decode()
    assert "0 of 2 trials passed, 1 raised an exception" in html
