"""Composition: ``anyOf``, ``oneOf``, ``allOf``, ``not`` and ``if`` / ``then`` / ``else``."""

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
    _r("any-of-branch-added", _C, _I, "an anyOf alternative was added",
       "{where}: anyOf alternative added: {branch}", _W),
    _r("any-of-branch-removed", _B, _I, "an anyOf alternative was removed",
       "{where}: anyOf alternative removed: {branch}", _N),
    _r("one-of-branch-added", _P, _I,
       "a oneOf alternative was added (a value matching two now fails)",
       "{where}: oneOf alternative added: {branch} (values matching two alternatives now fail)",
       _U),
    _r("one-of-branch-removed", _B, _I, "a oneOf alternative was removed",
       "{where}: oneOf alternative removed: {branch}", _N),
    _r("all-of-branch-added", _B, _I, "an allOf constraint was added",
       "{where}: allOf constraint added: {branch}", _N),
    _r("all-of-branch-removed", _C, _I, "an allOf constraint was removed",
       "{where}: allOf constraint removed: {branch}", _W),
    _r("composition-added", _B, _I, "anyOf/oneOf now constrains a value that was free",
       "{where}: {keyword} added: a value must now match one of its alternatives", _N),
    _r("composition-removed", _C, _I, "an anyOf/oneOf constraint was dropped",
       "{where}: {keyword} dropped: its alternatives no longer restrict the value", _W),
    _r("not-added", _B, _I, "a not constraint was added", "{where}: not {branch} added", _N),
    _r("not-removed", _C, _I, "a not constraint was removed",
       "{where}: not {branch} removed", _W),
    _r("if-changed", _P, _I, "an if condition was added, removed or changed",
       "{where}: if condition {how}; which branch applies to a call may change", _U),
    _r("conditional-branch-added", _B, _I, "a then/else branch was added",
       "{where}: {keyword} branch added", _N),
    _r("conditional-branch-removed", _C, _I, "a then/else branch was removed",
       "{where}: {keyword} branch removed", _W),
)
