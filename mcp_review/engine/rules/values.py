"""``enum`` and ``const``: the allowed values.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    Handler,
    Judge,
    Pair,
    allowed,
)
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_X = Effect.BOTH

RULES: tuple[Rule, ...] = (
    _r(
        "enum-narrowed",
        _B,
        _I,
        "allowed values were dropped",
        "{where}: enum shrank: dropped {dropped}",
        _N,
    ),
    _r(
        "enum-widened", _C, _I, "allowed values were added", "{where}: enum grew: added {added}", _W
    ),
    _r(
        "enum-changed",
        _B,
        _I,
        "allowed values were both dropped and added",
        "{where}: enum changed: dropped {dropped}, added {added}",
        _X,
    ),
    _r(
        "enum-added",
        _B,
        _I,
        "an enum now restricts a value that was free",
        "{where}: now restricted to {new}",
        _N,
    ),
    _r(
        "enum-removed",
        _C,
        _I,
        "the enum restriction was dropped",
        "{where}: enum {old} dropped: any value of the type accepted",
        _W,
    ),
    _r(
        "const-changed",
        _B,
        _I,
        "the single allowed value changed",
        "{where}: const changed {old} -> {new}",
        _X,
    ),
    _r(
        "const-added",
        _B,
        _I,
        "a const now fixes a value that was free",
        "{where}: now fixed to {new}",
        _N,
    ),
    _r("const-removed", _C, _I, "the const was dropped", "{where}: const {old} dropped", _W),
)


# Judging ------------------------------------------------------------------------------------------


def judge_values(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    ov, nv = allowed(o), allowed(n)
    if ov is None and nv is None:
        return
    const_only = "enum" not in o and "enum" not in n
    side, base = (n, np) if ("enum" in n or "const" in n) else (o, op)
    ptr = pointer_join(base, "enum" if "enum" in side else "const")
    if ov is None:
        assert nv is not None
        if const_only:
            w.emit("const-added", ptr, pos, new=n["const"])
        else:
            w.emit("enum-added", ptr, pos, new=list(nv.values()))
        return
    if nv is None:
        if const_only:
            w.emit("const-removed", ptr, pos, old=o["const"])
        else:
            w.emit("enum-removed", ptr, pos, old=list(ov.values()))
        return
    dropped = [v for k, v in ov.items() if k not in nv]
    added = [v for k, v in nv.items() if k not in ov]
    if not dropped and not added:
        return
    if const_only:
        w.emit("const-changed", ptr, pos, old=o["const"], new=n["const"])
    elif dropped and added:
        w.emit("enum-changed", ptr, pos, dropped=dropped, added=added)
    elif dropped:
        w.emit("enum-narrowed", ptr, pos, dropped=dropped)
    else:
        w.emit("enum-widened", ptr, pos, added=added)


HANDLERS: dict[str, Handler] = {
    "enum": judge_values,
    "const": judge_values,
}
"""The keywords this family judges, and the handler the walker calls for each."""
