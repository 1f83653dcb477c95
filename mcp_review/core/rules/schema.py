"""The schema as a whole and the keywords no family owns: a schema that rejects everything,
an invalid or too-deep schema, an engine failure, ``$schema``, annotation keywords,
``x-mcp-header`` and keywords the classifier does not understand."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Effect, Rule, Witness
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_CO = ChangeClass.COSMETIC
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r("schema-now-false", _B, _I, "a schema now rejects every value",
       "{where}: now rejects every value", _N),
    _r("schema-no-longer-false", _C, _I, "a schema that rejected every value now accepts some",
       "{where}: no longer rejects every value", _W),
    _r("schema-invalid", _P, _I, "a schema is neither an object nor a boolean",
       "{where}: not a valid schema ({kind}); cannot compare"),
    _r("schema-too-deep", _P, _I, "nesting beyond the walker's limit; not compared",
       "{where}: nested deeper than {limit} levels; not compared"),
    _r("engine-error", _P, _I,
       "the engine failed on this part of the definition; it is not compared",
       "{where}: not compared: the engine failed here ({error}); review it by hand"),
    _r("schema-dialect-changed", _CO, _I,
       "$schema changed; the walker normalises draft-07 and 2020-12 forms",
       "{where}: $schema changed {old} -> {new}"),
    _r("schema-annotation-changed", _CO, _I,
       "an annotation keyword (deprecated, readOnly, ...) changed, or examples/$comment lost "
       "text or changed only in whitespace (removed text puts nothing new before the model)",
       "{where}: annotation {keyword} changed: {old} -> {new}"),
    _r("header-mapping-changed", _P, _I,
       "a property's x-mcp-header mapping was added, removed or renamed",
       "{where}: x-mcp-header {how} ({old} -> {new}): on HTTP the argument now travels in "
       "another header, which can break routing",
       witness=Witness.HINT),
    _r("unsupported-keyword-changed", _P, _I,
       "a keyword the classifier does not understand was added, removed or changed",
       "{where}: keyword {keyword} {how} ({old} -> {new}); effect unknown", _U),
)
