"""The mirror after a re-import that changed the release (fresh imports of an edited
copy, so not in test_mirror's shared import)."""

from __future__ import annotations

import json

import pytest

from tests.factories import edit_json, import_path

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("mirror_cold")]
BENCH = "integration-bench"


def _url(name: str) -> str:
    return f"/data/v1/{BENCH}/{name}"


def test_a_reimport_that_changes_the_release_changes_what_is_served(client, release_copy):
    import_path(release_copy)
    before = client.get(_url("leaderboard.json"))
    edit_json(release_copy / "manifest.json", lambda d: d.update(title="Renamed Bench"))
    for name in ("manifest.json", "leaderboard.json", "matrix.json"):
        edit_json(release_copy / name, lambda d: d.update(revision="02"))
    import_path(release_copy)
    after = client.get(_url("leaderboard.json"))
    assert after["ETag"] != before["ETag"]
    assert json.loads(after.content)["revision"] == "02"
    assert json.loads(client.get(_url("manifest.json")).content)["title"] == "Renamed Bench"


def test_a_bench_imported_anew_within_the_state_ttl_is_served_not_a_500(
    client, release_copy, settings
):
    # The state (the bench's row id) is trusted for a while; a bench deleted and
    # imported again in that while is a new row, and its documents are served.
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 600}
    old = import_path(release_copy).bench
    assert client.get(_url("leaderboard.json")).status_code == 200
    old.delete()
    edit_json(release_copy / "manifest.json", lambda d: d.update(title="Imported Anew"))
    new = import_path(release_copy).bench
    assert new.pk != old.pk
    task = new.tasks.filter(batch__live=True).first()
    assert client.get(_url(f"tasks/{task.slug}.json")).status_code == 200
    manifest = client.get(_url("manifest.json"))
    assert manifest.status_code == 200
    assert json.loads(manifest.content)["title"] == "Imported Anew"
