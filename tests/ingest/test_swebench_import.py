"""SWE-bench experiments submissions through the one import pipeline: a model
per system folder, the submission's resolved as the score, tests as checks,
the patch and trajectory kept, facts shown, broken input refused whole."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from formats.sources import ImportOptions
from ingest.models import ImportRecord
from ingest.running.imports import Action, run_import
from ingest.running.opening import open_for_import
from leaderboard.facts import declared
from leaderboard.models import Attempt, Bench, CheckResult, Disagreement, Model
from tests.factories import dump
from tests.formats.swebench_submissions import (
    HOSTILE,
    detail,
    metadata,
    openhands_line,
    submission,
    swe_agent_traj,
)
from trajectories.models import TranscriptCheck

pytestmark = pytest.mark.django_db


def run(*paths, bench="nocode", dry_run=False, **options):
    """Import ``paths`` through the one door, the format told by content."""
    given = ImportOptions(bench=bench, **options)
    done = run_import(
        path=" ".join(map(str, paths)),
        via=ImportRecord.Via.COMMAND,
        holder="test",
        action=Action.DRY_RUN if dry_run else Action.IMPORT,
        opener=lambda: open_for_import(list(paths), options=given),
    )
    return done.record


def split(root):
    """Two systems with the same display name, one with SWE-agent trajectories,
    the other with OpenHands' output.jsonl and a README figure."""
    instances = ["astropy__astropy-1", "django__django-2"]
    submission(
        root,
        "20250722_agentless_claude",
        details=[detail(instances[0], True), detail(instances[1], False, model_patch=HOSTILE)],
        files={f"trajs/{i}.traj": swe_agent_traj(i) for i in instances},
    )
    submission(
        root,
        "20250812_agentless_gpt5",
        meta=metadata(model=["gpt-5-chat"], checked=True, org=["ZJU", "Agentless"]),
        details=[detail(instances[0], False), detail(instances[1], True)],
        files={
            "trajs/output.jsonl": "".join(json.dumps(openhands_line(i)) + "\n" for i in instances),
            "README.md": "Resolved% : 100.00% (2 / 2)\n",
        },
    )
    return root


def test_each_system_folder_is_a_model_scored_by_its_resolved_instances(tmp_path):
    record = run(split(tmp_path / "verified"))
    assert record.outcome == ImportRecord.Outcome.APPLIED, record.problems
    bench = Bench.objects.get(slug="nocode")
    assert bench.scoring_rule == "reward-threshold"
    rows = {m.slug: m for m in Model.objects.filter(bench=bench)}
    assert set(rows) == {"20250722_agentless_claude", "20250812_agentless_gpt5"}
    assert {m.display_name for m in rows.values()} == {"Agentless-1.5"}
    claude, gpt5 = rows["20250722_agentless_claude"], rows["20250812_agentless_gpt5"]
    assert (claude.score, claude.passed, claude.tasks) == (0.5, 1, 2)
    assert gpt5.provider == "gpt-5-chat"
    assert declared(claude.extras) == {
        "organisation": "Agentless",
        "open_weights": False,
        "open_system": True,
        "verified": False,
        "results_date": "2025-07-22",
        "site": "https://github.com/OpenAutoCoder/Agentless",
    }
    assert declared(gpt5.extras)["organisation"] == "ZJU, Agentless"
    assert declared(gpt5.extras)["verified"] is True


def test_tests_are_checks_and_the_patch_and_trajectory_are_kept(tmp_path):
    run(split(tmp_path / "verified"))
    attempt = Attempt.objects.select_related("evidence__patch").get(
        model__slug="20250722_agentless_claude", task__slug="astropy__astropy-1"
    )
    checks = set(CheckResult.objects.filter(attempt=attempt).values_list("level", "name", "passed"))
    assert checks == {
        ("FAIL_TO_PASS", "tests/test_a.py::test_new", True),
        ("PASS_TO_PASS", "tests/test_a.py::test_keeps", True),
    }
    assert bytes(attempt.evidence.patch.data).startswith(b"diff --git a/astropy__astropy-1.py")
    assert attempt.evidence.events_total == 6  # system, task, 2 × (thought, action)
    assert attempt.evidence.tool_calls_by_tool == {"bash": 1, "submit": 1}
    check = TranscriptCheck.objects.get(attempt=attempt)
    assert (check.status, check.format) == (TranscriptCheck.AGREES, "swe-agent-traj")
    other = Attempt.objects.select_related("evidence").get(
        model__slug="20250812_agentless_gpt5", task__slug="django__django-2"
    )
    assert TranscriptCheck.objects.get(attempt=other).format == "openhands-history"
    assert other.evidence.tool_calls_by_tool == {"execute_bash": 1}


