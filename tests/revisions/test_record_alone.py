"""Revisions recorded on a fresh database: re-imports, refused and failed imports,
addresses, deletion, staged imports and publishing."""

from __future__ import annotations

import datetime as dt
import json
from unittest import mock

import pytest

from formats.reader import open_release
from ingest.writing.services import ImportRefused, write_release
from leaderboard.models import Bench, BenchRevision
from leaderboard.revisions import revision_slug
from leaderboard.services import batch_publish
from tests.factories import edit_json, import_path
from tests.revisions.releases import release_a, release_b

pytestmark = pytest.mark.django_db


def test_reimporting_the_same_release_records_no_revision(tmp_path):
    release = release_a(tmp_path / "a")
    import_path(release)
    import_path(release)
    assert BenchRevision.objects.count() == 1


def test_a_refused_import_records_none(tmp_path):
    import_path(release_a(tmp_path / "a"))
    b = release_b(tmp_path / "b")
    edit_json(b / "leaderboard.json", lambda d: d.update(schema="v9"))
    with open_release(b) as source, pytest.raises(ImportRefused):
        write_release(source=source)
    assert list(BenchRevision.objects.values_list("slug", flat=True)) == ["01"]


def test_the_revision_is_written_in_the_imports_transaction(tmp_path):
    """A failure after the revision is recorded takes it back with the import."""
    import_path(release_a(tmp_path / "a"))
    with (
        mock.patch(
            "ingest.writing.services.blobs_collect", side_effect=RuntimeError("late failure")
        ),
        open_release(release_b(tmp_path / "b")) as source,
        pytest.raises(RuntimeError),
    ):
        write_release(source=source)
    assert list(BenchRevision.objects.values_list("slug", flat=True)) == ["01"]


def test_a_second_change_under_the_same_string_gets_a_suffix(tmp_path):
    import_path(release_a(tmp_path / "a"))
    b = release_b(tmp_path / "b", revision="01")
    import_path(b)
    edit_json(b / "matrix.json", lambda d: d["tasks"][0].update(title="Retitled"))
    import_path(b)
    assert list(BenchRevision.objects.order_by("number").values_list("slug", flat=True)) == [
        "01",
        "01-2",
        "01-3",
    ]


def test_an_address_is_slugged_suffixed_and_falls_back_to_the_utc_date():
    when = dt.datetime(2026, 12, 5, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-2)))
    assert revision_slug(set(), "Rev 07 (final)", when) == "rev-07-final"
    assert revision_slug({"07", "07-2"}, "07", when) == "07-3"
    # 23:30 at UTC-2 is the next day in UTC.
    assert revision_slug(set(), "", when) == "2026-12-06"
    assert revision_slug({"2026-12-06"}, "", when) == "2026-12-06-2"


def test_deleting_a_bench_deletes_its_revisions(tmp_path):
    import_path(release_a(tmp_path / "a"))
    Bench.objects.all().delete()
    assert not BenchRevision.objects.exists()


def test_a_staged_import_puts_nothing_of_the_staged_detail_in_a_revision(tmp_path):
    """The staged batch's ticket, vendors and checks are staff-only: not in the revision."""
    release = release_b(tmp_path / "b")
    marker = "STAGED-MARKER-37"
    for path in sorted((release / "tasks").glob("*.json")):

        def plant(d):
            d["ticket"] = f"{marker} {d['ticket']}" if isinstance(d["ticket"], str) else marker
            d["task"]["vendors"] = [marker]

        edit_json(path, plant)
    import_path(release, staged=True)
    revision = BenchRevision.objects.get()
    assert marker not in revision.leaderboard_json + revision.matrix_json
    assert marker not in json.dumps(revision.changes) + json.dumps(revision.figures)


def test_publishing_a_staged_batch_leaves_the_public_board_and_its_revisions_be(tmp_path):
    import_path(release_a(tmp_path / "a"), staged=True)
    bench = Bench.objects.get()
    for batch in bench.batches.all():
        batch_publish(batch=batch, live=True, by="staff")
    assert BenchRevision.objects.count() == 1


def test_a_revision_names_who_imported_it(tmp_path):
    from ingest.running.imports import run_import
    from tests.factories import make_user

    run_import(path=release_a(tmp_path / "a"), via="command", holder="test")
    run_import(path=release_b(tmp_path / "b"), via="admin", holder="test", user=make_user("ada"))
    assert list(BenchRevision.objects.order_by("number").values_list("recorded_by", flat=True)) == [
        "(command)",
        "ada",
    ]
