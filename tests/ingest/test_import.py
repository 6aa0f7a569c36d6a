"""import_release: plan, apply, idempotence, and every class of bad input."""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile

import pytest
from django.core.management import call_command

from formats.v1.scoring import CheckOutcome, score_verdict
from leaderboard.models import Attempt, Batch, Bench, CheckResult, Disagreement, Model, Task
from tests.factories import dump, edit_json, failing_import, first_attempt_dir, import_path
from trajectories.models import Event, Evidence, VendorRequest


def run_import(path, *args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_release", str(path), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_it_imports_the_sample_release_with_every_row(small_release_dir):
    manifest = json.loads((small_release_dir / "manifest.json").read_text())
    out, _ = run_import(small_release_dir)
    bench = Bench.objects.get(slug=manifest["bench"])
    assert "imported" in out
    assert bench.models.count() == len(manifest["models"])
    assert bench.tasks.count() == len(manifest["tasks"])
    assert Task.objects.released().count() == manifest["counts"]["released_tasks"]
    assert Attempt.objects.released().count() == manifest["counts"]["attempts"]
    assert Evidence.objects.count() == manifest["counts"]["attempts"]
    events = sum(
        len(json.loads(p.read_text())["events"])
        for p in small_release_dir.glob("attempts/*/*/trajectory.json")
    )
    assert Event.objects.count() == events
    assert f"events: {events}" in out


@pytest.mark.django_db
def test_scores_are_recomputed_from_verdicts(small_release_dir):
    import_path(small_release_dir)
    for attempt in Attempt.objects.released().select_related("bench"):
        checks = list(attempt.check_results.values_list("name", "mandatory", "passed"))
        expected = score_verdict(
            attempt.bench.scoring_rule,
            None
            if attempt.verdict is None
            else [CheckOutcome(name=n, mandatory=m, passed=p) for n, m, p in checks],
        )
        assert attempt.score == pytest.approx(expected, abs=1e-12)


@pytest.mark.django_db
def test_unreleased_tasks_take_the_published_matrix_score(small_release_dir):
    matrix = json.loads((small_release_dir / "matrix.json").read_text())
    import_path(small_release_dir)
    unreleased = [t["id"] for t in matrix["tasks"] if not t["released"]]
    assert unreleased
    for model, row in matrix["cells"].items():
        for task in unreleased:
            if task in row:
                attempt = Attempt.objects.get(model__slug=model, task__slug=task)
                assert not attempt.has_detail
                assert attempt.score == row[task]["score"]


@pytest.mark.django_db
def test_model_figures_match_a_release_that_agrees_with_itself(small_release_dir):
    board = json.loads((small_release_dir / "leaderboard.json").read_text())
    import_path(small_release_dir)
    for row in board["rows"]:
        model = Model.objects.get(slug=row["model"])
        assert model.rank == row["rank"]
        assert model.score == pytest.approx(row["score"], abs=1e-9)
        assert model.flagged == row["flagged"]
        assert model.cost_usd == pytest.approx(row["cost_usd"], abs=1e-9)
        assert model.by_surface.keys() == row["by_surface"].keys()
        assert model.ci_low <= model.score <= model.ci_high
    assert Disagreement.objects.count() == 0


@pytest.mark.django_db
def test_importing_the_same_release_twice_changes_nothing(small_release_dir):
    import_path(small_release_dir)
    before = dump()
    out, _ = run_import(small_release_dir)
    assert "nothing changed" in out
    assert dump() == before


@pytest.mark.django_db
def test_a_forced_second_apply_also_changes_nothing(small_release_dir):
    # Even when the apply runs (not short-circuited), unchanged rows stay put.
    import_path(small_release_dir)
    before = dump()
    import_path(small_release_dir)
    assert dump() == before


@pytest.mark.django_db
def test_a_dry_run_writes_nothing(small_release_dir):
    out, _ = run_import(small_release_dir, "--dry-run")
    assert "dry run" in out
    assert Bench.objects.count() == 0
    assert Event.objects.count() == 0


@pytest.mark.django_db
def test_a_disagreement_is_reported_stored_and_not_an_error(release_copy):
    attempt_dir = first_attempt_dir(release_copy)
    summary = json.loads((attempt_dir / "summary.json").read_text())
    published = 0.123 if summary["score"] != 0.123 else 0.5
    edit_json(attempt_dir / "summary.json", lambda s: s.update(score=published))
    out, _ = run_import(release_copy)
    model, task = attempt_dir.parent.name, attempt_dir.name
    assert "score disagreements (1)" in out
    assert f"{model}  {task}  0.123" in out
    row = Disagreement.objects.get(model__slug=model, task__slug=task, source="summary.json")
    assert row.published == published
    assert row.recomputed == Attempt.objects.get(model__slug=model, task__slug=task).score


@pytest.mark.django_db
def test_a_leaderboard_figure_that_disagrees_is_stored_per_model(release_copy):
    def bump(board):
        board["rows"][0]["score"] = 0.999

    edit_json(release_copy / "leaderboard.json", bump)
    import_path(release_copy)
    model = json.loads((release_copy / "leaderboard.json").read_text())["rows"][0]["model"]
    row = Disagreement.objects.get(model__slug=model, task=None, field="score")
    assert row.published == 0.999
    assert Model.objects.get(slug=model).published_score == 0.999


@pytest.mark.django_db
def test_a_further_batch_updates_what_changed(release_copy):
    import_path(release_copy)
    attempt_dir = first_attempt_dir(release_copy)
    untouched = Attempt.objects.exclude(
        model__slug=attempt_dir.parent.name, task__slug=attempt_dir.name
    ).filter(has_detail=True)
    untouched_pks = set(untouched.values_list("pk", flat=True))

    def fail_all(verdict):
        for check in verdict["checks"]:
            check["passed"] = False

    if (attempt_dir / "verdict.json").exists():
        edit_json(attempt_dir / "verdict.json", fail_all)
    edit_json(attempt_dir / "summary.json", lambda s: s.update(score=0.0))
    edit_json(release_copy / "manifest.json", lambda m: m.update(revision="02"))
    out, _ = run_import(release_copy)
    assert "1 changed" in out
    assert Bench.objects.get().revision == "02"
    changed = Attempt.objects.get(model__slug=attempt_dir.parent.name, task__slug=attempt_dir.name)
    assert changed.score == 0.0
    assert (
        set(Attempt.objects.filter(pk__in=untouched_pks).values_list("pk", flat=True))
        == untouched_pks
    )


@pytest.mark.django_db
def test_staged_batches_are_not_live(small_release_dir):
    run_import(small_release_dir, "--staged")
    assert Batch.objects.exists()
    assert not Batch.objects.filter(live=True).exists()
    assert Task.objects.live().count() == 0
    assert Task.objects.released().count() > 0


@pytest.mark.django_db
def test_check_results_link_to_the_vendor_requests_they_name(small_release_dir):
    import_path(small_release_dir)
    named = CheckResult.objects.exclude(requests=[])
    assert named.exists()
    for result in named:
        assert sorted(r.ref for r in result.vendor_requests.all()) == sorted(set(result.requests))
    assert VendorRequest.objects.filter(checks__isnull=False).exists()


@pytest.mark.django_db
def test_events_keep_their_index_and_round_trip(small_release_dir):
    import_path(small_release_dir)
    path = next(small_release_dir.glob("attempts/*/*/trajectory.json"))
    events = json.loads(path.read_text())["events"]
    model, task = path.parent.parent.name, path.parent.name
    stored = Event.objects.filter(attempt__model__slug=model, attempt__task__slug=task)
    assert [e.as_document() for e in stored.order_by("index")] == events


# -- bad input: a clear error, and the database exactly as it was -------------------------


@pytest.mark.django_db
def test_it_reports_every_problem_not_only_the_first(release_copy):
    dirs = sorted((release_copy / "attempts").glob("*/*"))[:2]
    for d in dirs:
        edit_json(d / "summary.json", lambda s: s.update(score="high"))
    said = failing_import(release_copy)
    for d in dirs:
        assert (
            f"{d.relative_to(release_copy).as_posix()}/summary.json: score: expected a number"
            in said
        )
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_a_reserved_bench_id_is_refused(release_copy):
    edit_json(release_copy / "manifest.json", lambda m: m.update(bench="admin"))
    said = failing_import(release_copy)
    assert "manifest.json: bench: 'admin' is reserved" in said


@pytest.mark.django_db
def test_an_archive_entry_escaping_the_root_is_refused(small_release_dir, tmp_path):
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(small_release_dir, arcname="release")
        info = tarfile.TarInfo("release/../../escape.txt")
        info.size = 4
        tar.addfile(info, io.BytesIO(b"evil"))
    said = failing_import(archive)
    assert "escape" in said
    assert Bench.objects.count() == 0
    assert not (tmp_path.parent / "escape.txt").exists()


@pytest.mark.django_db
def test_a_symlink_in_the_release_is_refused(release_copy):
    os.symlink("/etc/passwd", release_copy / "models" / "sneaky.json")
    said = failing_import(release_copy)
    assert "sneaky.json" in said
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_an_oversized_entry_is_refused(release_copy, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "file_max_bytes": 50_000}
    said = failing_import(release_copy)
    assert "trajectory.json" in said or "transcript.jsonl" in said
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_zip_and_tar_archives_import_like_the_folder(small_release_dir, tmp_path):
    import shutil

    zipped = shutil.make_archive(str(tmp_path / "rel"), "zip", small_release_dir.parent, "release")
    run_import(zipped)
    counts = (Attempt.objects.count(), Event.objects.count(), VendorRequest.objects.count())
    Bench.objects.all().delete()
    tarred = shutil.make_archive(
        str(tmp_path / "rel"), "gztar", small_release_dir.parent, "release"
    )
    run_import(tarred)
    assert (Attempt.objects.count(), Event.objects.count(), VendorRequest.objects.count()) == counts
    Bench.objects.all().delete()
    import_path(small_release_dir)
    assert (Attempt.objects.count(), Event.objects.count(), VendorRequest.objects.count()) == counts


@pytest.mark.django_db
def test_bad_events_in_the_last_attempt_roll_back_the_attempts_written_before(release_copy):
    target = sorted(release_copy.glob("attempts/*/*/trajectory.json"))[-1]

    def break_it(trajectory):
        trajectory["events"][2]["index"] = "two"
        trajectory["events"][3]["type"] = "telepathy"

    edit_json(target, break_it)
    said = failing_import(release_copy)
    rel = target.relative_to(release_copy).as_posix()
    assert f"{rel}: events[2].index: expected an integer" in said
    assert f"{rel}: events[3].type: unknown event type 'telepathy'" in said
    assert Bench.objects.count() == 0
    assert Event.objects.count() == 0


@pytest.mark.django_db
def test_the_command_line_is_refused_while_another_import_runs(small_release_dir):
    from ingest.running.locks import import_lock

    with import_lock(holder="alice importing x.tar.gz"):
        said = failing_import(small_release_dir)
    assert "Another import is running (alice importing x.tar.gz" in said
    assert said.count("nothing was written") <= 1
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_large_blobs_go_to_file_storage_and_read_back_byte_for_byte(small_release_dir, settings):
    from trajectories.models import Blob

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 1000}
    import_path(small_release_dir)
    path = next(small_release_dir.glob("attempts/*/*/transcript.jsonl"))
    evidence = Evidence.objects.get(
        attempt__model__slug=path.parent.parent.name, attempt__task__slug=path.parent.name
    )
    blob = Blob.objects.get(pk=evidence.transcript_id)
    assert blob.data is None and blob.storage_name
    assert blob.read() == path.read_bytes()


