"""The plan's generator of checked attempts: one attempt folder at a time, none kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from formats.reader import open_release
from ingest.reading.plan import check_release
from tests.factories import edit_json, import_path

pytestmark = pytest.mark.django_db


def _folder(name: str) -> str | None:
    """``attempts/<model>/<task>`` of an attempt file, else None."""
    parts = name.split("/")
    return "/".join(parts[:3]) if parts[0] == "attempts" else None


def _attempt_folders(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in (root / "attempts").glob("*/*"))


def _recording_reads(source, events: list[str]):
    """Note "read <folder>" in ``events`` each time ``source`` starts on another attempt folder."""
    read, last = source.read, [None]

    def recorded(name: str) -> bytes:
        folder = _folder(name)
        if folder is not None and folder != last[0]:
            last[0] = folder
            events.append(f"read {folder}")
        return read(name)

    source.read = recorded
    return source


def test_an_attempt_folder_is_read_only_when_its_turn_comes(small_release_dir):
    folders = _attempt_folders(small_release_dir)
    read: list[str] = []
    with open_release(small_release_dir) as source:
        _recording_reads(source, read)
        release = check_release(source)
        assert read == []  # the documents are checked, no attempt folder is read yet
        attempts = release.attempts()
        for number in (1, 2, 3):
            checked = next(attempts)
            assert read == [f"read {f}" for f in folders[:number]]
            assert checked.attempt.folder == folders[number - 1] + "/"
            assert checked.docs.summary["task"] == checked.attempt.task


def test_after_a_problem_nothing_more_is_given_but_every_problem_is_reported(release_copy):
    folders = _attempt_folders(release_copy)
    for folder in (folders[1], folders[3]):
        edit_json(release_copy / folder / "summary.json", lambda d: d.update(score="high"))
    with open_release(release_copy) as source:
        release = check_release(source)
        given = [c.attempt.folder for c in release.attempts()]
    plan = release.plan
    assert given == [folders[0] + "/"]
    assert [(p.file, p.path) for p in plan.problems] == [
        (f"{folders[1]}/summary.json", "score"),
        (f"{folders[3]}/summary.json", "score"),
    ]
    # Every valid folder is still checked and planned.
    assert [a.folder for a in plan.attempts] == [
        f + "/" for f in folders if f not in (folders[1], folders[3])
    ]


def _recording_writes(monkeypatch, events: list[str]) -> None:
    """Note "write <folder>" in ``events`` for each attempt as its batch is written."""
    from ingest.writing import attempt_batch

    write = attempt_batch._write

    def recorded_write(batch, background):
        events.extend(f"write attempts/{p.label}" for p in batch)
        return write(batch, background)

    monkeypatch.setattr(attempt_batch, "_write", recorded_write)


def test_the_import_writes_each_attempt_before_it_reads_the_next_with_a_one_byte_batch(
    small_release_dir, monkeypatch, settings
):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "import_batch_bytes": 1}
    events: list[str] = []
    _recording_writes(monkeypatch, events)
    monkeypatch.setattr(
        "formats.sources.release.adapter.open_release",
        lambda path: _recording_reads(open_release(path), events),
    )
    import_path(small_release_dir)
    folders = _attempt_folders(small_release_dir)
    assert events == [e for f in folders for e in (f"read {f}", f"write {f}")]


def test_the_import_writes_attempts_in_batches_as_soon_as_a_batch_is_full(
    small_release_dir, monkeypatch, settings
):
    folders = _attempt_folders(small_release_dir)
    # About two attempts' worth of rows: written by twos (or threes), never all at the end.
    sizes = sorted(
        sum(f.stat().st_size for f in (small_release_dir / d).iterdir()) for d in folders
    )
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "import_batch_bytes": 2 * sizes[0]}
    events: list[str] = []
    _recording_writes(monkeypatch, events)
    monkeypatch.setattr(
        "formats.sources.release.adapter.open_release",
        lambda path: _recording_reads(open_release(path), events),
    )
    import_path(small_release_dir)
    reads = [e for e in events if e.startswith("read ")]
    writes = [e for e in events if e.startswith("write ")]
    assert reads == [f"read {f}" for f in folders]
    assert writes == [f"write {f}" for f in folders]
    for folder in folders:
        # Each attempt is read before it is written...
        assert events.index(f"read {folder}") < events.index(f"write {folder}")
    # ...and the writing starts long before the last folder is read.
    assert events.index(f"write {folders[0]}") < events.index(f"read {folders[-1]}")
    runs = "".join("r" if e.startswith("read") else "w" for e in events)
    assert "rw" in runs and "rr" in runs  # batches of several attempts, several batches
