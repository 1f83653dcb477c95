"""The wall clock and the OS user: the only two things a decision reads from the machine."""

from __future__ import annotations

import getpass
from datetime import UTC, datetime


def now_utc() -> str:
    """UTC timestamp, second precision, ISO-8601 with ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def current_user() -> str:
    """The OS user (``getpass.getuser``); ``"unknown"`` where the platform cannot tell."""
    try:
        return getpass.getuser() or "unknown"
    except Exception:  # no USER/LOGNAME and no passwd entry (containers)
        return "unknown"
