"""Each trial is read and normalised once per import: its built attempt folder is
spooled to a private temporary folder while the import checks, read back when it
writes, and removed however the import ends (issue #28, section 3)."""

from __future__ import annotations

import io
import json
import tempfile

import pytest
from django.core.management.base import CommandError

from formats.reader import open_tree
from formats.reader.tempdirs import PREFIX
from formats.sources.harbor import stream
from ingest.reading.harbor.build import harbor_release
from ingest.writing.services import write_release
from leaderboard.models import Attempt
from tests.factories import dump
from tests.ingest.harbor_trials import import_harbor, job, trial

pytestmark = pytest.mark.django_db


@pytest.fixture
def temp_root(tmp_path, monkeypatch):
    """The system temporary folder, for this test alone (others' spools are not ours)."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def spools(root) -> list:
    return [p for p in root.iterdir() if p.name.startswith(PREFIX)]


@pytest.fixture
def reads(monkeypatch):
    """How many times each trial folder is read in full."""
    counted: dict[str, int] = {}
    real = stream.read_trial

    def counting(head, scrub):
        counted[head.label] = counted.get(head.label, 0) + 1
        return real(head, scrub)

    monkeypatch.setattr(stream, "read_trial", counting)
    return counted


def three_trials(tmp_path):
    j = job(tmp_path / "jobs")
    trial(j, "t1")
    trial(j, "t2", reward=0.0)
    trial(j, "t2", reward=1.0, name="t2__again")  # a task run twice: each lists the other
    return j


def test_an_import_reads_each_trial_once_and_leaves_no_spool(tmp_path, temp_root, reads):
    j = three_trials(tmp_path)
    import_harbor(j, stdout=io.StringIO(), stderr=io.StringIO())
    assert Attempt.objects.count() == 2  # t1, t2 (its second trial hangs off it)
    assert sorted(reads.values()) == [1, 1, 1]
    assert spools(temp_root) == []


def test_the_trials_of_one_task_list_each_other_in_what_is_written(tmp_path, temp_root):
    j = three_trials(tmp_path)
    with open_tree(j) as tree, harbor_release([(tree, str(j))], bench="hb").source as source:
        summaries = [
            json.loads(source.read(n))
            for n in source.names()
            if "/t2/" in n and n.endswith("summary.json")
        ]
        write_release(source=source)
    assert len(summaries) == 2
    for summary in summaries:
        assert [t["trial_name"] for t in summary["harbor"]["trials"]] == [
            summaries[0]["harbor"]["trials"][0]["trial_name"],
            summaries[0]["harbor"]["trials"][1]["trial_name"],
        ]
        assert {t["reward"] for t in summary["harbor"]["trials"]} == {0.0, 1.0}
    assert spools(temp_root) == []


def test_a_dry_run_leaves_no_spool(tmp_path, temp_root, reads):
    j = three_trials(tmp_path)
    before = dump()
    import_harbor(j, dry_run=True, stdout=io.StringIO(), stderr=io.StringIO())
    assert dump() == before
    assert sorted(reads.values()) == [1, 1, 1]
    assert spools(temp_root) == []


def test_a_refused_import_leaves_no_spool(tmp_path, temp_root):
    j = three_trials(tmp_path)
    (j / "broken__1").mkdir()
    (j / "broken__1" / "result.json").write_text("{not json")
    before = dump()
    with pytest.raises(CommandError):
        import_harbor(j, stdout=io.StringIO(), stderr=io.StringIO())
    assert dump() == before
    assert spools(temp_root) == []


def test_a_trial_changed_after_it_was_checked_is_written_as_it_was_checked(tmp_path, temp_root):
    j = job(tmp_path)
    folder = trial(j, "t1")
    trial(j, "t2", reward=0.0)
    with open_tree(j) as tree, harbor_release([(tree, str(j))], bench="hb").source as source:
        (folder / "verifier" / "test-stdout.txt").write_text("pytest OUTPUT here\n")
        verdicts = [n for n in source.names() if n.endswith("verdict.json")]
        assert {json.loads(source.read(n))["test_stdout"] for n in verdicts} == {
            "pytest output here\n"
        }
        write_release(source=source)
    assert Attempt.objects.count() == 2
    assert spools(temp_root) == []


def test_a_spooled_folder_changed_before_the_write_is_refused_and_nothing_written(
    tmp_path, temp_root
):
    j = job(tmp_path)
    trial(j, "t1")
    trial(j, "t2", reward=0.0)
    before = dump()
    with open_tree(j) as tree, harbor_release([(tree, str(j))], bench="hb").source as source:
        (spool,) = spools(temp_root)
        for verdict in spool.rglob("verdict.json"):
            verdict.write_bytes(verdict.read_bytes().replace(b"pytest output", b"pytest OUTPUT"))
        with pytest.raises(Exception, match="changed"):
            write_release(source=source)
    assert dump() == before
    assert spools(temp_root) == []
