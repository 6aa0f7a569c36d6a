"""The site on several hosts, as docs/deploy.md sets it up: two web hosts (gunicorn)
behind HAProxy, an import worker on a third host, a PostgreSQL primary and its
streaming replica, and Ceph's RADOS Gateway holding blobs, uploads and the import
folder. Each host is a network namespace with its own disk and host name
(tests/multihost/machines.py).

Needs root (namespaces), which CI has; skips saying why elsewhere. It touches no
test database, so it runs once per CI run: in the SQLite pass. Its figures
(requests sent and lost, replication lag, bytes in the bucket and on disk, its
own runtime) are printed and written to test-results/multihost.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg
import pytest

from samplegen.release import generate_release
from tests.factories import SMALL, tar_gz
from tests.multihost.http import Client
from tests.multihost.machines import Machines, namespaces_unavailable, wait_for
from tests.multihost.services import PACKAGES, Gateway, Postgres, haproxy_config, missing_programs

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").is_dir() else sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))
HOSTS = {"lb": 2, "db1": 10, "db2": 11, "s3": 20, "web1": 31, "web2": 32, "work": 40}
CLIENTS = {name: f"10.236.36.{n}" for name, n in {"a": 101, "b": 102, "c": 103, "d": 104}.items()}
CLIENTS |= {"e": "10.236.36.105", "load": "10.236.36.106", "staff": "10.236.36.107"}
BUCKET = "benchview"
API_RATE = 20
LOGIN_LIMIT = 3
FIGURES: dict[str, object] = {}


def _skip_reason() -> str | None:
    if (os.environ.get("DATABASE_URL") or "").startswith("postgres"):
        return "runs once per CI run, in the SQLite pass (it starts its own PostgreSQL)"
    if reason := namespaces_unavailable():
        return reason
    if missing := missing_programs():
        return f"missing {', '.join(missing)}: run `{PACKAGES}` (as root) first"
    return None


# In CI (CI=true, as root) `make test` has installed the packages: a missing one fails
# the test there instead of skipping it.
_MUST_RUN = os.environ.get("CI") == "true" and os.geteuid() == 0
pytestmark = [pytest.mark.multihost]
if (_reason := _skip_reason()) is not None and not (_MUST_RUN and "missing" in _reason):
    pytestmark.append(pytest.mark.skip(reason=_reason))


class Site:
    """Everything the tests share: the hosts, their services and processes."""

    def __init__(self, root: Path, release: Path):
        self.started = time.monotonic()
        self.root = root
        self.release = release
        self.machines = Machines(root, HOSTS)
        self.postgres = Postgres(self.machines, "db1", "db2")
        self.access, self.secret = secrets.token_hex(10), secrets.token_hex(20)
        self.gateway = Gateway(self.machines, "s3", self.access, self.secret)
        self.password = secrets.token_urlsafe(12)
        self.web: dict[str, subprocess.Popen] = {}
        self.worker: subprocess.Popen | None = None

    def env(self, *, replica: bool = True) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "BENCHVIEW"))}
        env = {
            **keep,
            "DEBUG": "false",
            "SECRET_KEY": "multihost-" + self.secret,
            "ALLOWED_HOSTS": "*",
            "DATABASE_URL": self.postgres.url("db1"),
            "BENCHVIEW_S3_BUCKET": BUCKET,
            "BENCHVIEW_S3_ENDPOINT_URL": self.gateway.endpoint,
            "AWS_ACCESS_KEY_ID": self.access,
            "AWS_SECRET_ACCESS_KEY": self.secret,
            "AWS_DEFAULT_REGION": "us-east-1",
            "BENCHVIEW_TRUSTED_PROXIES": self.machines.address("lb"),
            # Each host's own disk, at the same path on every host.
            "BENCHVIEW_DATA_DIR": str(self.machines.mount_point),
            # The small release's blobs stand in for large ones: all go to the bucket.
            "BENCHVIEW_BLOB_DB_MAX_BYTES": "512",
            "BENCHVIEW_API_ANON_RATE": f"{API_RATE}/minute",
            "BENCHVIEW_API_THROTTLE_BATCH": "1",
            "BENCHVIEW_LOGIN_FAILURE_LIMIT": str(LOGIN_LIMIT),
            "PYTHONUNBUFFERED": "1",
        }
        if replica:
            env["DATABASE_REPLICA_URL"] = self.postgres.url("db2")
        return env

    def manage(self, host: str, *args: str, check: bool = True, replica: bool = False):
        done = self.machines.run(
            host, [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env(replica=replica)
        )
        if check:
            assert done.returncode == 0, f"manage.py {args} on {host}:\n{done.stdout}{done.stderr}"
        return done

    def start_web(self, host: str) -> None:
        address = self.machines.address(host)
        argv = [GUNICORN, "config.wsgi", "--bind", f"{address}:8000", "--workers", "2"]
        argv += ["--graceful-timeout", "30", "--timeout", "60"]
        self.web[host] = self.machines.start(
            host, argv, log=self.root / f"{host}.log", cwd=ROOT, env=self.env()
        )
        probe = Client(address, 8000, "10.236.36.1", timeout=5)
        wait_for(f"gunicorn on {host}", lambda: probe.get("/healthz").status == 200, timeout=240)

    def up(self) -> None:
        self.machines.up(list(CLIENTS.values()))
        self.postgres.start()
        self.gateway.start()
        s3 = self.gateway.client()
        s3.create_bucket(Bucket=BUCKET)
        # Open CORS, as the mirror's own answers have: large blobs may then be redirected.
        rule = {"AllowedOrigins": ["*"], "AllowedMethods": ["GET", "HEAD"], "MaxAgeSeconds": 3600}
        s3.put_bucket_cors(Bucket=BUCKET, CORSConfiguration={"CORSRules": [rule]})
        with self.primary() as db:
            db.execute("create database benchview")
        self.manage("work", "migrate", "--noinput")
        admin_env = {"DJANGO_SUPERUSER_PASSWORD": self.password}
        self.machines.run(
            "work",
            [PYTHON, "manage.py", "createsuperuser", "--noinput", "--username", "admin"]
            + ["--email", "admin@example.org"],
            cwd=ROOT,
            env={**self.env(), **admin_env},
            check=True,
        )
        self.start_web("web1")
        self.start_web("web2")
        self.worker = self.machines.start(
            "work",
            [PYTHON, "manage.py", "db_worker", "--no-reload"],
            log=self.root / "work.log",
            cwd=ROOT,
            env=self.env(),
        )
        lb = self.machines.address("lb")
        backends = {h: f"{self.machines.address(h)}:8000" for h in ("web1", "web2")}
        config = self.root / "haproxy.cfg"
        config.write_text(haproxy_config(lb, backends))
        self.haproxy = self.machines.start(
            "lb", ["haproxy", "-db", "-f", str(config)], log=self.root / "haproxy.log"
        )
        front = self.client("load")
        wait_for("HAProxy", lambda: front.get("/healthz").status == 200, timeout=120)

    def down(self) -> None:
        self.machines.stop_all()  # the web hosts, the worker, HAProxy
        self.gateway.stop()
        self.postgres.stop()
        self.machines.down()

    def client(self, name: str, port: int = 80, host: str = "lb") -> Client:
        return Client(self.machines.address(host), port, CLIENTS.get(name, name))

    def primary(self, database: str = "postgres"):
        url = self.postgres.url("db1", database)
        return psycopg.connect(url, autocommit=True)

    def replica(self, database: str = "benchview"):
        return psycopg.connect(self.postgres.url("db2", database), autocommit=True)

    def bucket_objects(self, prefix: str = "") -> dict[str, int]:
        pages = self.gateway.client().get_paginator("list_objects_v2")
        return {
            item["Key"]: item["Size"]
            for page in pages.paginate(Bucket=BUCKET, Prefix=prefix)
            for item in page.get("Contents", [])
        }


@pytest.fixture(scope="module")
def site(small_release_dir):
    if missing := missing_programs():
        pytest.fail(f"missing {', '.join(missing)}: `{PACKAGES}` should have installed them")
    root = Path(tempfile.mkdtemp(prefix="benchview-multihost-"))
    root.chmod(0o755)  # PostgreSQL runs as its own user under it
    made = Site(root, small_release_dir)
    try:
        made.up()
        FIGURES["setup_s"] = round(time.monotonic() - made.started, 1)
        yield made
    finally:
        made.down()
        FIGURES["runtime_s"] = round(time.monotonic() - made.started, 1)
        print("\nmulti-host figures:", json.dumps(FIGURES, indent=2))
        out = ROOT / "test-results"
        out.mkdir(exist_ok=True)
        (out / "multihost.json").write_text(json.dumps(FIGURES, indent=2) + "\n")
        if os.environ.get("BENCHVIEW_KEEP_MULTIHOST") is None:
            subprocess.run(["rm", "-rf", str(root)], check=False)


@pytest.fixture(scope="module")
def staff(site) -> Client:
    """The admin, signed in on web host 1 directly (not through the proxy)."""
    client = site.client("staff", port=8000, host="web1")
    client.source = "10.236.36.1"
    signed = client.sign_in("admin", site.password)
    assert signed.status == 302, signed.text[:500]
    return client


def _job(site: Site, job_id: int) -> tuple[str, str, str]:
    with site.primary("benchview") as db:
        return db.execute(
            "select state, worker_host, error from ingest_importjob where id = %s", (job_id,)
        ).fetchone()


def _generation(connect) -> tuple:
    with connect() as db:
        return db.execute("select * from leaderboard_generation order by 1").fetchall()


def test_an_upload_on_web_host_1_is_imported_by_the_worker_on_another_host(site, staff, tmp_path):
    archive = tar_gz(site.release, tmp_path / "release.tar.gz")
    token = staff.csrf("/admin/ingest/importrecord/import/")
    fields = {"csrfmiddlewaretoken": token, "exceptions": "harbor", "scrub": "on"}
    uploaded = staff.post_file(
        "/admin/ingest/importrecord/import/upload/", fields, "archive", archive
    )
    assert uploaded.status == 302, uploaded.text[:2000]
    preview = uploaded.headers["location"]
    staged = preview.rstrip("/").rsplit("/", 1)[1]
    # Staged in the bucket for the other hosts; not kept on web host 1's disk.
    assert any(
        key.startswith(f"uploads/{staged}/upload/") for key in site.bucket_objects("uploads/")
    )
    assert not (site.machines.folder("web1") / "var" / "uploads" / staged).exists()

    token = staff.csrf(preview)
    applied = staff.post_form(f"{preview}apply/", {"csrfmiddlewaretoken": token, "publish": "on"})
    assert applied.status == 302, applied.text[:2000]
    job_id = int(applied.headers["location"].rstrip("/").rsplit("/", 1)[1])
    committed = wait_for("the import job", lambda: _job(site, job_id)[0] in ("done", "failed"), 600)
    state, worker_host, error = _job(site, job_id)
    assert (state, error) == ("done", ""), error
    assert committed and worker_host == "work"
    # Done (the job's state commits with the import): then the staged upload goes.
    wait_for("the staged upload's removal", lambda: not site.bucket_objects(f"uploads/{staged}/"))
    left = [
        f for h in ("web1", "web2", "work") for f in site.machines.folder(h).rglob("uploads/*/*")
    ]
    assert left == []

    # Replication lag: from the commit on the primary until the replica shows it.
    began = time.monotonic()
    primary_generation = _generation(lambda: site.primary("benchview"))
    wait_for("the replica", lambda: _generation(site.replica) == primary_generation, 30, 0.01)
    FIGURES["replica_caught_up_after_import_s"] = round(time.monotonic() - began, 3)
    with site.primary() as db:
        lag = db.execute(
            "select coalesce(max(extract(epoch from replay_lag)), 0) from pg_stat_replication"
        ).fetchone()[0]
    FIGURES["replay_lag_s"] = float(lag)
    page = site.client("load").get("/integration-bench/")
    assert page.status == 200


def test_blobs_are_in_the_bucket_and_on_no_hosts_disk(site):
    with site.primary("benchview") as db:
        stored = dict(
            db.execute("select storage_name, size from trajectories_blob where storage_name <> ''")
        )
    in_bucket = site.bucket_objects("blobs/")
    assert stored and set(in_bucket) == set(stored)
    assert all(in_bucket[name] == size for name, size in stored.items())
    on_disk = {
        host: sum(f.stat().st_size for f in site.machines.folder(host).rglob("*") if f.is_file())
        for host in ("web1", "web2", "work")
    }
    blob_files = [
        f
        for host in ("web1", "web2", "work")
        for f in site.machines.folder(host).rglob("blobs/*/*")
    ]
    assert blob_files == []
    FIGURES["blobs_in_bucket"] = len(in_bucket)
    FIGURES["bytes_in_bucket"] = sum(in_bucket.values())
    FIGURES["bytes_on_web_and_worker_disks"] = on_disk

    # A large blob of the mirror: a redirect to the bucket (its CORS is open), bytes intact.
    name = next(n for n in sorted(stored) if stored[n] > 4096)
    with site.primary("benchview") as db:
        model, task = db.execute(
            "select m.slug, t.slug from trajectories_evidence e "
            "join leaderboard_attempt a on a.id = e.attempt_id "
            "join leaderboard_model m on m.id = a.model_id "
            "join leaderboard_task t on t.id = a.task_id "
            "where e.transcript_id = %s and a.trial = 0 limit 1",
            (name.rsplit("/", 1)[1],),
        ).fetchone()
    path = f"/data/v1/integration-bench/attempts/{model}/{task}/transcript.jsonl"
    answer = site.client("load").get(path)
    assert answer.status == 302, answer.status
    location = answer.headers["location"]
    assert location.startswith(site.gateway.endpoint + f"/{BUCKET}/{name}?")
    import urllib.request

    with urllib.request.urlopen(location, timeout=10) as fetched:
        assert hashlib.sha256(fetched.read()).hexdigest() == name.rsplit("/", 1)[1]


def test_anonymous_pages_read_from_the_replica(site, staff, tmp_path):
    release = tmp_path / "second"
    generate_release(release, models=2, tasks=3, released=3, seed=5, bench="replica-bench")
    with site.replica() as db:
        db.execute("select pg_wal_replay_pause()")
    try:
        site.manage("work", "import_release", str(release))
        anonymous = site.client("load")
        signed_in = site.client("staff")
        signed_in.cookies = dict(staff.cookies)
        # The replica has not replayed the import: anonymous readers do not see it yet
        # (through both web hosts), the signed-in admin (on the primary) does.
        assert [anonymous.get("/replica-bench/").status for _ in range(4)] == [404] * 4
        assert [signed_in.get("/replica-bench/").status for _ in range(4)] == [200] * 4
    finally:
        with site.replica() as db:
            db.execute("select pg_wal_replay_resume()")
    began = time.monotonic()
    wait_for("the replica", lambda: site.client("load").get("/replica-bench/").status == 200, 30)
    FIGURES["replica_page_visible_after_resume_s"] = round(time.monotonic() - began, 3)


def test_the_throttle_and_the_lockout_count_clients_through_the_proxy(site):
    a, b, c = site.client("a"), site.client("b"), site.client("c")
    # Client a: the first API_RATE requests pass (spread over both web hosts), then 429.
    statuses = [a.get("/api/benches/").status for _ in range(API_RATE + 3)]
    assert statuses == [200] * API_RATE + [429] * 3
    # Client b is another client: its own count.
    assert b.get("/api/benches/").status == 200
    # Client c writes X-Forwarded-For itself, a new address each time: still one client.
    forged = [
        c.get("/api/benches/", headers={"X-Forwarded-For": f"198.51.100.{n}"}).status
        for n in range(API_RATE + 3)
    ]
    assert forged == [200] * API_RATE + [429] * 3

    # Sign-in: the LOGIN_LIMIT-th failure from client d (a new account name each time,
    # and a forged header each time) locks client d out; client e is not.
    d, e = site.client("d"), site.client("e")
    answers = [
        d.sign_in(f"nobody{n}", "wrong", headers={"X-Forwarded-For": f"203.0.113.{n}"})
        for n in range(LOGIN_LIMIT + 1)
    ]
    assert [a.status for a in answers] == [200] * (LOGIN_LIMIT - 1) + [429, 429]
    assert "correct username and password" in answers[0].text
    assert e.sign_in("nobody-else", "wrong").status == 200


def test_a_web_host_stopped_gracefully_under_load_loses_no_request(site):
    results: list[int | str] = []
    lock = threading.Lock()
    stop = threading.Event()
    paths = [
        "/",
        "/integration-bench/",
        "/replica-bench/",
        "/data/v1/integration-bench/manifest.json",
    ]

    def load(n: int) -> None:
        client = site.client("load")
        while not stop.is_set():
            try:
                status: int | str = client.get(paths[n % len(paths)]).status
            except OSError as exc:
                status = type(exc).__name__
            with lock:
                results.append(status)
            n += 1

    threads = [threading.Thread(target=load, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    code = site.machines.stop(site.web["web2"], signal.SIGTERM, timeout=40)
    time.sleep(3)
    stop.set()
    for thread in threads:
        thread.join()
    lost = [r for r in results if r != 200]
    FIGURES["graceful_stop"] = {"requests_sent": len(results), "requests_lost": len(lost)}
    assert code == 0
    assert len(results) > 50 and lost == []
    log = (site.root / "web2.log").read_text()
    assert "Handling signal: term" in log


def test_anonymous_pages_fall_back_to_the_primary_when_the_replica_stops(site):
    site.postgres.stop(("db2",))
    statuses = [site.client("load").get("/replica-bench/").status for _ in range(6)]
    assert statuses == [200] * 6
    assert (
        "read replica unavailable, reading from the primary" in (site.root / "web1.log").read_text()
    )


def test_cleanup_removes_a_blob_of_a_killed_import_from_the_bucket(site, tmp_path):
    release = tmp_path / "killed"
    generate_release(release, **{**SMALL, "seed": 11}, bench="killed-bench")
    before = set(site.bucket_objects("blobs/"))
    process = subprocess.Popen(
        site.machines.command("work", [PYTHON, "manage.py", "import_release", str(release)]),
        cwd=ROOT,
        env=site.env(replica=False),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        new = wait_for(
            "a blob of the import in the bucket",
            lambda: set(site.bucket_objects("blobs/")) - before,
            timeout=120,
            interval=0.05,
        )
    finally:
        process.kill()  # mid-import: its transaction never commits
        process.wait()
    with site.primary("benchview") as db:
        rows = db.execute(
            "select count(*) from trajectories_blob where storage_name = any(%s)", (list(new),)
        ).fetchone()[0]
        assert (
            db.execute(
                "select count(*) from leaderboard_bench where slug='killed-bench'"
            ).fetchone()[0]
            == 0
        )
    assert rows == 0 and new <= set(site.bucket_objects("blobs/"))
    # The next import (here the first release again, which changes nothing) sweeps them.
    site.manage("work", "import_release", str(site.release))
    left = set(site.bucket_objects("blobs/"))
    assert not (new & left)
    assert left == before
    FIGURES["killed_import_blobs_swept"] = len(new)
