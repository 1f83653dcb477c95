"""Arrays: ``uniqueItems``, ``contains``, item counts and matching-item counts.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    Bound,
    Count,
    Handler,
    Judge,
    Pair,
)
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN

RULES: tuple[Rule, ...] = (
    _r(
        "unique-items-added",
        _B,
        _I,
        "array items must now be unique",
        "{where}: items must now be unique",
        _N,
    ),
    _r(
        "unique-items-removed",
        _C,
        _I,
        "array items no longer need to be unique",
        "{where}: items no longer need to be unique",
        _W,
    ),
    _r(
        "contains-added",
        _B,
        _I,
        "an array must now contain a matching item",
        "{where}: must now contain an item matching the contains schema",
        _N,
        at_keyword=True,
    ),
    _r(
        "contains-removed",
        _C,
        _I,
        "the contains constraint was dropped",
        "{where}: contains constraint dropped",
        _W,
        at_keyword=True,
    ),
    _r(
        "min-items-added",
        _B,
        _I,
        "a minimum item count (minItems) appeared",
        "{where}: minItems {new} added",
        _N,
    ),
    _r(
        "min-items-removed",
        _C,
        _I,
        "the minimum item count (minItems) was dropped",
        "{where}: minItems {old} dropped",
        _W,
    ),
    _r(
        "min-items-increased",
        _B,
        _I,
        "the minimum item count (minItems) tightened",
        "{where}: minItems {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "min-items-decreased",
        _C,
        _I,
        "the minimum item count (minItems) loosened",
        "{where}: minItems {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "max-items-added",
        _B,
        _I,
        "a maximum item count (maxItems) appeared",
        "{where}: maxItems {new} added",
        _N,
    ),
    _r(
        "max-items-removed",
        _C,
        _I,
        "the maximum item count (maxItems) was dropped",
        "{where}: maxItems {old} dropped",
        _W,
    ),
    _r(
        "max-items-decreased",
        _B,
        _I,
        "the maximum item count (maxItems) tightened",
        "{where}: maxItems {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "max-items-increased",
        _C,
        _I,
        "the maximum item count (maxItems) loosened",
        "{where}: maxItems {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "min-contains-added",
        _B,
        _I,
        "a minimum count of matching items (minContains) appeared",
        "{where}: minContains {new} added",
        _N,
    ),
    _r(
        "min-contains-removed",
        _C,
        _I,
        "the minimum count of matching items (minContains) was dropped",
        "{where}: minContains {old} dropped",
        _W,
    ),
    _r(
        "min-contains-increased",
        _B,
        _I,
        "the minimum count of matching items (minContains) tightened",
        "{where}: minContains {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "min-contains-decreased",
        _C,
        _I,
        "the minimum count of matching items (minContains) loosened",
        "{where}: minContains {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "max-contains-added",
        _B,
        _I,
        "a maximum count of matching items (maxContains) appeared",
        "{where}: maxContains {new} added",
        _N,
    ),
    _r(
        "max-contains-removed",
        _C,
        _I,
        "the maximum count of matching items (maxContains) was dropped",
        "{where}: maxContains {old} dropped",
        _W,
    ),
    _r(
        "max-contains-decreased",
        _B,
        _I,
        "the maximum count of matching items (maxContains) tightened",
        "{where}: maxContains {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "max-contains-increased",
        _C,
        _I,
        "the maximum count of matching items (maxContains) loosened",
        "{where}: maxContains {old} -> {new} (loosened)",
        _W,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_unique(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    ou, nu = o.get("uniqueItems") is True, n.get("uniqueItems") is True
    if nu and not ou:
        w.emit("unique-items-added", pointer_join(np, "uniqueItems"), pos)
    elif ou and not nu:
        w.emit("unique-items-removed", pointer_join(op, "uniqueItems"), pos)


def judge_items(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    opre, okw, orest, orkw = _array_form(o)
    npre, nkw, nrest, nrkw = _array_form(n)
    for i in range(max(len(opre), len(npre))):
        if i < len(opre):
            a, ap = opre[i], pointer_join(op, okw, i)
        else:
            a, ap = orest, pointer_join(op, orkw) if orkw in o else op
        if i < len(npre):
            b, bp = npre[i], pointer_join(np, nkw, i)
        else:
            b, bp = nrest, pointer_join(np, nrkw) if nrkw in n else np
        w.diff(a, b, ap, bp, pos, depth + 1)
    if not (orest is True and nrest is True):
        w.diff(orest, nrest, pointer_join(op, orkw), pointer_join(np, nrkw), pos, depth + 1)


def judge_contains(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    ov, nv = o.get("contains", MISSING), n.get("contains", MISSING)
    if ov is MISSING:
        w.emit("contains-added", pointer_join(np, "contains"), pos)
    elif nv is MISSING:
        w.emit("contains-removed", pointer_join(op, "contains"), pos)
    else:
        w.diff(ov, nv, pointer_join(op, "contains"), pointer_join(np, "contains"), pos, depth + 1)


def _array_form(s: dict[str, Any]) -> tuple[list[Any], str, Any, str]:
    """(prefix schemas, their keyword, schema for the rest, its keyword): draft-07 array
    ``items`` + ``additionalItems`` read as 2020-12 ``prefixItems`` + ``items``."""
    items = s.get("items", MISSING)
    if isinstance(items, list):
        return items, "items", s.get("additionalItems", True), "additionalItems"
    pre = s.get("prefixItems")
    return (
        (pre if isinstance(pre, list) else []),
        "prefixItems",
        (True if items is MISSING else items),
        "items",
    )


ITEM_COUNTS = (
    Count(
        "minItems",
        Bound("min-items-added", "min-items-removed", "min-items-increased", "min-items-decreased"),
        True,
        0,
    ),
    Count(
        "maxItems",
        Bound("max-items-added", "max-items-removed", "max-items-decreased", "max-items-increased"),
        False,
        None,
    ),
)
CONTAINS_COUNTS = (
    Count(
        "minContains",
        Bound(
            "min-contains-added",
            "min-contains-removed",
            "min-contains-increased",
            "min-contains-decreased",
        ),
        True,
        1,
    ),
    Count(
        "maxContains",
        Bound(
            "max-contains-added",
            "max-contains-removed",
            "max-contains-decreased",
            "max-contains-increased",
        ),
        False,
        None,
    ),
)
"""Item counts and matching-item counts (judged with the other counts, see
``kit.counts_judge``)."""


HANDLERS: dict[str, Handler] = {
    "uniqueItems": judge_unique,
    "items": judge_items,
    "prefixItems": judge_items,
    "additionalItems": judge_items,
    "contains": judge_contains,
}
"""The keywords this family judges, and the handler the walker calls for each."""

COUNTS = (*ITEM_COUNTS, *CONTAINS_COUNTS)
"""The count keywords this family owns (judged by one handler with the other counts)."""
INSTANCE_TYPES: dict[str, frozenset[str]] = dict.fromkeys(
    (
        "items",
        "prefixItems",
        "additionalItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
    ),
    frozenset(("array",)),
)
"""The instance types these keywords constrain (on any other type they are no-ops)."""
INTERACTING = (
    frozenset({"items", "prefixItems", "additionalItems"}),
    frozenset({"contains", "minContains", "maxContains"}),
)
"""Keywords whose meaning depends on each other: never split across an allOf."""
