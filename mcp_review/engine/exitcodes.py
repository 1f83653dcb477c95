"""Exit codes shared by every headless command (docs/design.md)."""

PASS = 0
"""No drift that fails the gate."""
FAIL = 1
"""Drift that fails the gate (a breaking change, a broken call, a blocked or unreviewed tool)."""
INPUT_ERROR = 2
"""Usage, config or input error: nothing was decided and nothing was written."""
UNREACHABLE = 3
"""A server could not be reached (`check`)."""
