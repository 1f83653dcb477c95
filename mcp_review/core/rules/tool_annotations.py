"""Tool annotations (MCP hints): a hint relaxed, a claim of less power, a default written out,
the annotation title, hints this tool does not know."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Rule
from mcp_review.core.rules.registry import rule as _r

_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r("annotation-relaxed", _TR, _T,
       "a safety hint moved towards more power (MCP defaults apply when absent)",
       "annotation {hint} relaxed: {old} -> {new} ({meaning})"),
    _r("annotation-gates-less", _TR, _T,
       "a safety hint now claims less power, so clients gate the tool less (MCP defaults "
       "apply when absent): never approved automatically",
       "annotation {hint} now claims less: {old} -> {new} ({meaning}); never approved "
       "automatically"),
    _r("annotation-explicit-default", _CO, _T,
       "a hint was written out or dropped with the MCP default value: same meaning",
       "annotation {hint}: {old} -> {new} (same effective value {value})"),
    _r("annotation-title-changed", _TR, _T, "annotations.title changed",
       "annotation title changed: {delta}"),
    _r("annotation-other-changed", _TR, _T, "an annotation this tool does not know changed",
       "annotation {key} changed: {old} -> {new}"),
)
