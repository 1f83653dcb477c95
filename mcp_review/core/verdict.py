"""The gate's judgements about one tool status, in one place for every command and the app."""

from __future__ import annotations

from typing import Any


def needs_confirmation(t: Any) -> bool:
    """A pinned tool whose change a baseline must not wave through: breaking, trust, a broken
    recorded call, or a digest change the engine could not name."""
    from mcp_review.core.model import ChangeClass

    cmp = t.comparison
    if cmp is None:
        return False
    classes = {c.cls for c in cmp.changes}
    return (not classes or ChangeClass.BREAKING in classes or ChangeClass.TRUST in classes
            or cmp.broken_calls > 0)
