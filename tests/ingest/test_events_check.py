"""Event checks in a helper process, and the fallback when the helper dies."""

import json
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from ingest.events_check import EventChecks

BAD = json.dumps(
    {"schema": "v1", "harness": "x", "model": "m", "events": [{"index": 0, "type": "nope"}]}
).encode()


class DeadPool:
    def submit(self, *args):
        future = Future()
        future.set_exception(BrokenProcessPool("helper died"))
        return future

    def shutdown(self, **kwargs):
        pass


def test_a_dead_helper_means_the_file_is_checked_here():
    checks = EventChecks(parallel=False, reread={"t.json": BAD}.__getitem__)
    checks.pool = DeadPool()
    assert checks.check("t.json", BAD, json.loads(BAD)["events"]) == []
    found = checks.results()
    assert found == [("t.json", "events[0].type", found[0][2])]
    assert "unknown event type 'nope'" in found[0][2]


def test_the_helper_process_finds_the_same_problems():
    checks = EventChecks(parallel=True, reread={"t.json": BAD}.__getitem__)
    try:
        checks.check("t.json", BAD, json.loads(BAD)["events"])
        found = checks.results()
    finally:
        checks.close()
    assert [(f, p) for f, p, _ in found] == [("t.json", "events[0].type")]
