"""The tool around its schemas: name, description, title, outputSchema declared or dropped,
``execution``, ``icons`` and ``_meta``."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Rule
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r("tool-renamed", _B, _T, "the tool's name changed: calls by the old name fail",
       "tool renamed {old} -> {new}: calls by the old name fail"),
    _r("tool-description-changed", _TR, _T, "the tool description text changed",
       "tool description changed: {delta}"),
    _r("tool-title-changed", _TR, _T, "the tool title changed", "tool title changed: {delta}"),
    _r("output-schema-added", _C, _T, "an outputSchema was declared where none was",
       "outputSchema added: results are now described"),
    _r("output-schema-removed", _P, _T, "the outputSchema was dropped",
       "outputSchema removed: results are no longer promised to have any shape"),
    _r("execution-changed", _P, _T,
       "the tool's execution contract changed (e.g. taskSupport forbidden -> required)",
       "execution {key} changed: {old} -> {new}{meaning}"),
    _r("icons-changed", _TR, _T, "the tool's icons changed: server-chosen content shown to users",
       "icons changed: {old} -> {new}"),
    _r("meta-changed", _CO, _T,
       "_meta changed: shown for review, not part of the contract (never hashed)",
       "_meta {key} changed: {old} -> {new} (not hashed: not part of the pinned contract)"),
)
