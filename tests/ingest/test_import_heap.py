"""An import's large buffers come from fresh mappings, not a heap they would
fragment (ingest.running.heap): what keeps its memory flat in the size of
the release (benchmarks/import_harbor.py measures it)."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="the heap is glibc's to tune"
)

# In a fresh process: free one 8 MiB buffer (glibc then raises its mmap
# threshold to 8 MiB), keep fifty 512 KiB buffers, and tell how many bytes of
# live mappings (mallinfo2's hblkhd) and of heap (arena) they took.
_PROBE = """
import ctypes, json, sys
sys.path.insert(0, {root!r})
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in (
        "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split())]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
if {steady}:
    from ingest.running.heap import heap_steady
    assert heap_steady() and heap_steady()
before = libc.mallinfo2()
big = bytearray(8 << 20)
del big
kept = [bytearray(512 << 10) for _ in range(50)]
after = libc.mallinfo2()
print(json.dumps({{"mapped": after.hblkhd - before.hblkhd, "heap": after.arena - before.arena}}))
"""


def _probe(steady: bool) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(root=str(ROOT), steady=steady)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def test_large_buffers_are_mapped_once_the_heap_is_steady():
    steady = _probe(steady=True)
    assert steady["mapped"] >= 50 * (512 << 10)
    assert steady["heap"] < 512 << 10


def test_without_it_glibc_serves_them_from_the_heap():
    # The behaviour the module exists for: were it gone, there would be
    # nothing to fix (and this module could go).
    plain = _probe(steady=False)
    assert plain["heap"] >= 50 * (512 << 10)
    assert plain["mapped"] < 512 << 10


def test_every_import_makes_the_heap_steady(tmp_path):
    # run_import sets it before it reads anything: a dry run is enough.
    script = (
        "import os, sys, django\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
        f"os.environ['DATABASE_URL'] = 'sqlite:///{tmp_path}/db.sqlite3'\n"
        "django.setup()\n"
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\n"
        "import ingest.running.heap as heap\n"
        "from ingest.running.imports import run_import\n"
        "assert not heap._done\n"
        f"run_import(path={str(tmp_path / 'none')!r}, via='t', holder='t', action='dry-run')\n"
        "print(heap._done)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True, cwd=ROOT
    )
    assert out.stdout.strip().splitlines()[-1] == "True"