def _referenced_blobs() -> set[str]:
    return {
        pk
        for row in Evidence.objects.values_list("patch_id", "transcript_id", "problem_id")
        for pk in row
        if pk
    }


@pytest.mark.django_db
def test_a_reimport_removes_the_blobs_no_attempt_refers_to_any_more(
    release_copy, settings, django_capture_on_commit_callbacks
):
    from django.core.files.storage import default_storage

    from trajectories.models import Blob

    # Every blob in file storage, so that the files' removal is seen too.
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 0}
    import_path(release_copy)
    transcript = sorted(release_copy.glob("attempts/*/*/transcript.jsonl"))[0]
    model, task = transcript.parent.parent.name, transcript.parent.name
    old = Blob.objects.get(
        pk=Evidence.objects.get(attempt__model__slug=model, attempt__task__slug=task).transcript_id
    )
    assert default_storage.exists(old.storage_name)
    # The ticket is shared by every model's attempt at the task: it must stay.
    ticket = Evidence.objects.get(attempt__model__slug=model, attempt__task__slug=task).problem_id

    transcript.write_bytes(transcript.read_bytes() + b'{"type": "note", "text": "appended"}\n')
    # The test's own transaction never commits: run what waits for the commit.
    with django_capture_on_commit_callbacks(execute=True):
        out, _ = run_import(release_copy)

    assert "removed 1 patch, transcript or ticket file(s)" in out
    assert not Blob.objects.filter(pk=old.pk).exists()
    assert not default_storage.exists(old.storage_name)
    assert Blob.objects.filter(pk=ticket).exists()
    assert set(Blob.objects.values_list("pk", flat=True)) == _referenced_blobs()


