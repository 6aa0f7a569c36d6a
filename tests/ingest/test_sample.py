"""The synthetic release generator: deterministic, and consistent with itself."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from unidiff import PatchSet

from formats.v1.scoring import (
    MISSING_VERDICT,
    TOLERANCE,
    Cell,
    CheckOutcome,
    competition_ranks,
    count_checks,
    model_figures,
    score_verdict,
)
from samplegen.release import generate_release
from tests.factories import SMALL

TINY = {"models": 4, "tasks": 12, "released": 4}


def digests(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def evidence_task(path: str) -> str | None:
    """The task a release path is evidence of (attempt files, task document), else None."""
    parts = path.split("/")
    if parts[0] == "attempts":
        return parts[2]
    if parts[0] == "tasks":
        return parts[1].removesuffix(".json")
    return None


def attempt_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / "attempts").glob("*/*") if p.is_dir())


def outcomes(verdict: dict) -> list[CheckOutcome]:
    return [
        CheckOutcome(c["name"], c["mandatory"], c["passed"], c["level"]) for c in verdict["checks"]
    ]


@pytest.fixture(scope="module")
def default_release(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("default") / "release"
    return root, generate_release(root)


def test_same_seed_gives_identical_bytes(small_release_dir, tmp_path):
    # The session's small release, made again with the same options.
    generate_release(tmp_path / "again", **SMALL)
    assert digests(tmp_path / "again") == digests(small_release_dir)


def test_bytes_do_not_depend_on_hash_randomisation(tmp_path):
    # Set iteration order changes with PYTHONHASHSEED; a second interpreter with
    # another seed catches any output that leaks it.
    generate_release(tmp_path / "here", **TINY)
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
        "from samplegen.release import generate_release; "
        f"generate_release(Path(sys.argv[2]), **{TINY!r})"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    project = Path(__file__).resolve().parents[2]
    subprocess.run(
        [sys.executable, "-c", script, str(project), str(tmp_path / "there")], check=True, env=env
    )
    assert digests(tmp_path / "there") == digests(tmp_path / "here")


def test_different_seed_gives_different_release(tmp_path):
    generate_release(tmp_path / "a", **TINY, seed=1)
    generate_release(tmp_path / "b", **TINY, seed=2)
    a, b = digests(tmp_path / "a"), digests(tmp_path / "b")
    assert a != b
    assert load(tmp_path / "a" / "matrix.json") != load(tmp_path / "b" / "matrix.json")


def test_default_counts(default_release):
    root, summary = default_release
    manifest = load(root / "manifest.json")
    assert manifest["schema"] == "v1"
    assert manifest["bench"] == "integration-bench"
    assert manifest["title"] == "Integration Bench"
    assert manifest["revision"] == "01"
    assert len(manifest["models"]) == 17
    assert len(manifest["tasks"]) == 60
    assert [b["id"] for b in manifest["batches"]] == [1]
    assert manifest["batches"][0]["tasks"] == manifest["tasks"][:10]
    counts = manifest["counts"]
    assert counts == {
        "models": 17,
        "tasks": 60,
        "released_tasks": 10,
        "attempts": len(attempt_dirs(root)),
    }
    # One released (model, task) pair has no attempt at all.
    assert counts["attempts"] == 17 * 10 - 1
    assert summary["attempts"] == counts["attempts"]
    assert len(list((root / "models").glob("*.json"))) == 17
    assert sorted(p.stem for p in (root / "tasks").glob("*.json")) == sorted(manifest["tasks"][:10])
    harnesses = {load(p)["model"]["harness"] for p in (root / "models").glob("*.json")}
    assert harnesses == {"claude-code", "codex", "opencode"}

    matrix = load(root / "matrix.json")
    released = {t["id"] for t in matrix["tasks"] if t["released"]}
    assert released == set(manifest["tasks"][:10])
    missing = [
        (m, t["id"])
        for m in matrix["models"]
        for t in matrix["tasks"]
        if t["id"] not in matrix["cells"][m]
    ]
    assert len(missing) == 3
    assert sum(1 for _, t in missing if t in released) == 1
    for m, t in missing:
        assert not (root / "attempts" / m / t).exists()
    for m in matrix["models"]:
        for t, cell in matrix["cells"][m].items():
            assert set(cell) == {"score", "flags"}
            assert 0.0 <= cell["score"] <= 1.0
            if t not in released:
                assert cell["flags"] == []


@pytest.fixture(scope="module")
def next_batch_release(tmp_path_factory) -> tuple[Path, dict]:
    """The default release one batch later: the same seed with three more tasks released."""
    root = tmp_path_factory.mktemp("next-batch") / "release"
    return root, generate_release(root, released=13)


def test_a_further_batch_leaves_earlier_tasks_byte_identical(default_release, next_batch_release):
    (before, _), (after, _) = default_release, next_batch_release
    old, new = digests(before), digests(after)
    tasks = load(before / "manifest.json")["tasks"]
    first, added = tasks[:10], tasks[10:13]

    def evidence_of(files: dict[str, str], task_ids: list[str]) -> dict[str, str]:
        """The attempt files and task documents of these tasks."""
        wanted = set(task_ids)
        return {p: d for p, d in files.items() if evidence_task(p) in wanted}

    kept = evidence_of(old, first)
    assert len(kept) > 169 * 6
    assert evidence_of(new, first) == kept
    # Nothing else of the earlier release is evidence: it only lost derived documents.
    assert set(old) - set(kept) == {
        "manifest.json",
        "leaderboard.json",
        "matrix.json",
        *(f"models/{m}.json" for m in load(before / "manifest.json")["models"]),
    }
    fresh = [p for p in attempt_dirs(after) if p.name in added]
    assert {p.name for p in fresh} == set(added)
    assert not any((before / "attempts" / p.parent.name / p.name).exists() for p in fresh)
    assert sorted(p.stem for p in (after / "tasks").glob("*.json")) == sorted(first + added)
    assert len(attempt_dirs(after)) == len(attempt_dirs(before)) + len(fresh)


def test_a_further_batch_updates_only_the_derived_documents(default_release, next_batch_release):
    (before, _), (after, summary) = default_release, next_batch_release
    m1, m2 = load(before / "manifest.json"), load(after / "manifest.json")
    # The catalogue does not depend on how many tasks are released.
    for key in ("schema", "bench", "title", "revision", "scoring_rule", "models", "tasks"):
        assert m1[key] == m2[key]
    assert m2["batches"][0] == m1["batches"][0]
    assert [b["id"] for b in m2["batches"]] == [1, 2]
    assert m2["batches"][1]["tasks"] == m1["tasks"][10:13]
    assert m2["batches"][1]["released_at"] > m1["batches"][0]["released_at"]
    assert m2["generated_at"] == m2["batches"][1]["released_at"]
    assert m2["counts"]["released_tasks"] == 13
    assert m2["counts"]["attempts"] == summary["attempts"] == len(attempt_dirs(after))
    assert m2["counts"]["attempts"] > m1["counts"]["attempts"]

    x1, x2 = load(before / "matrix.json"), load(after / "matrix.json")
    assert [{**t, "released": None} for t in x1["tasks"]] == [
        {**t, "released": None} for t in x2["tasks"]
    ]
    assert [t["id"] for t in x2["tasks"] if t["released"]] == m1["tasks"][:13]
    released_now = set(m1["tasks"][10:13])
    for m in m1["models"]:
        c1, c2 = x1["cells"][m], x2["cells"][m]
        # Missing cells stay missing; every cell outside the new batch is unchanged.
        assert set(c1) == set(c2)
        assert {t: c for t, c in c1.items() if t not in released_now} == {
            t: c for t, c in c2.items() if t not in released_now
        }
    # Released, a task's outcome may differ from its earlier matrix estimate (here
    # at least the batch's planted missing verdict and timeout flag show up).
    assert any(
        x1["cells"][m][t] != x2["cells"][m][t]
        for m in m1["models"]
        for t in released_now
        if t in x1["cells"][m]
    )

    l1, l2 = load(before / "leaderboard.json"), load(after / "leaderboard.json")
    assert l1 != l2
    # Durations sum over released attempts (costs do too, but free models cost nothing).
    duration = {r["model"]: r["duration_s"] for r in l1["rows"]}
    for row in l2["rows"]:
        if any((after / "attempts" / row["model"] / t).is_dir() for t in released_now):
            assert row["duration_s"] > duration[row["model"]]
    for m in m1["models"]:
        d1, d2 = load(before / "models" / f"{m}.json"), load(after / "models" / f"{m}.json")
        assert d1["model"] == d2["model"]
        rows = [r for r in d2["attempts"] if r["task"] not in released_now]
        assert rows == d1["attempts"]


@pytest.mark.parametrize(("first", "then"), [(3, 4), (4, 11), (10, 23)])
def test_any_further_release_keeps_earlier_attempts(tmp_path, first, then):
    # Small benches, partial batches and a batch boundary: the rule is per entity.
    size = {"models": 4, "tasks": 24, "seed": 5}
    generate_release(tmp_path / "a", released=first, **size)
    generate_release(tmp_path / "b", released=then, **size)
    tasks = load(tmp_path / "a" / "manifest.json")["tasks"][:first]
    a, b = digests(tmp_path / "a"), digests(tmp_path / "b")
    shared = {p: d for p, d in a.items() if evidence_task(p)}
    assert {evidence_task(p) for p in shared} == set(tasks)
    assert {p: b.get(p) for p in shared} == shared

    def missing_cells(root: Path) -> set[tuple[str, str]]:
        matrix = load(root / "matrix.json")
        return {
            (m, t["id"])
            for m in matrix["models"]
            for t in matrix["tasks"]
            if t["id"] not in matrix["cells"][m]
        }

    assert missing_cells(tmp_path / "a") == missing_cells(tmp_path / "b")


def test_batches_of_ten(tmp_path):
    generate_release(tmp_path / "r", models=2, tasks=30, released=25)
    manifest = load(tmp_path / "r" / "manifest.json")
    assert [len(b["tasks"]) for b in manifest["batches"]] == [10, 10, 5]
    assert manifest["counts"]["released_tasks"] == 25
    assert manifest["generated_at"] == manifest["batches"][-1]["released_at"]


def test_summaries_agree_with_verdicts(default_release):
    root, _ = default_release
    manifest = load(root / "manifest.json")
    rule = manifest["scoring_rule"]
    missing_verdicts = 0
    for folder in attempt_dirs(root):
        summary = load(folder / "summary.json")
        verdict_path = folder / "verdict.json"
        if verdict_path.exists():
            checks = outcomes(load(verdict_path))
            assert summary["score"] == score_verdict(rule, checks)
            c = count_checks(checks)
            assert summary["checks"] == {
                "total": c.total,
                "passed": c.passed,
                "failed": c.failed,
                "mandatory_failed": c.mandatory_failed,
            }
            assert 4 <= c.total <= 9
        else:
            missing_verdicts += 1
            assert summary["flags"] == [MISSING_VERDICT]
            assert summary["score"] == 0
        patch = folder / "patch.diff"
        if patch.exists():
            expected = "sha256:" + hashlib.sha256(patch.read_bytes()).hexdigest()
            assert summary["hashes"]["patch"] == expected
        else:
            assert "patch" not in summary["hashes"]
        assert (folder / "problem.md").read_text(encoding="utf-8").startswith("# ")
    assert missing_verdicts == 3


def test_checks_have_the_promised_variety(default_release):
    root, _ = default_release
    tasks = [load(p) for p in sorted((root / "tasks").glob("*.json"))]
    levels = {c["level"] for t in tasks for c in t["checks"]}
    assert {"L1", "L2", "L3", "L4-perf"} <= levels
    assert any(all(c["mandatory"] for c in t["checks"]) for t in tasks)
    mandatory_failures = 0
    for folder in attempt_dirs(root):
        if (folder / "verdict.json").exists():
            mandatory_failures += load(folder / "summary.json")["checks"]["mandatory_failed"]
    assert mandatory_failures > 0


def test_leaderboard_recomputes_with_model_figures(default_release):
    root, _ = default_release
    manifest = load(root / "manifest.json")
    matrix = load(root / "matrix.json")
    surfaces = {t["id"]: t["surface"] for t in matrix["tasks"]}
    released = {t["id"] for t in matrix["tasks"] if t["released"]}
    figures = {}
    for m in manifest["models"]:
        cells = {}
        for t, cell in matrix["cells"][m].items():
            if t in released:
                summary = load(root / "attempts" / m / t / "summary.json")
                assert summary["score"] == cell["score"]
                assert summary["flags"] == cell["flags"]
                cells[t] = Cell(
                    cell["score"],
                    tuple(cell["flags"]),
                    True,
                    summary["cost"]["usd"],
                    summary["timing"]["duration_s"],
                )
            else:
                cells[t] = Cell(cell["score"], tuple(cell["flags"]))
        figures[m] = model_figures(cells, surfaces, manifest["tasks"])
    ranks = competition_ranks([(m, f.score) for m, f in figures.items()])

    rows = load(root / "leaderboard.json")["rows"]
    assert [(r["model"], r["rank"]) for r in rows] == ranks
    for row in rows:
        f = figures[row["model"]]
        assert abs(row["score"] - f.score) <= TOLERANCE
        assert row["tasks"] == f.tasks == 60
        assert row["flagged"] == f.flagged
        assert abs(row["cost_usd"] - f.cost_usd) <= TOLERANCE
        assert abs(row["duration_s"] - f.duration_s) <= TOLERANCE
        assert row["by_surface"] == f.aggregate()["by_surface"]
        model_doc = load(root / "models" / f"{row['model']}.json")
        aggregate = {k: row[k] for k in model_doc["aggregate"]}
        assert model_doc["aggregate"] == aggregate
        tasks_in_order = [a["task"] for a in model_doc["attempts"]]
        assert tasks_in_order == sorted(tasks_in_order)
    assert sum(r["flagged"] for r in rows) == 6
    # A tie exercises competition ranking (1, 2, 2, 4).
    assert len({r["rank"] for r in rows}) < len(rows)


def test_task_documents_match_attempts(default_release):
    root, _ = default_release
    for path in sorted((root / "tasks").glob("*.json")):
        doc = load(path)
        task = doc["task"]["id"]
        models = [r["model"] for r in doc["results"]]
        assert models == sorted(models)
        assert models == sorted(p.parent.name for p in (root / "attempts").glob(f"*/{task}"))
        for result in doc["results"]:
            verdict = root / "attempts" / result["model"] / task / "verdict.json"
            if verdict.exists():
                expected = {c["name"]: c["passed"] for c in load(verdict)["checks"]}
                assert result["checks"] == expected
            else:
                assert result["checks"] == {}


def test_verdict_requests_exist_in_vendor_log(default_release):
    root, summary = default_release
    refs = 0
    requests = 0
    no_vendor_log = 0
    for folder in attempt_dirs(root):
        log_path = folder / "vendor-requests.json"
        if not log_path.exists():
            no_vendor_log += 1
            assert load(root / "tasks" / f"{folder.name}.json")["task"]["vendors"] == []
            continue
        vendors = load(log_path)["vendors"]
        known = {f"{v}:{e['id']}" for v, entries in vendors.items() for e in entries}
        requests += len(known)
        for entries in vendors.values():
            for entry in entries:
                assert entry["direction"] in ("inbound", "webhook")
                assert entry["status"] in (200, 201, 400, 401, 500)
                headers = {h.lower() for h in entry.get("headers", {})}
                assert not headers & {"cookie", "set-cookie", "forwarded"}
                assert not any(h.startswith("x-forwarded-") for h in headers)
        verdict_path = folder / "verdict.json"
        if verdict_path.exists():
            for check in load(verdict_path)["checks"]:
                for ref in check.get("requests", []):
                    refs += 1
                    assert ref in known, (folder, ref)
    assert refs > 0
    assert no_vendor_log > 0
    assert requests == summary["vendor_requests"]


def test_trajectories_are_contiguous_and_varied(default_release):
    root, summary = default_release
    total = 0
    lengths = []
    never_returned = exit_null = failing = 0
    for folder in attempt_dirs(root):
        doc = load(folder / "trajectory.json")
        events = doc["events"]
        assert [e["index"] for e in events] == list(range(len(events)))
        opencode = doc["harness"] == "opencode"
        if doc["harness"] == "claude-code":
            # Only Claude's stream prints the session header and the prompt.
            assert events[0]["type"] == "system"
            assert events[1]["type"] == "user"
            assert events[1]["text"] == (folder / "problem.md").read_text(encoding="utf-8")
        else:
            assert {"system", "user"}.isdisjoint(e["type"] for e in events)
        for event in events:
            # codex exec --json carries no time; the other two stamp every line.
            assert ("ts" in event) == (doc["harness"] != "codex")
            if event["type"] == "tool_call":
                result = event["result"]
                if result is None:
                    never_returned += 1
                else:
                    assert set(result) == {"ok", "output", "exit_code"}
                    exit_null += result["exit_code"] is None
                    failing += not result["ok"]
            if event["type"] in ("message", "reasoning", "tool_call") and opencode:
                assert set(event["tokens"]) == {"input", "output"}
            if event["type"] == "error":
                assert event["source"] in ("harness", "provider")
        total += len(events)
        lengths.append(len(events))
        for line in (folder / "transcript.jsonl").read_text(encoding="utf-8").splitlines():
            json.loads(line)
    assert total == summary["events"]
    assert sum(1 for n in lengths if n >= 5000) == 3
    assert never_returned == 2
    assert exit_null > 0 and failing > 0


def test_hostile_and_unicode_content_is_present(default_release):
    root, _ = default_release
    tickets = " ".join(load(p)["ticket"] for p in (root / "tasks").glob("*.json"))
    assert "<script>alert(1)</script>" in tickets
    assert "javascript:" in tickets
    text = " ".join(
        (folder / "trajectory.json").read_text(encoding="utf-8") for folder in attempt_dirs(root)
    )
    for needle in (
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "テスト",
        "العربية",
        "עברית",
        "🎉",
    ):
        assert needle in text
    biggest = max(
        len(e["result"]["output"])
        for folder in attempt_dirs(root)
        for e in load(folder / "trajectory.json")["events"]
        if e["type"] == "tool_call" and e["result"]
    )
    assert biggest >= 100_000


def test_patches_are_valid_unified_diffs(default_release):
    root, _ = default_release
    patches = sorted(root.glob("attempts/*/*/patch.diff"))
    assert 0 < len(patches) < len(attempt_dirs(root))
    for path in patches:
        patch = PatchSet(io.StringIO(path.read_text(encoding="utf-8")))
        assert len(patch) >= 1
        assert sum(f.added + f.removed for f in patch) > 0


def test_json_files_are_indented_utf8(default_release):
    root, _ = default_release
    paths = [*root.glob("*.json"), *root.glob("models/*.json"), *root.glob("tasks/*.json")]
    paths += [p for folder in attempt_dirs(root)[:15] for p in folder.glob("*.json")]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


def test_events_option_roughly_hits_target(tmp_path):
    summary = generate_release(tmp_path / "r", models=5, tasks=20, released=10, events=20_000)
    assert abs(summary["events"] - 20_000) <= 200
    lengths = sorted(
        len(load(folder / "trajectory.json")["events"]) for folder in attempt_dirs(tmp_path / "r")
    )
    # Still a few long runs among many short ones.
    assert lengths[-1] > 10 * lengths[len(lengths) // 2]


def test_pass_fail_rule(tmp_path):
    generate_release(tmp_path / "r", **TINY, scoring_rule="pass-fail")
    for folder in attempt_dirs(tmp_path / "r"):
        summary = load(folder / "summary.json")
        assert summary["scoring_rule"] == "pass-fail"
        if (folder / "verdict.json").exists():
            checks = outcomes(load(folder / "verdict.json"))
            assert summary["score"] == score_verdict("pass-fail", checks)


def test_refuses_a_folder_that_is_not_a_release(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError):
        generate_release(tmp_path, **TINY)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_rewrites_an_earlier_sample_release(tmp_path):
    generate_release(tmp_path / "r", models=3, tasks=12, released=6)
    generate_release(tmp_path / "r", **TINY)
    assert (
        len(attempt_dirs(tmp_path / "r"))
        == load(tmp_path / "r" / "manifest.json")["counts"]["attempts"]
    )


def test_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError):
        generate_release(tmp_path / "a", bench="Not A Slug")
    with pytest.raises(ValueError):
        generate_release(tmp_path / "b", scoring_rule="best-of-three")


def test_management_command_writes_the_folder(tmp_path):
    out = io.StringIO()
    call_command(
        "make_sample_release",
        str(tmp_path / "cmd"),
        "--models",
        "3",
        "--tasks",
        "12",
        "--released",
        "5",
        "--events",
        "600",
        "--seed",
        "11",
        "--bench",
        "demo-bench",
        stdout=out,
    )
    manifest = load(tmp_path / "cmd" / "manifest.json")
    assert manifest["bench"] == "demo-bench"
    assert manifest["title"] == "Demo Bench"
    assert manifest["counts"]["released_tasks"] == 5
    assert "attempts: " in out.getvalue()
    assert "events: " in out.getvalue()
