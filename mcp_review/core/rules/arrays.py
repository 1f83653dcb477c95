"""Arrays: ``uniqueItems``, ``contains``, item counts and matching-item counts."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Effect, Rule
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN

RULES: tuple[Rule, ...] = (
    _r("unique-items-added", _B, _I, "array items must now be unique",
       "{where}: items must now be unique", _N),
    _r("unique-items-removed", _C, _I, "array items no longer need to be unique",
       "{where}: items no longer need to be unique", _W),
    _r("contains-added", _B, _I, "an array must now contain a matching item",
       "{where}: must now contain an item matching the contains schema", _N),
    _r("contains-removed", _C, _I, "the contains constraint was dropped",
       "{where}: contains constraint dropped", _W),
    _r("min-items-added", _B, _I, "a minimum item count (minItems) appeared",
       "{where}: minItems {new} added", _N),
    _r("min-items-removed", _C, _I, "the minimum item count (minItems) was dropped",
       "{where}: minItems {old} dropped", _W),
    _r("min-items-increased", _B, _I, "the minimum item count (minItems) tightened",
       "{where}: minItems {old} -> {new} (tightened)", _N),
    _r("min-items-decreased", _C, _I, "the minimum item count (minItems) loosened",
       "{where}: minItems {old} -> {new} (loosened)", _W),
    _r("max-items-added", _B, _I, "a maximum item count (maxItems) appeared",
       "{where}: maxItems {new} added", _N),
    _r("max-items-removed", _C, _I, "the maximum item count (maxItems) was dropped",
       "{where}: maxItems {old} dropped", _W),
    _r("max-items-decreased", _B, _I, "the maximum item count (maxItems) tightened",
       "{where}: maxItems {old} -> {new} (tightened)", _N),
    _r("max-items-increased", _C, _I, "the maximum item count (maxItems) loosened",
       "{where}: maxItems {old} -> {new} (loosened)", _W),
    _r("min-contains-added", _B, _I, "a minimum count of matching items (minContains) appeared",
       "{where}: minContains {new} added", _N),
    _r("min-contains-removed", _C, _I, "the minimum count of matching items (minContains) was dropped",
       "{where}: minContains {old} dropped", _W),
    _r("min-contains-increased", _B, _I, "the minimum count of matching items (minContains) tightened",
       "{where}: minContains {old} -> {new} (tightened)", _N),
    _r("min-contains-decreased", _C, _I, "the minimum count of matching items (minContains) loosened",
       "{where}: minContains {old} -> {new} (loosened)", _W),
    _r("max-contains-added", _B, _I, "a maximum count of matching items (maxContains) appeared",
       "{where}: maxContains {new} added", _N),
    _r("max-contains-removed", _C, _I, "the maximum count of matching items (maxContains) was dropped",
       "{where}: maxContains {old} dropped", _W),
    _r("max-contains-decreased", _B, _I, "the maximum count of matching items (maxContains) tightened",
       "{where}: maxContains {old} -> {new} (tightened)", _N),
    _r("max-contains-increased", _C, _I, "the maximum count of matching items (maxContains) loosened",
       "{where}: maxContains {old} -> {new} (loosened)", _W),
)
