"""Blobs written in bulk come back byte for byte, on either database and either path.

On PostgreSQL a table without JSON columns (blobs) is copied in binary; the
text form escaped every byte for the server to decode again.
"""

from __future__ import annotations

import hashlib

import pytest

from ingest.writing.attempt_batch import BLOB_COLUMNS
from ingest.writing.attempt_rows import EVENT_COLUMNS
from ingest.writing.background_write import background_writes
from ingest.writing.bulk import binary_copy_types, bulk_insert, driver_insert
from trajectories.models import Blob, Event

# Every byte value, and the ones a text COPY or an SQL literal must escape.
AWKWARD = [bytes(range(256)), b"\\x00\\\\N\t\r\n", b"\x00" * 3, b"", "é\u2028😀".encode()]


def _rows(tag: str) -> list[tuple]:
    rows = []
    for n, body in enumerate(AWKWARD):
        data = tag.encode() + bytes([n]) + body
        rows.append((hashlib.sha256(data).hexdigest(), len(data), data, ""))
    return rows


def _stored(rows: list[tuple]) -> dict[str, tuple]:
    found = Blob.objects.filter(pk__in=[r[0] for r in rows]).values_list(*BLOB_COLUMNS)
    return {r[0]: (r[0], r[1], bytes(r[2]), r[3]) for r in found}


@pytest.mark.django_db(transaction=True)
def test_blobs_come_back_byte_for_byte_from_both_write_paths():
    on_main, on_thread = _rows("main"), _rows("thread")
    bulk_insert(Blob, BLOB_COLUMNS, on_main)
    with background_writes() as writes:
        writes.submit(driver_insert(Blob, BLOB_COLUMNS, lambda: on_thread))
    for rows in (on_main, on_thread):
        assert _stored(rows) == {r[0]: r for r in rows}


def test_only_tables_without_json_columns_are_copied_in_binary():
    assert binary_copy_types(Blob, BLOB_COLUMNS) == ["text", "int8", "bytea", "text"]
    assert binary_copy_types(Event, EVENT_COLUMNS) is None
