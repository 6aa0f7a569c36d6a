"""A bench a chunked import is writing is seen by nobody, staff included, on
every URL family: while its chunks commit, and after the import was killed.

Its rows are committed (another database connection counts them), so what
hides them is the site's reads, not a transaction: pages and files that name
it answer 404, lists across benches (home, /api/, /data/v1/, the admin) leave
it out. The release's free text carries a marker, so a leaked event, ticket
or title would show.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.test import Client

from ingest.models import ImportRecord
from leaderboard.models import Attempt, Bench, CheckResult, Model
from samplegen.release import generate_release
from tests.factories import edit_json, import_path
from tests.ingest.chunked import Killed, chunked_import, hidden, small_chunks
from tests.project.test_staged_visibility import MARKER, body, mark_release
from trajectories.models import Event, VendorRequest

BENCH = "hidden-bench"
LISTS = [
    "/",
    "/api/benches/",
    "/api/models/",
    "/api/tasks/",
    "/api/attempts/",
    "/api/checks/",
    "/api/events/",
    "/api/requests/",
    "/api/analysis/tool-failures/",
    "/api/analysis/protocol/",
    "/data/v1/",
]
ADMIN_LISTS = [
    f"/admin/{model}/"
    for model in (
        "leaderboard/bench",
        "leaderboard/batch",
        "leaderboard/model",
        "leaderboard/task",
        "leaderboard/attempt",
        "leaderboard/disagreement",
        "trajectories/evidence",
        "trajectories/event",
        "trajectories/vendorrequest",
    )
]


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    root = tmp_path_factory.mktemp("pending-visibility")
    generate_release(root / "other", models=2, tasks=4, released=2, seed=3, bench="other-bench")
    generate_release(root / "hidden", models=3, tasks=6, released=4, seed=5, bench=BENCH)
    mark_release(root / "hidden")
    edit_json(root / "hidden" / "manifest.json", lambda m: m.update(title=f"Bench {MARKER}"))
    return root / "other", root / "hidden"


def rows_seen_by_another_connection() -> int:
    """Attempt rows of pending benches, counted on a connection of its own."""
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT COUNT(*) FROM leaderboard_attempt a JOIN leaderboard_bench b"
                " ON a.bench_id = b.id WHERE b.state = 'pending'"
            )
            return cursor.fetchone()[0]
    finally:
        other.close()


def named_addresses() -> list[str]:
    """Addresses of the pending bench's own rows, by its id and by theirs."""
    pending = Bench.everything.pending().get()
    attempt = Attempt.all_trials.filter(bench=pending, has_detail=True).select_related(
        "model", "task"
    )[0]
    m, t, b = attempt.model.slug, attempt.task.slug, BENCH
    found = [
        f"/{b}/",
        f"/{b}/matrix/",
        f"/{b}/tasks/",
        f"/{b}/about/",
        f"/{b}/revisions/",
        f"/{b}/models/{m}/",
        f"/{b}/tasks/{t}/",
        f"/{b}/attempts/{m}/{t}/",
        f"/{b}/search/?q=a",
        f"/{b}/analysis/",
        f"/{pending.slug}/",
        f"/data/v1/{b}/",
        f"/data/v1/{b}/manifest.json",
        f"/data/v1/{b}/leaderboard.json",
        f"/data/v1/{b}/attempts/{m}/{t}/trajectory.json",
        f"/api/benches/{b}/",
        f"/api/benches/{b}/revisions/",
        f"/api/search/?bench={b}&q=a",
        f"/api/search/?bench={pending.slug}&q=a",
        f"/api/analysis/tool-failures/?bench={b}",
        f"/api/attempts/{attempt.pk}/",
        f"/api/events/{Event.objects.filter(attempt=attempt).first().pk}/",
        f"/api/checks/{CheckResult.objects.filter(attempt__bench=pending).first().pk}/",
        f"/admin/leaderboard/bench/{pending.pk}/change/",
        f"/admin/leaderboard/attempt/{attempt.pk}/change/",
    ]
    request = VendorRequest.objects.filter(attempt__bench=pending).first()
    if request is not None:
        found.append(f"/api/requests/{request.pk}/")
    for field in ("bench", "model"):
        found.append(f"/api/attempts/?{field}={pending.slug if field == 'bench' else m}")
    return found


def lists_seen(clients: dict[str, Client]) -> dict[tuple[str, str], str]:
    """Every list across benches as each client gets it (the admin's: staff only)."""
    seen = {}
    for who, client in clients.items():
        for address in LISTS + (ADMIN_LISTS if who == "staff" else []):
            response = client.get(address)
            assert response.status_code == 200, (who, address)
            seen[(who, address)] = body(response)
    return seen


def assert_nothing_shown(clients: dict[str, Client], before: dict) -> None:
    assert transaction.get_autocommit()  # between chunks: no transaction is open
    assert rows_seen_by_another_connection() > 0
    pending = Bench.everything.pending().get().slug
    for (who, address), text in lists_seen(clients).items():
        if address.startswith("/admin/"):
            # Each admin page has a fresh CSRF token: looked through instead.
            for leak in (MARKER, BENCH, pending):
                assert leak not in text, (who, address, leak)
        else:
            assert text == before[(who, address)], (who, address)
    for address in named_addresses():
        for who, client in clients.items():
            response = client.get(address)
            assert MARKER not in body(response), (who, address)
            if address.startswith("/api/attempts/?"):
                # Only the shown bench's, which may have a model of the same id.
                shown = Attempt.objects.filter(bench__slug="other-bench")
                if "model=" in address:
                    shown = shown.filter(model__slug=address.rsplit("=", 1)[1])
                expected = 0 if "bench=" in address else shown.count()
                assert response.json()["count"] == expected, (who, address)
            elif address.startswith("/admin/"):
                # Anonymous: to the sign-in; staff: to the index, as for a row that is not there.
                assert response.status_code == 302, (who, address)
                assert (response["Location"] == "/admin/") is (who == "staff"), address
            else:
                assert response.status_code in (400, 404), (who, address, response.status_code)


@pytest.mark.django_db(transaction=True)
def test_nobody_sees_a_bench_whose_chunked_import_is_under_way_or_was_killed(releases, settings):
    other, release = releases
    small_chunks(settings)
    import_path(other)
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("s", password="pw", is_staff=True))
    clients = {"anonymous": Client(), "staff": staff}
    before = lists_seen(clients)
    checked = []

    def steps(step):
        if step.name == "chunk" and step.chunks == 3:
            assert hidden() == [("pending", BENCH)]
            assert_nothing_shown(clients, before)
            checked.append(step)
            raise Killed(step)

    with pytest.raises(Killed):
        chunked_import(release, steps=steps)
    assert checked
    assert ImportRecord.objects.count() == 1  # the other bench's
    assert_nothing_shown(clients, before)
    # Once it finishes, it is there for everyone.
    assert chunked_import(release).outcome == "applied"
    assert Model.objects.filter(bench__slug=BENCH).exists()
    for client in clients.values():
        assert client.get(f"/{BENCH}/").status_code == 200
        assert BENCH in body(client.get("/api/benches/"))
