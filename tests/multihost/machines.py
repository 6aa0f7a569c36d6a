"""Hosts for the multi-host test: Linux network namespaces on one bridge.

Each host is a network namespace with its own address, and each process started
on it gets a private mount namespace, where the host's own folder is mounted at
one shared path (``mount_point``), and a host name of its own: the same
configuration on every host, with one disk each, as on separate machines. The
test's own process stays in the root namespace, which holds the bridge and the
clients' addresses.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

PREFIX = "bv36"  # namespaces, bridge and interfaces; short: interface names stop at 15
BRIDGE = f"{PREFIX}br"
SUBNET = "10.236.36"


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True)


def namespaces_unavailable() -> str | None:
    """Why namespaces cannot be made here, or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, mounts, host names)"
    if shutil.which("ip") is None or shutil.which("unshare") is None:
        return "needs ip (iproute2) and unshare (util-linux)"
    probe = f"{PREFIX}probe"
    made = ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    ip("netns", "del", probe, check=False)
    return None


class Machines:
    def __init__(self, root: Path, hosts: dict[str, int]):
        self.root = root  # the hosts' folders: root/<name>
        self.hosts = hosts  # name -> last byte of its address
        self.mount_point = root / "mnt"
        self.processes: list[subprocess.Popen] = []

    def address(self, name: str) -> str:
        return f"{SUBNET}.{self.hosts[name]}"

    def folder(self, name: str) -> Path:
        return self.root / name

    def up(self, client_addresses: list[str]) -> None:
        self.down()
        self.mount_point.mkdir(parents=True, exist_ok=True)
        ip("link", "add", BRIDGE, "type", "bridge")
        ip("addr", "add", f"{SUBNET}.1/24", "dev", BRIDGE)
        for client in client_addresses:
            ip("addr", "add", f"{client}/24", "dev", BRIDGE)
        ip("link", "set", BRIDGE, "up")
        for name, last in self.hosts.items():
            ns, outside, inside = f"{PREFIX}{name}", f"{PREFIX}{name}0", f"{PREFIX}{name}1"
            self.folder(name).mkdir(parents=True, exist_ok=True)
            ip("netns", "add", ns)
            ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            ip("link", "set", inside, "netns", ns)
            ip("link", "set", outside, "master", BRIDGE, "up")
            ip("-n", ns, "addr", "add", f"{SUBNET}.{last}/24", "dev", inside)
            ip("-n", ns, "link", "set", inside, "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def command(self, name: str, argv: list[str]) -> list[str]:
        """``argv`` as run on host ``name``: its network, its folder at the mount
        point (private mounts), its host name."""
        script = (
            'mount --bind "$0" "$1" && echo "$2" >/proc/sys/kernel/hostname && shift 2 && exec "$@"'
        )
        return [
            "ip", "netns", "exec", f"{PREFIX}{name}",
            "unshare", "--mount", "--uts", "--propagation", "private", "--",
            "sh", "-c", script, str(self.folder(name)), str(self.mount_point), name, *argv,
        ]  # fmt: skip

    def run(self, name: str, argv: list[str], **kwargs) -> subprocess.CompletedProcess:
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        return subprocess.run(self.command(name, argv), **kwargs)

    def start(self, name: str, argv: list[str], *, log: Path, **kwargs) -> subprocess.Popen:
        """A long-running process on host ``name`` (its pid is the process itself:
        ip netns exec, unshare and sh each exec the next)."""
        handle = open(log, "ab")  # noqa: SIM115 - closed with the process's end
        process = subprocess.Popen(
            self.command(name, argv), stdout=handle, stderr=subprocess.STDOUT, **kwargs
        )
        handle.close()
        self.processes.append(process)
        return process

    def stop(self, process: subprocess.Popen, sig: int = signal.SIGTERM, timeout=30) -> int:
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return process.returncode

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            self.stop(process, timeout=10)
        self.processes.clear()

    def down(self) -> None:
        """Remove the hosts; stop what runs on them first (a daemon left running keeps
        its namespace, and the root side of its link, alive)."""
        self.stop_all()
        for name in self.hosts:
            ip("netns", "del", f"{PREFIX}{name}", check=False)
            ip("link", "del", f"{PREFIX}{name}0", check=False)
        ip("link", "del", BRIDGE, check=False)


def wait_for(what: str, check, timeout: float = 60.0, interval: float = 0.2):
    """Call ``check`` until it returns something true; that value, or fail saying ``what``."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception as exc:  # noqa: BLE001 - the service may not answer yet
            last = exc
        else:
            if value:
                return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}" + (f": {last!r}" if last else ""))
