"""References: a local ``$ref`` that does not resolve, a remote one (never fetched)."""

from __future__ import annotations

from mcp_review.engine.model import ChangeClass, Direction
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r

_P = ChangeClass.POTENTIALLY_BREAKING
_I = Direction.INPUT
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r(
        "ref-unresolved",
        _P,
        _I,
        "a local $ref does not resolve; its target is unknown",
        "{where}: $ref {ref} does not resolve ({why}); cannot compare",
        _U,
    ),
    _r(
        "ref-remote",
        _P,
        _I,
        "a remote $ref is never fetched; its target is unknown",
        "{where}: $ref {ref} is remote and is not fetched; cannot compare",
        _U,
    ),
)
