"""SQLite's background event writes: many rows per INSERT, few distinct statements."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.writing.bulk import _driver_values


@pytest.mark.parametrize("count", [0, 1, 63, 64, 65, 1000])
def test_every_row_is_written_in_order_by_statements_of_a_few_sizes(count, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "bulk_values_rows": 100}
    raw = sqlite3.connect(":memory:")
    raw.execute("CREATE TABLE t (n INTEGER, word TEXT, flag INTEGER)")
    statements: list[str] = []
    raw.set_trace_callback(statements.append)
    rows = [(n, f"w{n}", n % 2 == 0) for n in range(count)]
    _driver_values(raw, "t", ["n", "word", "flag"], iter(rows), None)
    raw.set_trace_callback(None)
    assert raw.execute("SELECT n, word, flag FROM t ORDER BY rowid").fetchall() == [
        (n, w, int(f)) for n, w, f in rows
    ]
    inserts = [s.split(" VALUES ", 1)[1] for s in statements if s.startswith("INSERT")]
    sizes = {values.count("(") for values in inserts}
    # 100 rounds down to 64; the rest goes in powers of two.
    assert sizes <= {64, 32, 16, 8, 4, 2, 1}
    assert len(inserts) <= count // 64 + 6
