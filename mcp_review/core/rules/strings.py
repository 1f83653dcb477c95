"""Strings: ``pattern``, ``format``, ``minLength`` and ``maxLength``."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Effect, Rule
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r("pattern-added", _P, _I, "a regex pattern now restricts a string",
       "{where}: pattern {new} added", Effect.MAYBE_NARROW),
    _r("pattern-removed", _C, _I, "the regex pattern was dropped",
       "{where}: pattern {old} dropped", Effect.MAYBE_WIDEN),
    _r("pattern-changed", _P, _I, "the regex pattern changed (subset not decidable here)",
       "{where}: pattern changed {old} -> {new}", _U),
    _r("format-added", _P, _I, "a format now restricts a string (if the server validates it)",
       "{where}: format {new} added", Effect.MAYBE_NARROW),
    _r("format-removed", _C, _I, "the format was dropped",
       "{where}: format {old} dropped", Effect.MAYBE_WIDEN),
    _r("format-changed", _P, _I, "the format changed",
       "{where}: format changed {old} -> {new}", _U),
    _r("min-length-added", _B, _I, "a minimum length (minLength) appeared",
       "{where}: minLength {new} added", _N),
    _r("min-length-removed", _C, _I, "the minimum length (minLength) was dropped",
       "{where}: minLength {old} dropped", _W),
    _r("min-length-increased", _B, _I, "the minimum length (minLength) tightened",
       "{where}: minLength {old} -> {new} (tightened)", _N),
    _r("min-length-decreased", _C, _I, "the minimum length (minLength) loosened",
       "{where}: minLength {old} -> {new} (loosened)", _W),
    _r("max-length-added", _B, _I, "a maximum length (maxLength) appeared",
       "{where}: maxLength {new} added", _N),
    _r("max-length-removed", _C, _I, "the maximum length (maxLength) was dropped",
       "{where}: maxLength {old} dropped", _W),
    _r("max-length-decreased", _B, _I, "the maximum length (maxLength) tightened",
       "{where}: maxLength {old} -> {new} (tightened)", _N),
    _r("max-length-increased", _C, _I, "the maximum length (maxLength) loosened",
       "{where}: maxLength {old} -> {new} (loosened)", _W),
)