def test_the_board_shows_each_system_facts_and_links_only_a_web_site(tmp_path, client):
    root = split(tmp_path / "verified")
    hostile = metadata()
    hostile["info"]["site"] = "javascript:alert(1)"
    submission(root, "20250901_hostile", meta=hostile, details=[detail("astropy__astropy-1", True)])
    run(root)
    page = client.get(reverse("bench", args=["nocode"])).content.decode()
    assert page.count('href="https://github.com/OpenAutoCoder/Agentless"') == 2
    assert "javascript:alert" not in page
    assert "open system" in page and "✓ verified" in page
    csv = client.get(reverse("bench", args=["nocode"]) + "?format=csv").content.decode()
    assert "organisation,open_weights,open_system,verified,site" in csv.splitlines()[0]
    api = client.get("/api/models/", {"bench": "nocode"}).json()["results"]
    sites = {m["id"]: m["site"] for m in api}
    assert sites["20250722_agentless_claude"] == "https://github.com/OpenAutoCoder/Agentless"
    assert sites["20250901_hostile"] is None


def test_hostile_text_in_a_patch_is_shown_escaped(tmp_path, client):
    run(split(tmp_path / "verified"))
    url = reverse("attempt", args=["nocode", "20250722_agentless_claude", "django__django-2"])
    page = client.get(url).content.decode()
    assert HOSTILE not in page
    assert "&lt;script&gt;" in page


def test_a_published_figure_is_carried_and_its_difference_stored(tmp_path):
    run(split(tmp_path / "verified"))
    bench = Bench.objects.get(slug="nocode")
    rows = bench.extras["leaderboard.json"]["rows"]["__items__"]
    shown = [r for r in rows.values() if "published_score" in json.dumps(r)]
    assert len(shown) == 1  # the README's "Resolved% : 100.00% (2 / 2)"
    assert '"published_score": 1.0' in json.dumps(shown[0])
    gpt5 = Model.objects.get(slug="20250812_agentless_gpt5")
    # The README says 2 of 2; the details resolve 1 of 2.
    found = Disagreement.objects.filter(model=gpt5)
    assert {(d.field, d.published, d.recomputed) for d in found} >= {("passed", 2.0, 1.0)}


def test_a_broken_submission_is_refused_whole_naming_the_file_and_line(tmp_path):
    root = split(tmp_path / "verified")
    run(root)
    before = dump()
    bad = root / "20250812_agentless_gpt5" / "evaluation_details.jsonl"
    bad.write_text(bad.read_text() + '{"instance_id": "astropy__astropy-1", "resolved": true}\n')
    record = run(root)
    assert record.outcome == ImportRecord.Outcome.REFUSED
    assert record.problems == [
        # The path as given is named by its last part, as every import names it.
        "verified/20250812_agentless_gpt5/evaluation_details.jsonl: "
        "line 3: instance_id 'astropy__astropy-1' repeats line 1",
    ]
    assert dump() == before


def test_the_same_submissions_again_change_nothing_and_a_dry_run_writes_nothing(tmp_path):
    root = split(tmp_path / "verified")
    assert run(root, dry_run=True).outcome == ImportRecord.Outcome.CHECKED
    assert not Bench.objects.exists()
    run(root)
    before = dump()
    assert run(root).outcome == ImportRecord.Outcome.NO_CHANGE
    assert dump() == before


def test_a_second_split_folder_adds_its_systems_and_keeps_the_others(tmp_path):
    run(split(tmp_path / "a"))
    more = submission(tmp_path / "b", "20250901_new", details=[detail("astropy__astropy-1", True)])
    run(more)
    assert set(Model.objects.values_list("slug", flat=True)) == {
        "20250722_agentless_claude",
        "20250812_agentless_gpt5",
        "20250901_new",
    }
    run(more, replace=True)
    assert list(Model.objects.values_list("slug", flat=True)) == ["20250901_new"]


def test_home_paths_are_scrubbed_by_default_and_refused_without_it(tmp_path):
    traj = swe_agent_traj("a__b-1")
    traj["trajectory"][0]["observation"] = "/home/alice/work/a.py"
    root = submission(
        tmp_path, "20250101_s", details=[detail("a__b-1", True)], files={"trajs/a__b-1.traj": traj}
    )
    refused = run(root, scrub=False)
    assert refused.outcome == ImportRecord.Outcome.REFUSED
    assert "/home/alice" in " ".join(refused.problems)
    assert not Bench.objects.exists()
    assert run(root).outcome == ImportRecord.Outcome.APPLIED
    attempt = Attempt.objects.select_related("evidence__transcript").get()
    assert b"/home/alice" not in bytes(attempt.evidence.transcript.data)


def test_the_sample_split_imports_with_every_trajectory_format_read_back_alike(tmp_path):
    from samplegen.swebench import write_sample_swebench

    write_sample_swebench(tmp_path, count=4)
    record = run(tmp_path / "evaluation" / "verified", bench="swe-bench-sample")
    assert record.outcome == ImportRecord.Outcome.APPLIED, record.problems
    found = {(c.format, c.status) for c in TranscriptCheck.objects.all()}
    assert found == {
        ("swe-agent-traj", TranscriptCheck.AGREES),
        ("mini-swe-agent", TranscriptCheck.AGREES),
        ("openhands-history", TranscriptCheck.AGREES),
    }
    scores = dict(Model.objects.values_list("slug", "passed"))
    assert scores == {
        "20250601_sweagent_gpt6": 2,
        "20250715_mini_devstral3": 2,
        "20250802_openhands_sonnet45": 1,
    }
