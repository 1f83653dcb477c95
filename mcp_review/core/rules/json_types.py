"""``type``: JSON types accepted, dropped, added."""

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
    _r("type-narrowed", _B, _I, "fewer JSON types are accepted",
       "{where}: type narrowed {old} -> {new} (no longer accepts {lost})", _N),
    _r("type-widened", _C, _I, "more JSON types are accepted",
       "{where}: type widened {old} -> {new}", _W),
    _r("type-changed", _B, _I, "types were both dropped and added",
       "{where}: type changed {old} -> {new} (no longer accepts {lost})", _X),
    _r("type-added", _B, _I, "a type constraint appeared where any type was accepted",
       "{where}: type {new} required where any type was accepted", _N),
    _r("type-removed", _C, _I, "the type constraint was dropped: any type accepted",
       "{where}: type {old} dropped: any type accepted", _W),
)
