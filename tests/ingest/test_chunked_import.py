"""Chunked imports (ingest.writing.chunked): committed a chunk at a time into a
hidden bench, resumed after a kill, swapped in by one small transaction.

A kill is a ``Killed`` raised from the import's ``steps`` callback after a
given committed chunk (or at the swap): nothing of the import runs after it,
as after kill -9; the database keeps exactly what was committed.
"""

from __future__ import annotations

import io
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from ingest.models import ImportRecord
from leaderboard.models import Attempt, Bench, BenchRevision, Model
from samplegen.release import generate_release
from tests.factories import edit_json, import_path
from tests.ingest.chunked import (
    Killed,
    blob_files,
    chunked_import,
    exported,
    hidden,
    kill_at,
    small_chunks,
)
from trajectories.models import Blob, Event, VendorRequest
from trajectories.services import blob_files_sweep

BENCH = "chunky"
SMALL_BLOBS = 1000  # blob_db_max_bytes: every transcript becomes a file


@pytest.fixture(scope="module")
def release_a(tmp_path_factory):
    root = tmp_path_factory.mktemp("chunked-a") / "release"
    generate_release(root, models=3, tasks=6, released=4, seed=11, bench=BENCH)
    return root


@pytest.fixture(scope="module")
def release_b(tmp_path_factory):
    """The same bench's next release: one more model, other scores."""
    root = tmp_path_factory.mktemp("chunked-b") / "release"
    generate_release(root, models=4, tasks=6, released=4, seed=12, bench=BENCH)
    return root


@pytest.fixture(autouse=True)
def _chunks_of_one_attempt(settings):
    small_chunks(settings)
    # The mirror reads the bench again on every request (a swap shows at once).
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 0}


def detail_attempts(state: str) -> int:
    return Attempt.all_trials.filter(bench__state=state, has_detail=True).count()


def figures() -> list[tuple]:
    return list(
        Model.objects.filter(bench__slug=BENCH)
        .order_by("slug")
        .values_list("slug", "rank", "score", "ci_low", "ci_high", "passed", "trials", "flagged")
    )


def board(client) -> bytes:
    response = client.get(f"/data/v1/{BENCH}/leaderboard.json")
    assert response.status_code == 200
    return response.content


@pytest.mark.django_db(transaction=True)
def test_a_killed_chunked_import_resumes_and_ends_as_a_one_shot_import(release_a, tmp_path):
    with pytest.raises(Killed):
        chunked_import(release_a, steps=kill_at("chunk", 3))
    assert hidden() == [("pending", BENCH)]
    assert not Bench.objects.exists()
    assert not ImportRecord.objects.exists()  # killed: nothing recorded
    assert detail_attempts("pending") == 3

    done = chunked_import(release_a)
    assert done.outcome == "applied", done.record.message
    total = done.result.kept + done.result.written_attempts
    assert done.result.kept == 3 and done.result.written_attempts == total - 3 > 0
    assert f"{total - 3} attempt(s) written in " in done.record.message
    assert "3 kept from an interrupted import" in done.record.message
    assert hidden() == []
    resumed = exported(BENCH, tmp_path / "resumed")
    resumed_figures = figures()
    rows = (Event.objects.count(), VendorRequest.objects.count(), Blob.objects.count())
    resumed_board = BenchRevision.objects.get().leaderboard_json

    # The same release in one transaction, into a database without the bench.
    Bench.objects.get(slug=BENCH).delete()
    import_path(release_a)
    assert exported(BENCH, tmp_path / "one-shot") == resumed
    assert figures() == resumed_figures
    assert (Event.objects.count(), VendorRequest.objects.count(), Blob.objects.count()) == rows
    # The board built before the swap is the one the import would freeze, byte for byte.
    assert BenchRevision.objects.get().leaderboard_json == resumed_board


@pytest.mark.django_db(transaction=True)
def test_replacing_a_bench_shows_the_old_one_until_the_swap_commits(client, release_a, release_b):
    import_path(release_a)
    old = board(client)
    (first,) = BenchRevision.objects.values_list("slug", flat=True)
    seen = []

    def steps(step):
        # Until the swap commits: the old bench, whole, and only its record.
        shown = step.name != "swapped"
        assert (board(client) == old) is shown, step
        assert client.get(f"/{BENCH}/").status_code == 200
        assert ImportRecord.objects.count() == (1 if shown else 2)
        assert Bench.everything.count() == 2
        seen.append(step.name)

    done = chunked_import(release_b, steps=steps)
    assert done.outcome == "applied"
    assert seen[-2:] == ["swap", "swapped"] and seen.count("chunk") == done.result.chunks > 3
    new = board(client)
    assert new != old
    # The replaced bench is deleted after the swap; its revision moved, served unchanged.
    assert hidden() == []
    assert BenchRevision.objects.filter(bench__slug=BENCH).count() == 2
    assert client.get(f"/data/v1/{BENCH}/revisions/{first}/leaderboard.json").content == old
    assert client.get(f"/{BENCH}/revisions/{first}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_swap_that_fails_is_undone_with_its_record_and_the_rerun_resumes(
    client, release_a, release_b
):
    import_path(release_a)
    old = board(client)

    def record_fails(record):
        raise RuntimeError("the job's row could not be written")

    done = chunked_import(release_b, on_written=record_fails)
    assert done.outcome == "failed"
    # The swap and the record are one transaction: neither happened.
    assert board(client) == old
    assert hidden() == [("pending", BENCH)]
    assert list(ImportRecord.objects.values_list("outcome", flat=True)) == ["failed", "applied"]

    done = chunked_import(release_b)
    assert done.outcome == "applied"
    assert done.result.written_attempts == 0 and done.result.kept == detail_attempts("shown")
    assert board(client) != old


