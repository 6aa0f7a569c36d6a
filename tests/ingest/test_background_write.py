"""Events written on a second thread (ingest.writing.background_write): inside the
import's transaction, waited for before any other query, and rolled back with
the import when they fail."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from formats.reader import open_release
from ingest.writing import attempt_batch, bulk
from ingest.writing.attempt_batch import AttemptBatch
from ingest.writing.attempt_rows import EVENT_COLUMNS, PendingAttempt
from ingest.writing.background_write import background_writes
from ingest.writing.services import write_release
from leaderboard.models import Attempt
from tests.factories import dump, import_path
from tests.search.helpers import add_events, attempt_folders, message
from trajectories.models import Event
from trajectories.search.backends import text_condition

WORD = "zebraquartz"


def _planted(release_copy) -> None:
    model, task = attempt_folders(release_copy)[0]
    add_events(release_copy, model, task, [message(f"a {WORD} in the trajectory")])


def _holding_word() -> int:
    return Event.objects.filter(text_condition([WORD])).count()


def _event_row(attempt: Attempt, index: int) -> tuple:
    values = {"attempt": attempt.pk, "index": index, "type": "message", "text": WORD, "doc": "{}"}
    defaults = {"ts": "", "tool": ""}
    return tuple(values.get(c, defaults.get(c)) for c in EVENT_COLUMNS)


@pytest.mark.django_db
def test_events_written_on_the_thread_are_in_the_import_and_its_search_index(release_copy):
    _planted(release_copy)
    import_path(release_copy)
    assert _holding_word() == 1


@pytest.mark.django_db
def test_a_write_that_fails_on_its_thread_leaves_the_database_as_it_was(
    release_copy, small_release_dir, monkeypatch
):
    import_path(small_release_dir)
    before, events_before = dump(), Event.objects.count()
    _planted(release_copy)
    real = bulk.DRIVER_INSERTERS[connection.vendor]
    failed_on: list[str] = []

    def write_then_fail(raw, table, columns, rows, types):
        real(raw, table, columns, rows, types)  # the rows are in; the failure must take them out
        failed_on.append(threading.current_thread().name)
        raise RuntimeError("the disk is full")

    monkeypatch.setitem(bulk.DRIVER_INSERTERS, connection.vendor, write_then_fail)
    with open_release(release_copy) as source, pytest.raises(RuntimeError, match="disk is full"):
        write_release(source=source)
    assert failed_on and threading.current_thread().name not in failed_on
    assert dump() == before
    assert Event.objects.count() == events_before
    assert _holding_word() == 0


@pytest.mark.django_db
def test_a_query_on_the_main_thread_waits_for_the_write_in_flight(bench):
    attempt = Attempt.objects.filter(bench=bench, has_detail=True).first()
    index = Event.objects.filter(attempt=attempt).count() + 10
    write = bulk.driver_insert(Event, EVENT_COLUMNS, lambda: [_event_row(attempt, index)])

    def slow(raw):
        time.sleep(0.3)  # long enough for an unguarded query to run first
        write(raw)

    with background_writes() as writes:
        writes.submit(slow)
        assert Event.objects.filter(attempt=attempt, index=index).exists()


@pytest.mark.django_db
def test_the_error_of_a_write_comes_out_at_the_next_query(bench):
    def broken(raw):
        raise ValueError("bad row")

    with pytest.raises(ValueError, match="bad row"), background_writes() as writes:
        writes.submit(broken)
        Attempt.objects.count()
        pytest.fail("the query ran past a failed write")


@pytest.mark.django_db
def test_leaving_the_block_on_an_error_waits_for_the_write_and_keeps_that_error(bench):
    finished = threading.Event()

    def slow_and_broken(raw):
        time.sleep(0.2)
        finished.set()
        raise ValueError("the write's own error")

    with pytest.raises(KeyError), background_writes() as writes:
        writes.submit(slow_and_broken)
        raise KeyError("the block's error")
    # Over before the transaction could be rolled back under it.
    assert finished.is_set()


def _pending(label: str, size: int) -> PendingAttempt:
    return PendingAttempt(
        label=label,
        attempt=Attempt(),
        results=[],
        evidence={},
        transcript_check=None,
        events=[],
        sources=[],
        vendors={},
        size=size,
    )


@pytest.mark.django_db
def test_a_batch_grows_while_the_write_before_it_runs_up_to_its_growth_limit(monkeypatch, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "import_batch_bytes": 10}
    monkeypatch.setattr(attempt_batch, "GROWTH", 1.5)
    written: list[str] = []
    monkeypatch.setattr(
        attempt_batch,
        "_write",
        lambda batch, background: written.append("".join(p.label for p in batch)),
    )
    let_go = threading.Event()
    with background_writes() as writes:
        writes.submit(lambda raw: let_go.wait(10))
        batch = AttemptBatch(writes)
        for label in "abc":
            batch.add(_pending(label, 4))
        # Full at "c" (12 of 10), but the write before it still runs: nothing waits yet.
        assert written == []
        batch.add(_pending("d", 4))  # 16, past one and a half times: written, whatever runs
        assert written == ["abcd"]
        let_go.set()
        writes.wait()
        batch.add(_pending("e", 4))
        batch.add(_pending("f", 4))
        assert written == ["abcd"]
        batch.add(_pending("g", 4))  # full, and nothing runs: written at once
        assert written == ["abcd", "efg"]
