"""import_harbor's input: raw jobs scrubbed, trials and models one of a kind, bad values
refused against the trial's own file, once per cause."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from formats.reader import open_tree
from ingest.models import ImportRecord
from ingest.reading.harbor.build import harbor_release
from ingest.writing.services import write_release
from leaderboard.models import Attempt, Bench, CheckResult
from tests.ingest.harbor_trials import atif, import_harbor, job, trial, write

pytestmark = pytest.mark.django_db

HOME_STEPS = [
    {"step_id": 1, "source": "user", "message": "Fix the bug."},
    {
        "step_id": 2,
        "source": "agent",
        "message": "looking",
        "tool_calls": [
            {
                "tool_call_id": "c1",
                "function_name": "Bash",
                "arguments": {"command": "ls /home/alice/proj/"},
            }
        ],
        "observation": {"results": [{"source_call_id": "c1", "content": "/home/alice/proj/a.py"}]},
    },
]


def run(*paths, **options) -> str:
    out = io.StringIO()
    import_harbor(*paths, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def refused(*paths, **options) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        import_harbor(*paths, stdout=io.StringIO(), stderr=err, **options)
    return f"{caught.value}\n{err.getvalue()}"


def page(client, attempt: Attempt) -> str:
    url = reverse("attempt", args=["hb", attempt.model.slug, attempt.task.slug])
    response = client.get(url)
    return (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()


# -- #28 section 4: raw jobs are scrubbed, not refused ---------------------------------------


def test_a_raw_job_with_home_paths_imports_scrubbed_and_each_rewrite_is_reported_once(
    tmp_path, client
):
    folder = trial(job(tmp_path), "t1", trajectory=atif(steps=HOME_STEPS))
    out = run(tmp_path)
    lines = [line for line in out.splitlines() if "/home/alice/" in line]
    assert lines == [
        f"  {folder}: agent/trajectory.json: runner home path '/home/alice/' at "
        "steps[1].tool_calls[0].arguments.command (and 1 more place(s) in that file)"
    ]
    assert "attempts/" not in out  # the generated release is no file the user wrote
    html = page(client, Attempt.objects.select_related("model", "task").get())
    assert "/home/user/proj/a.py" in html
    assert "alice" not in html


def test_no_scrub_refuses_a_raw_job_with_home_paths_naming_both_flags(tmp_path):
    folder = trial(job(tmp_path), "t1", trajectory=atif(steps=HOME_STEPS))
    message = refused(tmp_path, scrub=False)
    assert f"{folder}: agent/trajectory.json: runner home path '/home/alice/'" in message
    assert "--no-scrub" in message and "--scrub (the default)" in message
    assert message.count("/home/alice/") == 1  # once, as the message; not again as a line
    assert not Bench.objects.exists()
    assert ImportRecord.objects.get().outcome == "refused"


def test_a_transcript_in_no_known_format_is_said_once_with_a_count_and_the_formats(tmp_path):
    j = job(tmp_path)
    for task in ("t1", "t2", "t3"):
        trial(j, task, raw_log=b"plain text the site cannot read\n")
    out = run(tmp_path)
    assert out.count("transcript not checked") == 1
    line = next(line for line in out.splitlines() if "transcript not checked" in line)
    assert "in 3 attempt(s)" in line and "atif" in line and "codex-exec" in line


# -- #31 item 5: nothing counted twice, nothing merged ---------------------------------------


def test_a_job_given_twice_is_refused_naming_it(tmp_path):
    j = job(tmp_path)
    trial(j, "t1")
    message = refused(j, j)
    assert f"{j} (given twice): 1 trial(s) given twice" in message
    assert not Bench.objects.exists()


def test_a_copy_of_a_job_beside_it_is_refused_naming_both(tmp_path):
    j = job(tmp_path / "jobs", "job-a")
    trial(j, "t1")
    trial(j, "t2", reward=0.0)
    shutil.copytree(j, tmp_path / "jobs" / "job-a-copy")
    message = refused(tmp_path / "jobs")
    assert f"{j} and {tmp_path / 'jobs' / 'job-a-copy'}: 2 trial(s) given twice" in message
    assert message.count("given twice") == 1  # once per cause, not once per trial
    assert not Bench.objects.exists()


def test_models_whose_names_slug_alike_are_refused_naming_both_folders(tmp_path):
    j = job(tmp_path)
    one = trial(j, "t1", model="GPT X", agent="codex")
    other = trial(j, "t1", model="gpt_x", agent="codex", reward=0.0)
    message = refused(j)
    assert "models 'GPT X' (codex" in message and "'gpt_x' (codex" in message
    assert str(one) in message and str(other) in message
    assert "both give the id 'gpt-x-codex'" in message
    assert not Bench.objects.exists()


def test_a_models_file_may_give_two_names_one_id_on_purpose(tmp_path):
    j = job(tmp_path)
    trial(j, "t1", model="GPT X", agent="codex")
    trial(j, "t2", model="gpt_x", agent="codex", reward=0.0)
    entries = [
        {"model_name": name, "agent": "codex", "id": "gpt-x", "display_name": "GPT X"}
        for name in ("GPT X", "gpt_x")
    ]
    write(tmp_path / "models.json", entries)
    run(j, models=str(tmp_path / "models.json"))
    assert set(Attempt.objects.values_list("model__slug", flat=True)) == {"gpt-x"}


# -- #31 item 7: refusals name the trial's own file, once per cause -------------------------


@pytest.mark.parametrize(
    ("where", "content", "said"),
    [
        ("verifier/reward.txt", "1_0", "verifier/reward.txt: expected a single number"),
        ("verifier/reward.txt", "\u0661", "verifier/reward.txt: expected a single number"),
        ("verifier/reward.txt", "-5", "verifier/reward.txt: -5 is not a reward"),
        ("verifier/reward.txt", "nan", "verifier/reward.txt: expected a single number"),
        ("verifier/reward.json", {"reward": -5}, "verifier/reward.json: reward: -5 is not"),
        ("cost", -5, "result.json: agent_result.cost_usd: -5 is out of range"),
        ("tokens", -1, "result.json: agent_result.n_input_tokens: -1 is out of range"),
        ("started", "yesterday", "result.json: started_at: 'yesterday' is not an ISO 8601"),
        ("finished", "2025-13-45T00:00:00", "result.json: finished_at: '2025-13-45T00:00:00'"),
        ("exception", "E" * 10000, "result.json: exception_info.exception_type: expected an"),
    ],
)
def test_a_bad_value_is_refused_naming_the_trial_and_its_own_file(tmp_path, where, content, said):
    options = {}
    if where == "cost":
        options["cost"] = content
    elif where == "tokens":
        options["result_extra"] = {"agent_result": {"n_input_tokens": content}}
    elif where == "started":
        options["started"] = content
    elif where == "finished":
        options["finished"] = content
    elif where == "exception":
        options["exception"] = {"exception_type": content, "exception_message": "m"}
    elif where == "verifier/reward.json":
        options["reward_json"] = content
    folder = trial(job(tmp_path), "t1", **options)
    if where == "verifier/reward.txt":
        (folder / where).write_text(content)
    message = refused(tmp_path)
    assert f"{folder}: {said}" in message
    assert message.count(said) == 1
    assert "manifest.json" not in message and "summary.json" not in message
    assert "E" * 200 not in message  # a huge value is not echoed whole
    assert not Bench.objects.exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_pass_threshold_that_is_no_finite_number_is_refused(tmp_path, value):
    trial(job(tmp_path), "t1")
    with pytest.raises(CommandError, match="expected a finite number, 0 or more"):
        call_command(
            "import_harbor", str(tmp_path), "--bench", "hb", "--pass-threshold", value,
            stdout=io.StringIO(), stderr=io.StringIO(),
        )  # fmt: skip
    assert not Bench.objects.exists()


def test_many_long_test_names_import_cut_with_one_note(tmp_path, client):
    names = [(f"test_{i:05d}_" + "x" * 300, "passed") for i in range(2000)]
    trial(job(tmp_path), "t1", ctrf=names)
    out = run(tmp_path)
    assert len(out.splitlines()) < 30
    names = list(CheckResult.objects.values_list("name", flat=True))
    assert len(names) == 2000 == len(set(names))
    assert max(len(n) for n in names) <= 200
    attempt = Attempt.objects.select_related("model").get()
    url = reverse("mirror-attempt-file", args=["hb", attempt.model.slug, "t1", "summary.json"])
    response = client.get(url)
    got = b"".join(response.streaming_content) if response.streaming else response.content
    notes = json.loads(got)["harbor"]["notes"]
    assert "verifier/ctrf.json: 2000 test name(s) longer than 200 characters, cut" in notes


# -- #28 section 3: one trial at a time ------------------------------------------------------


def test_the_built_release_holds_no_attempt_files_until_the_import_reads_them(tmp_path):
    j = job(tmp_path)
    trial(j, "t1")
    trial(j, "t2", reward=0.0)
    with open_tree(j) as tree:
        source = harbor_release([(tree, str(j))], bench="hb").source
        assert not [n for n in source._files if n.startswith("attempts/")]
        assert [n for n in source.names() if n.startswith("attempts/")]
        write_release(source=source)
    assert Attempt.objects.count() == 2
