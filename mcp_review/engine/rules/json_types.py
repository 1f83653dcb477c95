"""``type``: JSON types accepted, dropped, added.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    Handler,
    Judge,
    Pair,
    covered,
    covers_all,
    tlist,
    type_set,
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
        "type-narrowed",
        _B,
        _I,
        "fewer JSON types are accepted",
        "{where}: type narrowed {old} -> {new} (no longer accepts {lost})",
        _N,
    ),
    _r(
        "type-widened",
        _C,
        _I,
        "more JSON types are accepted",
        "{where}: type widened {old} -> {new}",
        _W,
    ),
    _r(
        "type-changed",
        _B,
        _I,
        "types were both dropped and added",
        "{where}: type changed {old} -> {new} (no longer accepts {lost})",
        _X,
    ),
    _r(
        "type-added",
        _B,
        _I,
        "a type constraint appeared where any type was accepted",
        "{where}: type {new} required where any type was accepted",
        _N,
    ),
    _r(
        "type-removed",
        _C,
        _I,
        "the type constraint was dropped: any type accepted",
        "{where}: type {old} dropped: any type accepted",
        _W,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_type(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    ot, nt = type_set(o.get("type", MISSING)), type_set(n.get("type", MISSING))
    if ot == nt:
        return
    ptr = pointer_join(np if "type" in n else op, "type")
    if ot is None:
        if not covers_all(nt):
            w.emit("type-added", ptr, pos, new=tlist(nt))
        return
    if nt is None:
        if not covers_all(ot):
            w.emit("type-removed", ptr, pos, old=tlist(ot))
        return
    lost = [t for t in sorted(ot) if not covered(t, nt)]
    gained = [t for t in sorted(nt) if not covered(t, ot)]
    if lost and gained:
        w.emit("type-changed", ptr, pos, old=tlist(ot), new=tlist(nt), lost=lost)
    elif lost:
        w.emit("type-narrowed", ptr, pos, old=tlist(ot), new=tlist(nt), lost=lost)
    elif gained:
        w.emit("type-widened", ptr, pos, old=tlist(ot), new=tlist(nt))


HANDLERS: dict[str, Handler] = {
    "type": judge_type,
}
"""The keywords this family judges, and the handler the walker calls for each."""
