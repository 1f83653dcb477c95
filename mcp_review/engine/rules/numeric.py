"""Numbers: ``minimum`` / ``maximum`` (exclusive forms included) and ``multipleOf``.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

import math
from typing import Any

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    Bound,
    Handler,
    Judge,
    Pair,
    frac,
    jeq,
    kind_of,
    num,
    type_set,
)
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
    quote,
)

_B = ChangeClass.BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_X = Effect.BOTH

RULES: tuple[Rule, ...] = (
    _r("multiple-of-added", _B, _I, "multipleOf appeared", "{where}: multipleOf {new} added", _N),
    _r(
        "multiple-of-removed",
        _C,
        _I,
        "multipleOf was dropped",
        "{where}: multipleOf {old} dropped",
        _W,
    ),
    _r(
        "multiple-of-narrowed",
        _B,
        _I,
        "multipleOf changed so fewer numbers qualify",
        "{where}: multipleOf {old} -> {new} (fewer numbers qualify)",
        _N,
    ),
    _r(
        "multiple-of-widened",
        _C,
        _I,
        "multipleOf changed to a divisor of the old one",
        "{where}: multipleOf {old} -> {new} (every old multiple still qualifies)",
        _W,
    ),
    _r(
        "multiple-of-changed",
        _B,
        _I,
        "multipleOf changed to an unrelated step",
        "{where}: multipleOf {old} -> {new} (some old values no longer qualify)",
        _X,
    ),
    _r(
        "minimum-added",
        _B,
        _I,
        "a lower bound (minimum) appeared",
        "{where}: minimum {new} added",
        _N,
    ),
    _r(
        "minimum-removed",
        _C,
        _I,
        "the lower bound (minimum) was dropped",
        "{where}: minimum {old} dropped",
        _W,
    ),
    _r(
        "minimum-increased",
        _B,
        _I,
        "the lower bound (minimum) tightened",
        "{where}: minimum {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "minimum-decreased",
        _C,
        _I,
        "the lower bound (minimum) loosened",
        "{where}: minimum {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "maximum-added",
        _B,
        _I,
        "a upper bound (maximum) appeared",
        "{where}: maximum {new} added",
        _N,
    ),
    _r(
        "maximum-removed",
        _C,
        _I,
        "the upper bound (maximum) was dropped",
        "{where}: maximum {old} dropped",
        _W,
    ),
    _r(
        "maximum-decreased",
        _B,
        _I,
        "the upper bound (maximum) tightened",
        "{where}: maximum {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "maximum-increased",
        _C,
        _I,
        "the upper bound (maximum) loosened",
        "{where}: maximum {old} -> {new} (loosened)",
        _W,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_bounds(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    for lower, kws in (
        (True, ("minimum", "exclusiveMinimum")),
        (False, ("maximum", "exclusiveMaximum")),
    ):
        if not any(k in o or k in n for k in kws):
            continue
        bad = [
            (k, s)
            for k in kws
            for s in (o, n)
            if k in s and not (num(s[k]) or isinstance(s[k], bool))
        ]
        if bad:
            if any(not jeq(o.get(k, MISSING), n.get(k, MISSING)) for k in kws):
                side = bad[0][1]
                w.emit(
                    "schema-invalid",
                    pointer_join(np if side is n else op, bad[0][0]),
                    pos,
                    kind=Raw(f"{bad[0][0]} is {kind_of(side[bad[0][0]])}"),
                )
            continue
        ob, nb = _bound(o, *kws, lower), _bound(n, *kws, lower)
        if type_set(o.get("type", MISSING)) == _INTEGER == type_set(n.get("type", MISSING)):
            # On integers "> 0" is ">= 1" and "< 1000000" is "<= 999999": same values.
            ob, nb = _int_bound(ob, lower), _int_bound(nb, lower)
        ids = MINIMUM if lower else MAXIMUM
        ptr_kw = next((k for k in reversed(kws) if k in n and num(n[k])), kws[0])
        ptr = pointer_join(
            np if nb is not None else op,
            ptr_kw if nb is not None else next((k for k in kws if k in o), kws[0]),
        )
        if ob == nb:
            continue
        if ob is None:
            w.emit(ids.added, ptr, pos, new=_show_bound(nb, lower))
            continue
        if nb is None:
            w.emit(ids.removed, ptr, pos, old=_show_bound(ob, lower))
            continue
        tighter = _tighter(nb, ob, lower)
        if tighter is None:
            continue
        w.emit(
            ids.tightened if tighter else ids.loosened,
            ptr,
            pos,
            old=_show_bound(ob, lower),
            new=_show_bound(nb, lower),
        )


def judge_multiple(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    ov, nv = o.get("multipleOf", MISSING), n.get("multipleOf", MISSING)
    if jeq(ov, nv):
        return
    ptr = pointer_join(np if nv is not MISSING else op, "multipleOf")
    for v in (ov, nv):
        if v is not MISSING and not (num(v) and v > 0):
            w.emit("schema-invalid", ptr, pos, kind=Raw(f"multipleOf {quote(v)}"))
            return
    if ov is MISSING:
        w.emit("multiple-of-added", ptr, pos, new=nv)
        return
    if nv is MISSING:
        w.emit("multiple-of-removed", ptr, pos, old=ov)
        return
    fo, fn = frac(ov), frac(nv)
    if fo == fn:
        return
    if fo % fn == 0:  # every multiple of old is a multiple of new
        w.emit("multiple-of-widened", ptr, pos, old=ov, new=nv)
    elif fn % fo == 0:
        w.emit("multiple-of-narrowed", ptr, pos, old=ov, new=nv)
    else:
        w.emit("multiple-of-changed", ptr, pos, old=ov, new=nv)


def _bound(s: dict[str, Any], plain: str, excl: str, lower: bool) -> tuple[Any, bool] | None:
    """Effective bound as (value, exclusive); draft-04 boolean and numeric forms alike."""
    best: tuple[Any, bool] | None = None
    if num(s.get(plain)):
        best = (s[plain], s.get(excl) is True)
    ev = s.get(excl)
    if num(ev):
        cand = (ev, True)
        if best is None or _tighter(cand, best, lower):
            best = cand
    return best


_INTEGER = frozenset({"integer"})


def _int_bound(b: tuple[Any, bool] | None, lower: bool) -> tuple[Any, bool] | None:
    """An integer-only bound as the inclusive integer bound that admits the same integers."""
    if b is None:
        return None
    v, excl = b
    try:
        f = frac(v)
    except (ValueError, TypeError, OverflowError, ZeroDivisionError):
        return b
    if lower:
        k = math.floor(f) + 1 if excl else math.ceil(f)
    else:
        k = math.ceil(f) - 1 if excl else math.floor(f)
    return (k, False)


def _tighter(a: tuple[Any, bool], b: tuple[Any, bool], lower: bool) -> bool | None:
    """True if bound ``a`` admits less than ``b``, False if more, None if the same."""
    if a[0] != b[0]:
        return bool(a[0] > b[0]) if lower else bool(a[0] < b[0])
    if a[1] == b[1]:
        return None
    return a[1]


def _show_bound(b: tuple[Any, bool] | None, lower: bool) -> Raw:
    if b is None:
        return Raw("(none)")
    op = (">" if lower else "<") + ("" if b[1] else "=")
    return Raw(f"{op} {quote(b[0])}")


MINIMUM = Bound("minimum-added", "minimum-removed", "minimum-increased", "minimum-decreased")
MAXIMUM = Bound("maximum-added", "maximum-removed", "maximum-decreased", "maximum-increased")


HANDLERS: dict[str, Handler] = {
    "minimum": judge_bounds,
    "maximum": judge_bounds,
    "exclusiveMinimum": judge_bounds,
    "exclusiveMaximum": judge_bounds,
    "multipleOf": judge_multiple,
}
"""The keywords this family judges, and the handler the walker calls for each."""

INSTANCE_TYPES: dict[str, frozenset[str]] = dict.fromkeys(
    ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    frozenset(("number", "integer")),
)
"""The instance types these keywords constrain (on any other type they are no-ops)."""
INTERACTING = (
    frozenset({"minimum", "exclusiveMinimum"}),
    frozenset({"maximum", "exclusiveMaximum"}),
)
"""Keywords read together (draft-04's boolean exclusive bounds): never split across an allOf."""
