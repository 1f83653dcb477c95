"""The time a recorded call is stamped with."""

from __future__ import annotations

import time
from datetime import UTC, datetime

_STAMP: tuple[int, str] = (-1, "")
"""The last second :func:`now_iso` formatted, and its text up to the seconds."""


def now_iso() -> str:
    """Now, UTC, to the millisecond: ``datetime.now(UTC).isoformat(timespec="milliseconds")``
    with ``Z`` (both truncate the same clock); the date and time formatted once a second, as
    every recorded call is stamped."""
    global _STAMP
    sec, ms = divmod(time.time_ns() // 1_000_000, 1000)
    stamp = _STAMP
    if stamp[0] != sec:
        stamp = _STAMP = (sec, datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{stamp[1]}.{ms:03d}Z"
