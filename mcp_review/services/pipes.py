"""Pipes the process writes to or reads from, asked to hold more.

A Linux pipe holds 64 KiB by default: a command writing a 2.8 MB report to a pipe (``gate
--format json | jq``, a benchmark, CI) blocks some 44 times, and each time waits until the
reader is scheduled, which on a busy machine is where its wall time goes that its CPU time
does not show. Asked for 1 MiB (``F_SETPIPE_SZ``, up to ``/proc/sys/fs/pipe-max-size``), the
same report crosses in three. Best effort: elsewhere, or past the user's pipe budget, the pipe
stays as it was."""

from __future__ import annotations

import contextlib
import os
import stat
import sys

PIPE_BYTES = 1 << 20
"""What a widened pipe is asked to hold."""


def widen_pipe(fd: int) -> None:
    """Ask the pipe at ``fd`` to hold :data:`PIPE_BYTES` (nothing when ``fd`` is not a pipe,
    or the system does not allow it)."""
    import fcntl

    setsz = getattr(fcntl, "F_SETPIPE_SZ", 1031 if sys.platform.startswith("linux") else None)
    if setsz is None:
        return
    with contextlib.suppress(OSError, ValueError):
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            fcntl.fcntl(fd, setsz, PIPE_BYTES)
