"""The sample generator and the normalisers check each other.

Each generated ``transcript.jsonl`` normalises to exactly the events of the
``trajectory.json`` beside it: the generator writes the harness's own format,
the normaliser reads it back.
"""

from __future__ import annotations

import json
from collections import Counter

from formats.normalise import normalise
from tests.formats.normalise.helpers import check_contract

FORMATS = {"claude-code": "claude-stream-json", "codex": "codex-exec", "opencode": "opencode-run"}


def test_every_generated_transcript_normalises_to_its_trajectory(small_release_dir):
    seen: Counter[str] = Counter()
    for folder in sorted(p for p in small_release_dir.glob("attempts/*/*") if p.is_dir()):
        doc = json.loads((folder / "trajectory.json").read_text(encoding="utf-8"))
        data = (folder / "transcript.jsonl").read_bytes()
        result = normalise(data)
        assert result.format == FORMATS[doc["harness"]], folder
        assert result.events == doc["events"], folder
        check_contract(result, data)
        seen[doc["harness"]] += 1
    assert set(seen) == set(FORMATS)  # every harness took part


def test_generated_transcripts_leave_only_bookkeeping_lines_unmapped(small_release_dir):
    reasons: Counter[str] = Counter()
    for path in small_release_dir.glob("attempts/*/*/transcript.jsonl"):
        reasons.update(u.reason for u in normalise(path.read_bytes()).unmapped)
    assert set(reasons) <= {
        "run summary (totals in meta)",
        "thread start (id in meta; the stream names no model)",
        "turn start",
        "turn end (usage in meta)",
        "step start",
    }
