"""``enum`` and ``const``: the allowed values."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Effect, Rule
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_X = Effect.BOTH

RULES: tuple[Rule, ...] = (
    _r("enum-narrowed", _B, _I, "allowed values were dropped",
       "{where}: enum shrank: dropped {dropped}", _N),
    _r("enum-widened", _C, _I, "allowed values were added",
       "{where}: enum grew: added {added}", _W),
    _r("enum-changed", _B, _I, "allowed values were both dropped and added",
       "{where}: enum changed: dropped {dropped}, added {added}", _X),
    _r("enum-added", _B, _I, "an enum now restricts a value that was free",
       "{where}: now restricted to {new}", _N),
    _r("enum-removed", _C, _I, "the enum restriction was dropped",
       "{where}: enum {old} dropped: any value of the type accepted", _W),
    _r("const-changed", _B, _I, "the single allowed value changed",
       "{where}: const changed {old} -> {new}", _X),
    _r("const-added", _B, _I, "a const now fixes a value that was free",
       "{where}: now fixed to {new}", _N),
    _r("const-removed", _C, _I, "the const was dropped",
       "{where}: const {old} dropped", _W),
)
