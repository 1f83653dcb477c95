"""Hidden characters (zero-width, bidi controls, the Unicode TAG block, ANSI/C0/C1 controls)
anywhere in a definition."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Rule
from mcp_review.core.rules.registry import rule as _r

_TR = ChangeClass.TRUST
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r("hidden-characters-added", _TR, _T,
       "a string now carries invisible or control characters it did not have",
       "hidden characters added in {where}: {tokens}{decoded}"),
    _r("hidden-characters-present", _TR, _T,
       "a string carries invisible or control characters (new tool or first pin)",
       "hidden characters in {where}: {tokens}{decoded}"),
)