@pytest.mark.django_db(transaction=True)
def test_cleanup_removes_a_stale_pending_bench_and_its_blobs(
    release_a, release_b, settings, tmp_path
):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": SMALL_BLOBS}
    import_path(release_a)
    before, kept = exported(BENCH, tmp_path / "before"), blob_files()
    events = Event.objects.count()
    with pytest.raises(Killed):
        chunked_import(release_b, steps=kill_at("chunk", 4))
    assert hidden() == [("pending", BENCH)]
    written = blob_files()
    assert written > kept
    # While it is pending its files are its rows': the sweep of stray files keeps them.
    assert blob_files_sweep() == 0 and blob_files() == written

    out = io.StringIO()
    call_command("import_cleanup", "--dry-run", stdout=out)
    assert f"pending {BENCH}" in out.getvalue() and hidden() != []
    call_command("import_cleanup", stdout=out)
    assert "1 hidden bench(es) deleted" in out.getvalue()
    assert hidden() == []
    assert blob_files() == kept
    assert set(Blob.objects.exclude(storage_name="").values_list("storage_name", flat=True)) == kept
    assert Event.objects.count() == events
    assert exported(BENCH, tmp_path / "after") == before


@pytest.mark.django_db(transaction=True)
def test_a_bench_replaced_but_not_yet_deleted_goes_at_the_next_import(release_a, release_b):
    import_path(release_a)
    with pytest.raises(Killed):
        chunked_import(release_b, steps=kill_at("swapped"))
    assert hidden() == [("retired", BENCH)]
    assert Bench.objects.get(slug=BENCH).models.count() == 4  # release_b is the bench
    done = import_path(release_b)  # a one-transaction import, which changes nothing
    assert done.plan.is_noop
    assert hidden() == []


@pytest.mark.django_db(transaction=True)
def test_a_late_refusal_keeps_what_was_written_hidden_and_the_fixed_rerun_resumes(
    release_a, tmp_path
):
    copy = tmp_path / "release"
    shutil.copytree(release_a, copy)
    broken = sorted((copy / "attempts").glob("*/*"))[-1] / "trajectory.json"
    good = broken.read_bytes()
    edit_json(broken, lambda t: t["events"][0].update(index="zero"))
    err = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_release", str(copy), "--chunked", stdout=io.StringIO(), stderr=err)
    message = str(refused.value)
    assert "nothing was made visible" in message and "kept hidden" in message
    assert "nothing was written" not in message
    assert "trajectory.json" in err.getvalue()
    assert not Bench.objects.exists() and hidden() == [("pending", BENCH)]
    written = detail_attempts("pending")
    assert written > 0

    broken.write_bytes(good)
    out = io.StringIO()
    call_command("import_release", str(copy), "--chunked", stdout=out, stderr=io.StringIO())
    record = ImportRecord.objects.filter(outcome="applied").get()
    assert f"{written} kept from an interrupted import" in record.message
    assert f"{written} kept from an interrupted import)" in out.getvalue()
    assert hidden() == [] and Bench.objects.get(slug=BENCH)


@pytest.mark.django_db(transaction=True)
def test_the_swap_takes_the_same_queries_whatever_the_release_size(tmp_path):
    sizes = {"swap-small": (2, 3, 2), "swap-large": (5, 12, 9)}
    swaps, written = {}, {}
    for bench, (models, tasks, released) in sizes.items():
        old, new = tmp_path / f"{bench}-old", tmp_path / f"{bench}-new"
        size = {"models": models, "tasks": tasks, "released": released, "bench": bench}
        generate_release(old, seed=1, **size)
        generate_release(new, seed=2, **size)
        import_path(old)  # the bench the swap replaces
        statements, marks = [], {}

        def record(execute, sql, params, many, context, statements=statements):
            statements.append(sql)
            return execute(sql, params, many, context)

        def steps(step, statements=statements, marks=marks):
            marks[step.name] = len(statements)

        with connection.execute_wrapper(record):
            done = chunked_import(new, steps=steps)
        assert done.outcome == "applied"
        written[bench] = done.result.written_attempts
        swaps[bench] = statements[marks["swap"] : marks["swapped"]]
    assert written["swap-large"] > 5 * written["swap-small"]
    # Lock and retire the old bench, carry its batches' states and revisions over,
    # show the new one, its revision, the generation and the import record.
    kinds = {bench: [s.split()[0] for s in swap] for bench, swap in swaps.items()}
    assert kinds["swap-small"] == kinds["swap-large"]
    assert 8 <= len(kinds["swap-small"]) <= 30
    # Nor does it read what grows with the release (the board was built before).
    for table in ("leaderboard_attempt", "trajectories_event", "leaderboard_checkresult"):
        assert not [s for s in swaps["swap-large"] if table in s], table
