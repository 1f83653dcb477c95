"""The proxy process's heap, set for messages of a mebibyte and more.

A large call makes several buffers of its own size in the proxy (the line read, its parse, the
call log's record and seal, the reply and its parse) and frees them once relayed. glibc's
malloc gives a buffer past its mmap threshold (128 KiB at start, then the size of the largest
one freed) pages of its own, and gives the top of the heap back to the kernel once more than
twice that is free: so every call of a mebibyte faulted in ~1,500 fresh pages (~6 MiB, the
kernel zeroing each), about a fifth of the proxy's CPU per call on the box measured
(benchmarks/README.md, "large calls, third pass"). Kept in the heap up to ``KEEP`` and given
back past it, the same pages serve call after call.
"""

from __future__ import annotations

import sys

_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3
"""``mallopt`` parameters (glibc's malloc.h)."""

MMAP_ABOVE = 32 << 20
"""Buffers larger than this still get pages of their own (returned to the kernel when freed)."""
KEEP = 64 << 20
"""Free memory at the top of the heap past this is returned to the kernel."""
PAD = 16 << 20
"""Extra bytes asked of the kernel whenever the heap grows (fewer, larger growths)."""

_done: bool | None = None


def keep_heap() -> bool:
    """Set the process's malloc for large messages (once; glibc only): True when set. Elsewhere
    (macOS, musl, no ctypes) nothing changes and False is returned: only the speed differs."""
    global _done
    if _done is not None:
        return _done
    _done = False
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _done = all(
        mallopt(param, value) == 1
        for param, value in (
            (_M_MMAP_THRESHOLD, MMAP_ABOVE),
            (_M_TRIM_THRESHOLD, KEEP),
            (_M_TOP_PAD, PAD),
        )
    )
    return _done
