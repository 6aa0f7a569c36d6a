"""The services of the multi-host test, each started on its own host (tests/multihost/machines.py):
a PostgreSQL primary and its streaming replica (the machine's PostgreSQL binaries), Ceph's
RADOS Gateway on a one-node cluster (rgw.sh), HAProxy in front of the web hosts."""

from __future__ import annotations

import glob
import shutil
import subprocess
from pathlib import Path

from tests.multihost.machines import Machines

HERE = Path(__file__).resolve().parent
PACKAGES = "make multihost-packages"


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    return Path(found[-1]) if found else None


def missing_programs() -> list[str]:
    wanted = ["haproxy", "radosgw", "ceph-mon", "ceph-osd", "radosgw-admin", "runuser"]
    missing = [name for name in wanted if shutil.which(name) is None]
    if postgres_bin() is None:
        missing.append("postgresql")
    return missing


def _as_postgres(*argv) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *map(str, argv)]


class Postgres:
    """A primary on host ``primary`` and a streaming replica on host ``replica``."""

    def __init__(self, machines: Machines, primary: str, replica: str):
        self.machines, self.primary, self.replica = machines, primary, replica
        self.bin = postgres_bin()

    def _data(self, host: str) -> Path:
        return self.machines.folder(host) / "pgdata"

    def _start(self, host: str) -> None:
        folder = self.machines.folder(host)
        options = (
            f"-c listen_addresses={self.machines.address(host)} -c port=5432 "
            f"-c unix_socket_directories={folder} -c fsync=off -c full_page_writes=off"
        )
        self.machines.run(
            host,
            _as_postgres(
                self.bin / "pg_ctl", "-D", self._data(host), "-l", folder / "postgres.log",
                "-w", "-o", options, "start",
            ),
            check=True,
        )  # fmt: skip

    def start(self) -> None:
        for host in (self.primary, self.replica):
            shutil.chown(self.machines.folder(host), "postgres")
        data = self._data(self.primary)
        subprocess.run(
            _as_postgres(
                self.bin / "initdb", "-D", data, "-U", "postgres", "--auth=trust",
                "--no-sync", "-E", "UTF8", "--locale=C.UTF-8",
            ),
            check=True, capture_output=True,
        )  # fmt: skip
        subnet = self.machines.address(self.primary).rsplit(".", 1)[0] + ".0/24"
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {subnet} trust\nhost replication all {subnet} trust\n")
        self._start(self.primary)
        self.machines.run(
            self.replica,
            _as_postgres(
                self.bin / "pg_basebackup", "-h", self.machines.address(self.primary),
                "-U", "postgres", "-D", self._data(self.replica), "-R", "-X", "stream",
            ),
            check=True,
        )  # fmt: skip
        self._start(self.replica)

    def stop(self, hosts: tuple[str, ...] = ()) -> None:
        for host in hosts or (self.replica, self.primary):
            if (self._data(host) / "postmaster.pid").exists():
                pg_ctl = [self.bin / "pg_ctl", "-D", self._data(host), "-m", "fast", "stop"]
                self.machines.run(host, _as_postgres(*pg_ctl))

    def url(self, host: str, database: str = "benchview") -> str:
        return f"postgres://postgres@{self.machines.address(host)}:5432/{database}"


class Gateway:
    """Ceph's RADOS Gateway on host ``host`` (a one-node cluster: tests/multihost/rgw.sh)."""

    def __init__(self, machines: Machines, host: str, access: str, secret: str):
        self.machines, self.host = machines, host
        self.access, self.secret = access, secret
        self.dir = machines.folder(host) / "ceph"
        self.port = 7480

    @property
    def endpoint(self) -> str:
        return f"http://{self.machines.address(self.host)}:{self.port}"

    def start(self) -> None:
        argv = ["bash", str(HERE / "rgw.sh"), "start", str(self.dir)]
        argv += [self.machines.address(self.host), str(self.port), self.access, self.secret]
        done = self.machines.run(self.host, argv)
        assert done.returncode == 0, f"RADOS Gateway did not start:\n{done.stdout}\n{done.stderr}"

    def stop(self) -> None:
        self.machines.run(self.host, ["bash", str(HERE / "rgw.sh"), "stop", str(self.dir)])

    def client(self):
        import boto3
        from botocore.config import Config

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=self.access,
            aws_secret_access_key=self.secret,
            region_name="us-east-1",
            config=Config(s3={"addressing_style": "path"}),
        )


HAPROXY = """\
# As docs/deploy.md: the client's address goes to the web hosts in X-Forwarded-For
# (option forwardfor), which they believe from this proxy (BENCHVIEW_TRUSTED_PROXIES).
global
    maxconn 512
defaults
    mode http
    option forwardfor
    option http-server-close
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    # A health check waits behind the requests a busy host is serving: given only
    # half a second it marked the last host standing down on a loaded machine, and
    # every request got 503 (no server available).
    timeout check 10s
    # A web host that stops (gracefully) refuses new connections: those requests
    # go to another host instead of failing.
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout
frontend site
    bind {address}:80
    default_backend web
backend web
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
{servers}
"""


def haproxy_config(address: str, backends: dict[str, str]) -> str:
    servers = "\n".join(
        f"    server {name} {target} check inter 1s fall 3 rise 2"
        for name, target in backends.items()
    )
    return HAPROXY.format(address=address, servers=servers)
