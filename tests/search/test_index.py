"""The search index moves with the import: all of it or none, and no stale rows."""

from __future__ import annotations

import json
import shutil

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from formats.reader import open_release
from ingest.writing.services import write_release
from tests.factories import import_path
from trajectories.models import Event
from trajectories.search.engine import search
from trajectories.search.query import parse


def count(bench, q) -> int:
    return search(bench=bench, user=AnonymousUser(), query=parse(q)).total.value


def index_rows() -> int:
    """Rows in the index: FTS5 rows on SQLite, events with a vector on PostgreSQL."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT count(*) FROM trajectories_event_fts")
        else:
            cursor.execute(
                "SELECT count(*) FROM trajectories_event WHERE search_vector IS NOT NULL"
            )
        return cursor.fetchone()[0]


def rename_word(root, pair, old: str, new: str) -> None:
    path = root / "attempts" / pair[0] / pair[1] / "trajectory.json"
    doc = json.loads(path.read_text())
    for event in doc["events"]:
        if "text" in event:
            event["text"] = event["text"].replace(old, new).replace(old.title(), new.title())
    path.write_text(json.dumps(doc, indent=2))


@pytest.fixture
def edited(planted_dir, tmp_path):
    """The planted release with the first attempt's "quokka" renamed "wombat"."""
    root, (first, _) = planted_dir
    target = tmp_path / "release"
    shutil.copytree(root, target)
    rename_word(target, first, "quokka", "wombat")
    return target


@pytest.mark.django_db
def test_a_reimport_leaves_no_stale_index_rows(planted, edited):
    bench, first, second = planted
    assert (count(bench, "quokka"), count(bench, "wombat")) == (2, 0)
    import_path(edited)
    assert (count(bench, "quokka"), count(bench, "wombat")) == (1, 1)
    assert index_rows() == Event.objects.count()


@pytest.mark.django_db
def test_a_rolled_back_import_leaves_the_index_as_it_was(planted, edited, monkeypatch):
    bench, _, _ = planted
    before = index_rows()

    def fail(**kwargs):
        raise RuntimeError("the import fails after writing events")

    # The last step of the import: every changed attempt's events are written by then.
    monkeypatch.setattr("ingest.writing.services.bench_recompute", fail)
    with open_release(edited) as source, pytest.raises(RuntimeError):
        write_release(source=source)
    assert (count(bench, "quokka"), count(bench, "wombat")) == (2, 0)
    assert index_rows() == before == Event.objects.count()


@pytest.mark.django_db
def test_deleting_an_attempt_takes_its_events_out_of_the_index(planted):
    bench, first, _ = planted
    from leaderboard.models import Attempt

    Attempt.objects.get(model__slug=first[0], task__slug=first[1]).delete()
    assert count(bench, "quokka") == 1
    assert index_rows() == Event.objects.count()


PUNCTUATION = [chr(c) for c in [*range(0x21, 0x30), *range(0x3A, 0x41), *range(0x5B, 0x61)]]
PUNCTUATION += [chr(c) for c in range(0x7B, 0x7F)]


@pytest.mark.django_db
def test_every_ascii_punctuation_splits_words_as_a_space_does(planted):
    """PostgreSQL's parser reads ``1.2``, ``a/b``, ``-3``, ``<b>`` and ``&amp;``
    as tokens of their own; the index must not, on either database, so that a
    word next to any punctuation is found, and a phrase across it."""
    bench, _, _ = planted
    event = Event.objects.order_by("pk").first()
    pieces = []
    for i, first in enumerate(PUNCTUATION):
        second = PUNCTUATION[(i * 7 + 3) % len(PUNCTUATION)]
        pieces.append(f"kw{i}a{first}{i}kw{second}{first}kw{i}c")
    Event.objects.filter(pk=event.pk).update(text=" ".join(pieces), output="", doc={})
    for i in range(len(PUNCTUATION)):
        assert count(bench, f'"kw{i}a {i}kw kw{i}c"') == 1, PUNCTUATION[i]
    assert count(bench, '"amp lt b"') == 0
    Event.objects.filter(pk=event.pk).update(text="x &amp; y &lt;b&gt; 1.5 -3 /usr/bin ~home a+b")
    for phrase in ("x amp y lt b gt 1 5 3 usr bin home a b", "gt 1 5 3 usr", "bin home a b"):
        assert count(bench, f'"{phrase}"') == 1, phrase
