"""The read-replica router (core/replica.py), in processes of their own: the replica
alias exists only when DATABASE_REPLICA_URL is set as the settings load.

The "replica" is a copy of the primary's SQLite file taken before the primary got
one more bench, so which database answered shows in the answer. (The multi-host
test runs a real PostgreSQL streaming replica.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SETUP = """
import django; django.setup()
from django.contrib.auth import get_user_model
from leaderboard.models import Bench
import sys
Bench.objects.create(slug=sys.argv[1], title=sys.argv[1], revision="1", scoring_rule="x",
                     generated_at="2026-01-01T00:00:00Z")
if not get_user_model().objects.filter(username="staff").exists():
    get_user_model().objects.create_user("staff", password="pw", is_staff=True)
"""

RETITLE = """
import django, sys; django.setup()
from leaderboard.models import Bench
Bench.objects.filter(slug=sys.argv[1]).update(title=sys.argv[2])
"""

MIRROR = """
import django, json; django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
anonymous, staff = Client(), Client()
staff.force_login(get_user_model().objects.get(username="staff"))
titles = []
for client in (staff, anonymous, staff, anonymous):
    answer = client.get("/data/v1/on-both/manifest.json")
    titles.append([answer.status_code, json.loads(answer.content)["title"]])
print(json.dumps(titles))
"""

READ = """
import django, json; django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
def benches(client, method="get"):
    answer = getattr(client, method)("/api/benches/")
    return answer.status_code, sorted(b["id"] for b in answer.json()["results"])
anonymous = Client()
staff = Client()
staff.force_login(get_user_model().objects.get(username="staff"))
print(json.dumps({
    "anonymous": benches(anonymous),
    "anonymous_again": benches(anonymous),
    "staff": benches(staff),
    "head": Client().head("/api/benches/").status_code,
}))
"""


def _run(script: str, env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def databases(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("replica")
    primary, replica = folder / "primary.sqlite3", folder / "replica.sqlite3"
    env = _env(primary)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    _run(SETUP, env, "on-both")
    # The replica has replayed up to here; the primary then gets one more bench.
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{primary}{suffix}").exists():
            shutil.copy(f"{primary}{suffix}", f"{replica}{suffix}")
    _run(SETUP, env, "on-primary-only")
    _run(RETITLE, env, "on-both", "retitled on the primary")
    return primary, replica


def _env(primary: Path, replica_url: str = "") -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "BENCHVIEW"))}
    env |= {"DATABASE_URL": f"sqlite:///{primary}", "BENCHVIEW_DATA_DIR": str(primary.parent)}
    if replica_url:
        env["DATABASE_REPLICA_URL"] = replica_url
    return env


def test_anonymous_reads_come_from_the_replica_and_signed_in_ones_from_the_primary(databases):
    primary, replica = databases
    seen = json.loads(_run(READ, _env(primary, f"sqlite:///{replica}")))
    assert seen["anonymous"] == [200, ["on-both"]]
    assert seen["anonymous_again"] == [200, ["on-both"]]
    assert seen["staff"] == [200, ["on-both", "on-primary-only"]]
    assert seen["head"] == 200


def test_one_worker_builds_mirror_documents_from_the_database_each_reader_reads(databases):
    primary, replica = databases
    # In one process, one after the other: no document the primary's state names is
    # built from the replica's rows, nor the other way round.
    seen = json.loads(_run(MIRROR, _env(primary, f"sqlite:///{replica}")))
    assert seen == [
        [200, "retitled on the primary"],
        [200, "on-both"],
        [200, "retitled on the primary"],
        [200, "on-both"],
    ]


def test_without_a_replica_everyone_reads_the_primary(databases):
    primary, _ = databases
    seen = json.loads(_run(READ, _env(primary)))
    assert seen["anonymous"] == seen["staff"] == [200, ["on-both", "on-primary-only"]]


def test_a_replica_of_another_kind_of_database_is_refused(databases):
    primary, _ = databases
    env = _env(primary, "postgres://nobody@127.0.0.1:9/benchview")
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode != 0 and "same kind of database" in done.stderr


def test_a_replica_that_does_not_answer_is_passed_over_for_the_primary(databases):
    primary, _ = databases
    unreadable = primary.parent / "no-such-folder" / "replica.sqlite3"
    seen = json.loads(_run(READ, _env(primary, f"sqlite:///{unreadable}")))
    assert seen["anonymous"] == [200, ["on-both", "on-primary-only"]]
    assert seen["staff"] == [200, ["on-both", "on-primary-only"]]
