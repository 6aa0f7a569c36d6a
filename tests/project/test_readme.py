"""The README says what `make demo` holds, with the figures the sample
generators really write, and shows pictures that exist and stay small."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from samplegen.harbor import MODELS, write_sample_harbor
from samplegen.release import generate_release

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_the_readme_opens_with_its_two_commands():
    assert README.startswith("# Benchview\n\n```\nmake demo\nmake test\n```\n")


def test_the_readme_names_both_benches_the_demo_imports_with_their_figures(tmp_path):
    makefile = (ROOT / "Makefile").read_text()
    demo = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "import_release $(SAMPLE_DIR)" in demo
    assert "--bench interaction-bench" in demo
    defaults = inspect.signature(generate_release).parameters
    models, tasks, released = (defaults[n].default for n in ("models", "tasks", "released"))
    assert f"{models} models on {tasks} tasks, {released} of them released" in README
    assert f"`{defaults['scoring_rule'].default}`" in README
    harbor_tasks = inspect.signature(write_sample_harbor).parameters["tasks"].default
    written = write_sample_harbor(tmp_path / "jobs")
    trials = re.search(r"(\d+) trials", README)
    assert trials and int(trials[1]) == written["trials"]
    assert f"{len(MODELS)} agents on {harbor_tasks} tasks" in README
    for address in ("/integration-bench/", "/interaction-bench/"):
        assert f"(`{address}`)" in README


def test_the_readmes_screenshots_exist_and_are_small():
    images = re.findall(r"!\[[^\]]+\]\(([^)]+\.png)\)", README)
    assert {"docs/img/leaderboard.png", "docs/img/attempt.png"} <= set(images)
    for image in images:
        path = ROOT / image
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
        assert path.stat().st_size < 100_000, image
