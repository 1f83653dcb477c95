"""Server-written text inside the schemas that the model reads: descriptions, titles, ``$comment``,
``examples``, new text anywhere, defaults, and the cosmetic whitespace / normalisation edits."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Rule
from mcp_review.core.rules.registry import rule as _r

_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_I = Direction.INPUT

RULES: tuple[Rule, ...] = (
    _r("schema-description-changed", _TR, _I, "a description inside a schema changed",
       "{where}: description changed: {delta}"),
    _r("schema-title-changed", _TR, _I, "a title inside a schema changed",
       "{where}: title changed: {delta}"),
    _r("schema-comment-changed", _TR, _I,
       "a $comment inside a schema gained or changed text (the model reads the whole schema)",
       "{where}: $comment changed: {delta}"),
    _r("schema-examples-changed", _TR, _I,
       "examples inside a schema gained text the model reads",
       "{where}: {field} gained text: {added}"),
    _r("schema-text-added", _TR, _I,
       "server-written text the old definition did not have, where no other change names it "
       "(an unreferenced $defs entry, a folded allOf part, ...)",
       "{where}: new {field} text: {delta}"),
    _r("text-whitespace-changed", _CO, _I, "only whitespace changed in a text field",
       "{where}: {field} changed in whitespace only"),
    _r("text-normalization-changed", _CO, _I,
       "a text field changed only in Unicode normalisation (NFC-equal)",
       "{where}: {field} changed in Unicode normalisation only (same text under NFC)"),
    _r("default-changed", _TR, _I, "a default value changed: same calls, different behaviour",
       "{where}: default changed {old} -> {new} (calls that omit it now behave differently)"),
    _r("default-added", _TR, _I, "a default value was declared",
       "{where}: default {new} declared (calls that omit it may behave differently)"),
    _r("default-removed", _TR, _I, "a default value was dropped",
       "{where}: default {old} dropped (calls that omit it may behave differently)"),
)
