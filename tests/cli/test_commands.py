"""The `benchview` command: its subcommands, how it tells inputs apart, the
cache fingerprint of `view`, a transcript imported as the bench `local`, and
`check` on a broken and a good release."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from benchview.cli import COMMANDS, main
from benchview.cli import paths as cache
from benchview.cli.imports import import_paths
from benchview.cli.kinds import HARBOR, RELEASE, TRANSCRIPT, kind_of
from leaderboard.models import Bench
from samplegen.release import generate_release

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
CLAUDE = TRANSCRIPTS / "harbor_hello-load-native-trajectory_session_d7d4e19e.jsonl"
CODEX = TRANSCRIPTS / "takopi_codex_exec_json_all_formats.jsonl"


def test_help_lists_every_subcommand_and_each_has_its_own(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    for name in ("view", "serve", "import", "import-harbor", "export", "check", "manage"):
        assert name in COMMANDS and f"    {name}" in listed
    for name, expected in [("view", "--no-browser"), ("serve", "--workers"), ("check", "PATH")]:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0 and expected in capsys.readouterr().out
    for name, expected in [("import-harbor", "--bench"), ("export", "bench")]:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0 and expected in capsys.readouterr().out


def test_inputs_are_told_apart_by_content_not_name(tmp_path):
    release = tmp_path / "release"
    release.mkdir()
    (release / "manifest.json").write_text("{}")
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "result.json").write_text("{}")
    zipped = tmp_path / "looks-like-jobs.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("r/manifest.json", "{}")
    tarred = tmp_path / "release.tar.gz"
    with tarfile.open(tarred, "w:gz") as archive:
        archive.add(jobs / "result.json", arcname="job/result.json")
    renamed = tmp_path / "transcript.zip"
    renamed.write_bytes(CLAUDE.read_bytes())
    assert kind_of(release) == RELEASE
    assert kind_of(jobs) == HARBOR
    assert kind_of(zipped) == RELEASE
    assert kind_of(tarred) == HARBOR
    assert kind_of(renamed) == TRANSCRIPT


def test_the_view_cache_is_one_per_set_of_paths_and_sees_any_change(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x.json").write_text("1")
    assert cache.cache_dir([a, b]) == cache.cache_dir([b, a, a])
    assert cache.cache_dir([a]) != cache.cache_dir([a, b])
    assert cache.cache_dir([a]).parent == tmp_path / "cache" / "benchview"
    before = cache.fingerprint([a])
    assert cache.fingerprint([a]) == before
    (a / "x.json").write_text("22")
    changed = cache.fingerprint([a])
    assert changed != before
    stamp = time.time() + 10
    os.utime(a / "x.json", (stamp, stamp))
    assert cache.fingerprint([a]) != changed
    touched = cache.fingerprint([a])
    (a / "y.json").write_text("")
    assert cache.fingerprint([a]) != touched
    folder = tmp_path / "f"
    folder.mkdir()
    assert not cache.is_current(folder, touched)
    cache.remember(folder, touched)
    assert cache.is_current(folder, touched)


@pytest.mark.django_db(transaction=True)
def test_a_transcript_becomes_a_task_of_the_bench_local_with_its_model(tmp_path):
    import_paths([CLAUDE, CODEX], transcripts_dir=tmp_path / "t")
    bench = Bench.objects.get(slug="local")
    tasks = set(bench.tasks.values_list("slug", flat=True))
    assert tasks == {
        "harbor-hello-load-native-trajectory-session-d7d4e19e",
        "takopi-codex-exec-json-all-formats",
    }
    names = set(bench.models.values_list("display_name", flat=True))
    assert "claude-opus-5" in names  # the model the Claude Code transcript names
    assert "unknown" in names  # the Codex capture names none


def _benchview(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    return subprocess.run(
        [sys.executable, "-m", "benchview", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_check_names_file_and_json_path_of_a_problem_and_prints_a_good_plan(tmp_path):
    good = tmp_path / "good"
    generate_release(good, models=2, tasks=3, released=1)
    broken = tmp_path / "broken"
    generate_release(broken, models=2, tasks=3, released=1)
    board = json.loads((broken / "leaderboard.json").read_text())
    board["rows"][0]["score"] = "high"
    (broken / "leaderboard.json").write_text(json.dumps(board))

    refused = _benchview("check", str(broken), cwd=tmp_path)
    assert refused.returncode == 1
    assert "leaderboard.json: rows[0].score: expected a number" in refused.stderr

    checked = _benchview("check", str(good), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "attempts:" in checked.stdout and "dry run: nothing was written" in checked.stdout
    assert not list(tmp_path.glob("db.sqlite3*")), "check wrote a database"