@pytest.mark.django_db(transaction=True)
def test_blob_files_are_removed_only_when_the_import_commits(small_release_dir, settings):
    from django.core.files.storage import default_storage
    from django.db import transaction

    from trajectories.models import Blob
    from trajectories.services import blobs_collect

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 0}
    import_path(small_release_dir)
    files = list(Blob.objects.values_list("storage_name", flat=True))

    class Abandon(Exception):
        pass

    with pytest.raises(Abandon), transaction.atomic():
        Attempt.objects.all().delete()  # every blob is now unreferenced
        assert blobs_collect() == len(files)
        raise Abandon  # as a failing import would

    assert Blob.objects.count() == len(files)
    assert all(default_storage.exists(name) for name in files)

    with transaction.atomic():
        Attempt.objects.all().delete()
        blobs_collect()
    assert Blob.objects.count() == 0
    assert not any(default_storage.exists(name) for name in files)


@pytest.mark.django_db
def test_a_refused_import_says_nothing_was_written_once(release_copy):
    edit_json(release_copy / "matrix.json", lambda m: m.update(cells="not a mapping"))
    said = failing_import(release_copy)
    assert said.count("nothing was written") == 1
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_a_reimport_updates_matrix_figures_and_withdraws_detail_in_place(release_copy):
    import_path(release_copy)
    matrix = json.loads((release_copy / "matrix.json").read_text())
    released = [t["id"] for t in matrix["tasks"] if t["released"]]
    withdrawn, kept = released[-1], released[0]
    unreleased = next(t["id"] for t in matrix["tasks"] if not t["released"])
    tasks = {withdrawn, kept, unreleased}
    model = next(m for m, row in matrix["cells"].items() if tasks <= set(row))
    pks = {
        task: Attempt.objects.get(model__slug=model, task__slug=task).pk
        for task in (kept, unreleased)
    }

    def edit_matrix(doc):
        row = doc["cells"][model]
        row[kept]["flags"] = [*row[kept]["flags"], "timeout"]
        row[unreleased].update(score=0.25, flags=["timeout"])
        next(t for t in doc["tasks"] if t["id"] == withdrawn)["released"] = False

    def withdraw(doc):
        for batch in doc["batches"]:
            batch["tasks"] = [t for t in batch["tasks"] if t != withdrawn]
        doc["counts"]["released_tasks"] -= 1
        doc["counts"]["attempts"] -= len(folders)

    folders = list((release_copy / "attempts").glob(f"*/{withdrawn}"))
    edit_json(release_copy / "matrix.json", edit_matrix)
    edit_json(release_copy / "manifest.json", withdraw)
    for folder in folders:
        shutil.rmtree(folder)
    (release_copy / "tasks" / f"{withdrawn}.json").unlink()
    run_import(release_copy)

    kept_row = Attempt.objects.get(model__slug=model, task__slug=kept)
    assert kept_row.pk == pks[kept] and kept_row.has_detail  # unchanged: not written again
    assert "timeout" in kept_row.matrix_flags
    cell = Attempt.objects.get(model__slug=model, task__slug=unreleased)
    assert cell.pk == pks[unreleased]
    assert (cell.score, cell.flags, cell.matrix_score) == (0.25, ["timeout"], 0.25)
    gone = Attempt.objects.get(model__slug=model, task__slug=withdrawn)
    assert not gone.has_detail and not Evidence.objects.filter(attempt=gone).exists()
