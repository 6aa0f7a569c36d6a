"""import_harbor: the mapping of job and trial folders, merging, and bad input."""

from __future__ import annotations

import io
import json
import shutil
import tarfile

import pytest
from django.core.management.base import CommandError
from django.urls import reverse

from formats.sources.harbor.naming import slugify
from ingest.models import ImportRecord
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from tests.factories import dump
from tests.ingest.harbor_trials import atif, import_harbor, job, trial, write

pytestmark = pytest.mark.django_db


def refused(*paths, **options) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        import_harbor(*paths, stdout=io.StringIO(), stderr=err, **options)
    return f"{caught.value}\n{err.getvalue()}"


def quiet(*paths, **options) -> str:
    out = io.StringIO()
    import_harbor(*paths, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_task_ids_are_slugs_of_harbor_task_names():
    assert slugify("etl_checkpoint_resume_bug") == "etl-checkpoint-resume-bug"
    assert slugify("Fix_CSV__Export") == "fix-csv-export"
    assert slugify("_lead.dot") == "lead.dot"


def test_it_imports_a_job_keeping_the_original_task_name_and_showing_it(tmp_path, client):
    j = job(tmp_path)
    trial(j, "etl_checkpoint_resume_bug", reward=1.0)
    trial(j, "Fix_async_Worker", reward=0.0)
    quiet(j)
    bench = Bench.objects.get(slug="hb")
    assert bench.scoring_rule == "reward-threshold"
    task = Task.objects.get(slug="etl-checkpoint-resume-bug")
    assert task.title == "etl_checkpoint_resume_bug"
    assert Task.objects.get(slug="fix-async-worker").title == "Fix_async_Worker"
    html = body(client.get(reverse("task", args=["hb", task.slug])))
    assert "etl_checkpoint_resume_bug" in html
    model = Model.objects.get()
    assert (model.slug, model.display_name, model.harness, model.provider) == (
        "claude-sonnet-4-5-claude-code",
        "claude-sonnet-4-5",
        "claude-code",
        "anthropic",
    )
    assert (model.passed, model.tasks) == (1, 2)
    assert body(client.get(reverse("bench", args=["hb"]))).count("50.0% (1/2)") >= 1


def test_the_ticket_is_the_first_user_steps_message(tmp_path):
    trial(job(tmp_path), "t1", trajectory=atif(ticket="Make hello.txt say hi."))
    quiet(tmp_path)
    assert Task.objects.get(slug="t1").ticket == "Make hello.txt say hi."


def test_a_models_file_sets_id_display_name_and_provider(tmp_path):
    j = job(tmp_path / "jobs")
    trial(j, "t1", model="gpt-6-astra", agent="codex", provider=None)
    models = tmp_path / "models.json"
    entry = {"model_name": "gpt-6-astra", "agent": "codex", "id": "astra-high"}
    write(models, [entry | {"display_name": "GPT-6 Astra", "provider": "openai"}])
    quiet(j, models=str(models))
    model = Model.objects.get()
    assert (model.slug, model.display_name, model.harness, model.provider) == (
        "astra-high",
        "GPT-6 Astra",
        "codex",
        "openai",
    )


def test_a_broken_models_file_is_refused_naming_the_entry(tmp_path):
    trial(job(tmp_path / "jobs"), "t1")
    models = tmp_path / "models.json"
    write(models, [{"model_name": "m", "agent": "a", "id": "Not A Slug"}])
    message = refused(tmp_path / "jobs", models=str(models))
    assert "models.json: [0].id: 'Not A Slug' is not a valid id" in message
    assert not Bench.objects.exists()


def test_two_task_names_that_slug_alike_are_refused_with_both_named(tmp_path):
    j = job(tmp_path)
    trial(j, "fix_bug")
    trial(j, "Fix_Bug")
    message = refused(j)
    assert "'Fix_Bug'" in message and "'fix_bug'" in message and "'fix-bug'" in message
    assert not Bench.objects.exists()


def test_ctrf_tests_are_the_checks_and_the_reward_decides(tmp_path):
    j = job(tmp_path)
    trial(j, "t1", reward=1.0, ctrf=[("test_a", "passed"), ("test_b", "skipped")])
    quiet(j)
    attempt = Attempt.objects.get()
    assert attempt.score == 1.0
    rows = list(CheckResult.objects.order_by("position").values_list("name", "passed"))
    assert rows == [("test_a", True), ("test_b", False)]
    assert "reward-ctrf-mismatch" not in attempt.flags
    assert list(Task.objects.get().checks.values_list("name", flat=True)) == ["test_a", "test_b"]


@pytest.mark.parametrize(
    ("reward", "tests"),
    [(0.0, [("a", "passed"), ("b", "passed")]), (1.0, [("a", "passed"), ("b", "failed")])],
    ids=["all-passed-reward-0", "failed-test-reward-1"],
)
def test_ctrf_that_disagrees_with_the_reward_is_flagged(tmp_path, reward, tests):
    trial(job(tmp_path), "t1", reward=reward, ctrf=tests)
    quiet(tmp_path)
    attempt = Attempt.objects.get()
    assert "reward-ctrf-mismatch" in attempt.flags
    assert attempt.score == reward  # the reward still decides


def test_without_ctrf_the_one_check_is_the_reward(tmp_path):
    trial(job(tmp_path), "t1", reward=0.0)
    quiet(tmp_path)
    assert list(CheckResult.objects.values_list("name", "passed")) == [("reward", False)]
    assert Attempt.objects.get().score == 0.0


def test_pass_threshold_sets_the_reward_a_pass_needs(tmp_path):
    j = job(tmp_path)
    trial(j, "t1", reward=0.7)
    trial(j, "t2", reward=0.4)
    quiet(j, pass_threshold=0.5)
    scores = dict(Attempt.objects.values_list("task__slug", "score"))
    assert scores == {"t1": 1.0, "t2": 0.0}


def test_reward_json_uses_its_reward_key(tmp_path):
    trial(job(tmp_path), "t1", reward_json={"reward": 1.0, "partial": 0.2})
    quiet(tmp_path)
    assert Attempt.objects.get().score == 1.0


def test_reward_json_with_several_keys_and_no_reward_is_refused_naming_the_file(tmp_path):
    j = job(tmp_path)
    folder = trial(j, "t1", reward_json={"accuracy": 1.0, "style": 0.0})
    message = refused(j)
    assert f"{folder.name}: verifier/reward.json: several rewards (accuracy, style)" in message
    assert not Bench.objects.exists()


def test_an_exception_is_flagged_and_shown_while_the_reward_decides(tmp_path, client):
    exception = {
        "exception_type": "AgentTimeoutError",
        "exception_message": "Agent execution timed out after 900.0 seconds",
    }
    trial(job(tmp_path), "t1", reward=1.0, exception=exception)
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model", "task").get()
    # Harbor's rule (the default): the verifier ran after the timeout; its reward counts.
    assert attempt.score == 1.0
    assert "exception:AgentTimeoutError" in attempt.flags
    html = body(client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"])))
    assert "AgentTimeoutError" in html
    assert "Agent execution timed out after 900.0 seconds" in html
    assert "the verifier still ran: reward 1 (passed)" in " ".join(html.split())


def test_a_null_cost_shows_unknown_never_zero_dollars(tmp_path, client):
    trial(job(tmp_path), "t1", cost=None)
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model").get()
    assert attempt.cost_usd is None
    html = body(client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"])))
    assert "<dd>unknown</dd>" in html
    assert "$0.00" not in html


def test_timestamps_without_an_offset_are_read_as_utc_and_written_with_z(tmp_path):
    trial(job(tmp_path), "t1", started="2025-11-19T14:18:43.882955", finished="2025-11-19T14:20:03")
    quiet(tmp_path)
    attempt = Attempt.objects.get()
    assert attempt.started_at == "2025-11-19T14:18:43.882955Z"
    assert attempt.finished_at == "2025-11-19T14:20:03Z"
    assert attempt.duration_s == pytest.approx(79.117045)


def test_test_stdout_is_shown_beside_the_verdict(tmp_path, client):
    trial(job(tmp_path), "t1")
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model").get()
    html = body(client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"])))
    assert "verifier/test-stdout.txt" in html and "pytest output here" in html


def test_the_raw_agent_log_is_the_transcript_byte_for_byte(tmp_path, client):
    raw = b"starting\n{not json\n\xe2\x9c\x93 done\n"
    trial(job(tmp_path), "t1", raw_log=raw)
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model").get()
    url = reverse("mirror-attempt-file", args=["hb", attempt.model.slug, "t1", "transcript.jsonl"])
    response = client.get(url)
    got = b"".join(response.streaming_content) if response.streaming else response.content
    assert got == raw


@pytest.mark.parametrize("kind", ["folder", "trial", "jobs", "zip", "tar.gz"])
def test_it_reads_a_job_a_trial_a_folder_of_jobs_and_archives(tmp_path, kind):
    root = tmp_path / "jobs"
    j = job(root)
    folder = trial(j, "t1")
    trial(j, "t2", reward=0.0)
    path = {"folder": j, "trial": folder, "jobs": root}.get(kind)
    if kind == "zip":
        path = shutil.make_archive(str(tmp_path / "jobs"), "zip", root)
    elif kind == "tar.gz":
        path = tmp_path / "jobs.tar.gz"
        with tarfile.open(path, "w:gz") as archive:
            archive.add(root, arcname="jobs")
    quiet(path)
    expected = {"t1"} if kind == "trial" else {"t1", "t2"}
    assert set(Attempt.objects.values_list("task__slug", flat=True)) == expected


def test_the_same_jobs_imported_again_change_nothing(tmp_path):
    j = job(tmp_path)
    trial(j, "t1")
    trial(j, "t2", reward=0.0, ctrf=[("a", "failed")])
    quiet(j)
    before = dump()
    out = quiet(j)
    assert "nothing changed" in out
    assert dump() == before
    assert ImportRecord.objects.filter(outcome="no-change").count() == 1


def test_a_second_job_adds_its_model_and_keeps_the_others(tmp_path):
    first, second = job(tmp_path / "a", "job-a"), job(tmp_path / "b", "job-b")
    trial(first, "t1", model="alpha")
    trial(first, "t2", model="alpha", reward=0.0)
    trial(second, "t1", model="beta", reward=0.0)
    trial(second, "t3", model="beta")
    quiet(first)
    quiet(second)
    models = set(Model.objects.values_list("slug", flat=True))
    assert models == {"alpha-claude-code", "beta-claude-code"}
    assert Task.objects.count() == 3
    assert Attempt.objects.filter(model__slug="alpha-claude-code", has_detail=True).count() == 2
    alpha = Model.objects.get(slug="alpha-claude-code")
    assert (alpha.passed, alpha.tasks) == (1, 3)  # t3 counts as a missing attempt
    before = dump()
    assert "nothing changed" in quiet(second)
    assert dump() == before
    # A new job of beta replaces beta's attempts, alpha stays.
    shutil.rmtree(second)
    second = job(tmp_path / "b", "job-b")
    trial(second, "t2", model="beta")
    quiet(second)
    assert set(
        Attempt.objects.filter(model__slug="beta-claude-code").values_list("task__slug", flat=True)
    ) == {"t2"}
    assert Attempt.objects.filter(model__slug="alpha-claude-code").count() == 2


def test_replace_makes_the_jobs_the_whole_bench(tmp_path):
    first, second = job(tmp_path / "a", "job-a"), job(tmp_path / "b", "job-b")
    trial(first, "t1", model="alpha")
    trial(second, "t2", model="beta")
    quiet(first)
    quiet(second, replace=True)
    assert list(Model.objects.values_list("slug", flat=True)) == ["beta-claude-code"]
    assert list(Task.objects.values_list("slug", flat=True)) == ["t2"]


def test_several_paths_merge_into_one_bench(tmp_path):
    first, second = job(tmp_path / "a", "job-a"), job(tmp_path / "b", "job-b")
    trial(first, "t1", model="alpha")
    trial(second, "t1", model="beta", reward=0.0)
    quiet(first, second)
    assert Model.objects.count() == 2 and Task.objects.count() == 1


def test_dry_run_prints_the_plan_and_writes_nothing(tmp_path):
    trial(job(tmp_path), "t1")
    out = quiet(tmp_path, dry_run=True)
    assert "attempts: 1 new" in out and "dry run: nothing was written" in out
    assert not Bench.objects.exists()
    assert ImportRecord.objects.get().action == "dry-run"


def test_a_folder_that_is_not_a_harbor_job_is_refused(tmp_path):
    write(tmp_path / "stuff" / "notes.txt", "hello")
    message = refused(tmp_path / "stuff")
    assert "not a Harbor job folder" in message
    assert ImportRecord.objects.get().outcome == "refused"


def test_a_trial_without_result_json_is_refused_naming_the_trial(tmp_path):
    j = job(tmp_path)
    trial(j, "t1")
    write(j / "t2__abcdefg" / "agent" / "trajectory.json", atif())
    message = refused(j)
    assert "t2__abcdefg: result.json: missing" in message
    assert not Bench.objects.exists()


def test_a_broken_result_json_is_refused_naming_the_trial_and_file_and_nothing_written(tmp_path):
    j = job(tmp_path / "a", "job-a")
    trial(j, "t1")
    quiet(j)
    before = dump()
    broken = trial(j, "t2")
    (broken / "result.json").write_text('{"task_name": "t2", ')
    message = refused(j)
    assert f"{broken.name}: result.json: malformed JSON" in message
    assert dump() == before


def test_a_broken_reward_file_is_refused_naming_the_trial_and_file(tmp_path):
    folder = trial(job(tmp_path), "t1")
    (folder / "verifier" / "reward.txt").write_text("passed\n")
    message = refused(tmp_path)
    assert f"{folder.name}: verifier/reward.txt: expected a single number" in message


def test_a_running_job_is_refused_unless_allow_partial(tmp_path):
    j = job(tmp_path)
    trial(j, "t1")
    running = trial(j, "t2", finished=None, reward=None)
    message = refused(j)
    assert f"{running.name}: result.json: no finished_at: the job is still running" in message
    assert not Bench.objects.exists()
    quiet(j, allow_partial=True)
    flags = dict(Attempt.objects.values_list("task__slug", "flags"))
    assert "unfinished" in flags["t2"] and "unfinished" not in flags["t1"]
    assert Attempt.objects.get(task__slug="t2").score == 0.0


def test_broken_atif_still_imports_and_the_attempt_page_says_so(tmp_path, client):
    steps = [
        {"step_id": 2, "source": "user", "message": "hi"},
        {
            "step_id": 1,
            "source": "agent",
            "message": "x",
            "observation": {"results": [{"source_call_id": "ghost", "content": "?"}]},
        },
    ]
    trial(job(tmp_path), "t1", trajectory=atif(steps=steps))
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model", "evidence").get()
    assert "atif-invalid" in attempt.flags
    assert attempt.evidence.events_total == 0
    html = body(client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"])))
    assert "breaks ATIF&#x27;s rules" in html
    assert "ghost" in html and "step_id is 2, expected 1" in html


def test_import_history_records_the_harbor_import(tmp_path):
    trial(job(tmp_path), "t1")
    quiet(tmp_path)
    record = ImportRecord.objects.get()
    assert (record.action, record.outcome, record.bench) == ("import", "applied", "hb")
    assert json.dumps(record.summary)


def test_several_trials_of_one_task_make_the_first_the_attempt_and_list_every_trial(
    tmp_path, client
):
    j = job(tmp_path)
    trial(j, "t1", name="t1__aaaaaaa", reward=1.0, started="2025-11-19T10:00:00")
    trial(j, "t1", name="t1__bbbbbbb", reward=0.0, started="2025-11-19T11:00:00")
    quiet(j)
    attempt = Attempt.objects.select_related("model").get()
    assert attempt.score == 1.0
    trials = attempt.summary["harbor"]["trials"]
    assert [(t["trial_name"], t["reward"]) for t in trials] == [
        ("t1__aaaaaaa", 1.0),
        ("t1__bbbbbbb", 0.0),
    ]
    html = body(client.get(reverse("attempt", args=["hb", attempt.model.slug, "t1"])))
    assert "2 trials of this model on this task" in html and "t1__bbbbbbb" in html


def test_hostile_harbor_text_is_escaped_on_the_pages(tmp_path, client):
    exception = {"exception_type": "ApiError", "exception_message": "<img src=x onerror=alert(1)>"}
    name = "<script>alert(1)</script>_task"
    trial(job(tmp_path), name, exception=exception)
    quiet(tmp_path)
    attempt = Attempt.objects.select_related("model", "task").get()
    assert attempt.task.slug == "script-alert-1-script-task"
    for url in (
        reverse("task", args=["hb", attempt.task.slug]),
        reverse("attempt", args=["hb", attempt.model.slug, attempt.task.slug]),
    ):
        html = body(client.get(url))
        assert "<script>alert(1)</script>" not in html
        assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_models_file_gives_the_leaderboard_facts(tmp_path):
    from leaderboard.facts import facts_of

    j = job(tmp_path / "jobs")
    trial(j, "t1", model="gpt-6-astra", agent="codex")
    models = tmp_path / "models.json"
    entry = {"model_name": "gpt-6-astra", "agent": "codex", "id": "astra"}
    write(models, [entry | {"organization": "OpenAI", "open_weights": False, "verified": True}])
    quiet(j, models=str(models))
    facts = facts_of(Model.objects.get(), None)
    assert (facts.organisation, facts.open_weights, facts.verified) == ("OpenAI", False, True)
    assert facts.open_system is None


def test_a_fact_of_the_wrong_type_is_refused_naming_the_entry(tmp_path):
    trial(job(tmp_path / "jobs"), "t1")
    models = tmp_path / "models.json"
    write(models, [{"model_name": "m", "agent": "a", "id": "m-a", "verified": "yes"}])
    message = refused(tmp_path / "jobs", models=str(models))
    assert "models.json: [0].verified: expected true or false" in message
    assert not Bench.objects.exists()
