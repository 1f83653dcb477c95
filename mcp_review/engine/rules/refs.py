"""References: a local ``$ref`` that does not resolve, a remote one (never fetched)."""

from __future__ import annotations

from mcp_review.engine.model import ChangeClass, Direction
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r

_P = ChangeClass.POTENTIALLY_BREAKING
_I = Direction.INPUT
_U = Effect.UNKNOWN

# Rule ids (one literal each): consumers outside engine/rules/ name a rule by these.
REF_REMOTE = "ref-remote"
REF_UNRESOLVED = "ref-unresolved"

RULES: tuple[Rule, ...] = (
    _r(
        REF_UNRESOLVED,
        _P,
        _I,
        "a local $ref does not resolve; its target is unknown",
        "{where}: $ref {ref} does not resolve ({why}); cannot compare",
        _U,
    ),
    _r(
        REF_REMOTE,
        _P,
        _I,
        "a remote $ref is never fetched; its target is unknown",
        "{where}: $ref {ref} is remote and is not fetched; cannot compare",
        _U,
    ),
)
