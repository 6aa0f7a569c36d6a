"""Keep an import's memory flat in the size of what it imports.

An import reads, builds and drops one attempt's files after another: buffers
of a few hundred KB to a few MB each. glibc serves blocks over its mmap
threshold (128 KiB) from fresh mappings and returns them when freed, but it
raises that threshold each time such a block is freed (up to 32 MiB), after
which these buffers come from the heap. There they fragment it, and the heap
grows with the number of trials though nothing is kept: measured on Harbor
jobs, 126 MiB peak at 4x the trials against 112 MiB at 1x, and 117 against
111 MiB once the threshold is fixed (``benchmarks/import_harbor.py``).
Fixing the threshold (which also turns off its adjustment) restores the
first behaviour for the life of the process.
"""

from __future__ import annotations

import ctypes
import platform

# mallopt's parameter numbers (glibc's malloc.h) and glibc's default values.
# The trim threshold (free memory at the top of the heap given back) is raised
# with the mmap threshold, so it is set back too.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_THRESHOLD = 128 * 1024
_done = False


def heap_steady() -> bool:
    """Fix glibc's mmap threshold, once per process; whether it was fixed (False
    elsewhere than glibc, where nothing needs doing or can be done)."""
    global _done
    if _done:
        return True
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    _done = bool(mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, _THRESHOLD)
    )
    return _done
