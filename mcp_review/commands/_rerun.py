"""What `rerun` and `check --rerun` share: show the plan, and ask (or take --yes)."""

from __future__ import annotations

import sys


def ask(planned: object, *, yes: bool, quiet: bool = False) -> tuple[bool, str]:
    """Show the plan on stderr and ask in a terminal; ``--yes`` sends without asking.
    (ok, why not)."""
    from mcp_review.formats import rerun as fmt

    if not quiet or not yes:
        sys.stderr.write(fmt.plan_text(planned))
    if yes:
        return True, ""
    if not sys.stdin.isatty():
        return False, "not sent: confirm in a terminal, or pass --yes"
    n = len(planned.to_send)  # type: ignore[attr-defined]
    sys.stderr.write(f"Send these {n} call(s), each twice? [y/N] ")
    sys.stderr.flush()
    if sys.stdin.readline().strip().lower() in ("y", "yes"):
        return True, ""
    return False, "nothing sent"
