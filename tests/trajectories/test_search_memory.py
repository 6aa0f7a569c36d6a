"""The attempt page's search cuts a huge event's snippet from pieces: memory stays low.

The match is found by the search index (which holds the first
``search_index_chars`` of each field); its snippet is then cut from the
event's text read in pieces up to the hit, never the whole 40 MB.

Measured in a child process, because on SQLite the database works inside the
process that asks (its memory is in the process's peak RSS, not in
tracemalloc); the child's first run writes the large event, the second only
searches, so its peak is the search's alone.
"""

from __future__ import annotations

import json

import pytest

from tests import children

SIZE = 40 * 1024 * 1024  # characters of the large event's text
NEEDLE = "needle-in-the-haystack"

SETUP = """
    import io, sys
    from django.core.management import call_command
    from leaderboard.models import Attempt
    from trajectories.models import Event
    if not Attempt.objects.filter(has_detail=True).exists():
        call_command("import_release", sys.argv[1], stdout=io.StringIO(), stderr=io.StringIO())
    event = Event.objects.order_by("pk").first()
    lorem = "Lorem ipsum dolor sit amet. "
    # The needle within the indexed part, past the first pieces; megabytes after it.
    text = lorem * (40_000 // 28) + sys.argv[3].upper() + " " + lorem * (int(sys.argv[2]) // 28)
    Event.objects.filter(pk=event.pk).update(text=text)
    print(event.attempt_id, event.index)
"""

MEASURE = """
    import json, resource, sys, tracemalloc
    from leaderboard.models import Attempt
    from trajectories.search.in_attempt import attempt_matches
    attempt = Attempt.objects.get(pk=int(sys.argv[1]))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    tracemalloc.start()
    found = attempt_matches(attempt, sys.argv[2])
    traced = tracemalloc.get_traced_memory()[1]
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    rows = [{"index": m.index, "snippet": m.snippet.plain, "cut_before": m.snippet.cut_before}
            for m in found.matches]
    print(json.dumps({"rows": rows, "rss": after - before, "traced": traced}))
"""


@pytest.mark.django_db(transaction=True)
def test_searching_a_huge_event_keeps_memory_far_under_its_size(
    child_database_url, small_release_dir
):
    env = {"DATABASE_URL": child_database_url, "BENCHVIEW_SEARCH_CHUNK_CHARS": str(16 * 1024)}
    setup = children.start(SETUP, env=env, args=[str(small_release_dir), str(SIZE), NEEDLE])
    out, err = setup.communicate(timeout=600)
    assert setup.returncode == 0, err
    attempt_pk, index = (int(v) for v in out.split())

    measure = children.start(MEASURE, env=env, args=[str(attempt_pk), NEEDLE])
    out, err = measure.communicate(timeout=600)
    assert measure.returncode == 0, err
    found = json.loads(out)
    (row,) = [r for r in found["rows"] if r["index"] == index]
    assert NEEDLE.upper() in row["snippet"] and row["cut_before"]
    assert found["traced"] < SIZE // 8
    assert found["rss"] < SIZE // 4, f"peak RSS grew by {found['rss'] / 2**20:.0f} MiB"
