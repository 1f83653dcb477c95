"""Numbers: ``minimum`` / ``maximum`` (exclusive forms included) and ``multipleOf``."""

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
    _r("multiple-of-added", _B, _I, "multipleOf appeared",
       "{where}: multipleOf {new} added", _N),
    _r("multiple-of-removed", _C, _I, "multipleOf was dropped",
       "{where}: multipleOf {old} dropped", _W),
    _r("multiple-of-narrowed", _B, _I, "multipleOf changed so fewer numbers qualify",
       "{where}: multipleOf {old} -> {new} (fewer numbers qualify)", _N),
    _r("multiple-of-widened", _C, _I, "multipleOf changed to a divisor of the old one",
       "{where}: multipleOf {old} -> {new} (every old multiple still qualifies)", _W),
    _r("multiple-of-changed", _B, _I, "multipleOf changed to an unrelated step",
       "{where}: multipleOf {old} -> {new} (some old values no longer qualify)", _X),
    _r("minimum-added", _B, _I, "a lower bound (minimum) appeared",
       "{where}: minimum {new} added", _N),
    _r("minimum-removed", _C, _I, "the lower bound (minimum) was dropped",
       "{where}: minimum {old} dropped", _W),
    _r("minimum-increased", _B, _I, "the lower bound (minimum) tightened",
       "{where}: minimum {old} -> {new} (tightened)", _N),
    _r("minimum-decreased", _C, _I, "the lower bound (minimum) loosened",
       "{where}: minimum {old} -> {new} (loosened)", _W),
    _r("maximum-added", _B, _I, "a upper bound (maximum) appeared",
       "{where}: maximum {new} added", _N),
    _r("maximum-removed", _C, _I, "the upper bound (maximum) was dropped",
       "{where}: maximum {old} dropped", _W),
    _r("maximum-decreased", _B, _I, "the upper bound (maximum) tightened",
       "{where}: maximum {old} -> {new} (tightened)", _N),
    _r("maximum-increased", _C, _I, "the upper bound (maximum) loosened",
       "{where}: maximum {old} -> {new} (loosened)", _W),
)
