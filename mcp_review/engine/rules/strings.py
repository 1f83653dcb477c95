"""Strings: ``pattern``, ``format``, ``minLength``, ``maxLength``, ``contentEncoding`` and
``contentMediaType``.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from typing import NamedTuple

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    CONTENT,
    MISSING,
    Bound,
    Count,
    Handler,
    Judge,
    Pair,
    jeq,
    opt,
)
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import Raw

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r(
        "pattern-added",
        _P,
        _I,
        "a regex pattern now restricts a string",
        "{where}: pattern {new} added",
        Effect.MAYBE_NARROW,
    ),
    _r(
        "pattern-removed",
        _C,
        _I,
        "the regex pattern was dropped",
        "{where}: pattern {old} dropped",
        Effect.MAYBE_WIDEN,
    ),
    _r(
        "pattern-changed",
        _P,
        _I,
        "the regex pattern changed (subset not decidable here)",
        "{where}: pattern changed {old} -> {new}",
        _U,
    ),
    _r(
        "format-added",
        _P,
        _I,
        "a format now restricts a string (if the server validates it)",
        "{where}: format {new} added",
        Effect.MAYBE_NARROW,
    ),
    _r(
        "format-removed",
        _C,
        _I,
        "the format was dropped",
        "{where}: format {old} dropped",
        Effect.MAYBE_WIDEN,
    ),
    _r(
        "format-changed", _P, _I, "the format changed", "{where}: format changed {old} -> {new}", _U
    ),
    _r(
        "string-content-changed",
        _P,
        _I,
        "contentEncoding or contentMediaType was added, dropped or changed: the server reads "
        "the same string differently (base64 decoded, parsed as JSON, ...)",
        "{where}: {keyword} {old} -> {new} (the string is read differently)",
        _U,
    ),
    _r(
        "min-length-added",
        _B,
        _I,
        "a minimum length (minLength) appeared",
        "{where}: minLength {new} added",
        _N,
    ),
    _r(
        "min-length-removed",
        _C,
        _I,
        "the minimum length (minLength) was dropped",
        "{where}: minLength {old} dropped",
        _W,
    ),
    _r(
        "min-length-increased",
        _B,
        _I,
        "the minimum length (minLength) tightened",
        "{where}: minLength {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "min-length-decreased",
        _C,
        _I,
        "the minimum length (minLength) loosened",
        "{where}: minLength {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "max-length-added",
        _B,
        _I,
        "a maximum length (maxLength) appeared",
        "{where}: maxLength {new} added",
        _N,
    ),
    _r(
        "max-length-removed",
        _C,
        _I,
        "the maximum length (maxLength) was dropped",
        "{where}: maxLength {old} dropped",
        _W,
    ),
    _r(
        "max-length-decreased",
        _B,
        _I,
        "the maximum length (maxLength) tightened",
        "{where}: maxLength {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "max-length-increased",
        _C,
        _I,
        "the maximum length (maxLength) loosened",
        "{where}: maxLength {old} -> {new} (loosened)",
        _W,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_pattern_and_format(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    for kw, ids in (("pattern", PATTERN), ("format", FORMAT)):
        ov, nv = o.get(kw, MISSING), n.get(kw, MISSING)
        if jeq(ov, nv):
            continue
        if ov is MISSING:
            w.emit(ids.added, pointer_join(np, kw), pos, new=nv)
        elif nv is MISSING:
            w.emit(ids.removed, pointer_join(op, kw), pos, old=ov)
        else:
            w.emit(ids.changed, pointer_join(np, kw), pos, old=ov, new=nv)


def judge_content(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    for kw in sorted(CONTENT):
        ov, nv = o.get(kw, MISSING), n.get(kw, MISSING)
        if not jeq(ov, nv):
            ptr = pointer_join(np if nv is not MISSING else op, kw)
            w.emit("string-content-changed", ptr, pos, keyword=Raw(kw), old=opt(ov), new=opt(nv))


class _Edit(NamedTuple):
    added: str
    removed: str
    changed: str


PATTERN = _Edit("pattern-added", "pattern-removed", "pattern-changed")
FORMAT = _Edit("format-added", "format-removed", "format-changed")
LENGTHS = (
    Count(
        "minLength",
        Bound(
            "min-length-added", "min-length-removed", "min-length-increased", "min-length-decreased"
        ),
        True,
        0,
    ),
    Count(
        "maxLength",
        Bound(
            "max-length-added", "max-length-removed", "max-length-decreased", "max-length-increased"
        ),
        False,
        None,
    ),
)
"""minLength and maxLength (judged with the other counts, see ``kit.counts_judge``)."""


HANDLERS: dict[str, Handler] = {
    "pattern": judge_pattern_and_format,
    "format": judge_pattern_and_format,
    **dict.fromkeys(CONTENT, judge_content),
}
"""The keywords this family judges, and the handler the walker calls for each."""

COUNTS = LENGTHS
"""The count keywords this family owns (judged by one handler with the other counts)."""
INSTANCE_TYPES: dict[str, frozenset[str]] = dict.fromkeys(
    ("minLength", "maxLength", "pattern"), frozenset(("string",))
)
"""The instance types these keywords constrain (on any other type they are no-ops)."""
