"""Objects: properties added and removed, ``required``, ``additionalProperties``,
``patternProperties``, ``propertyNames``, dependencies and property counts."""

from __future__ import annotations

from mcp_review.core.model import ChangeClass, Direction
from mcp_review.core.rules.registry import Effect, Rule, Witness
from mcp_review.core.rules.registry import rule as _r

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r("property-added-optional", _C, _I,
       "an optional property was declared (closed world: old calls never set it)",
       "{parent}: optional property {name} added (old calls stay valid)",
       witness=Witness.OMIT),
    _r("property-added-required", _B, _I, "a required property was declared: old calls omit it",
       "{parent}: required property {name} added (old calls omit it)", _N,
       witness=Witness.OMIT_REQUIRED),
    _r("property-removed-closed", _B, _I,
       "a property was removed from an object that rejects undeclared keys",
       "{parent}: property {name} removed under additionalProperties {ap} "
       "(a call using it is now rejected)", _N),
    _r("property-removed-open", _P, _I,
       "a property was removed from an open object",
       "{parent}: property {name} removed (calls that set it still validate but the server may "
       "now ignore it)", _U),
    _r("property-rename-suspected", _P, _I,
       "one property removed and one with the same schema added: probably a rename",
       "{parent}: property {old} looks renamed to {new} (same schema); calls sending {old} "
       "need updating",
       witness=Witness.HINT),
    _r("required-added", _B, _I, "an existing property became required",
       "{where}: property {name} is now required", _N,
       witness=Witness.OMIT_REQUIRED),
    _r("required-removed", _C, _I, "a property is no longer required",
       "{where}: property {name} is no longer required", _W,
       witness=Witness.OMIT_REQUIRED),
    _r("additional-properties-closed", _B, _I,
       "undeclared keys were accepted and are now rejected",
       "{where}: additionalProperties {old} -> false: a call with an extra key is now rejected",
       _N),
    _r("additional-properties-restricted", _B, _I,
       "undeclared keys were free and must now match a schema",
       "{where}: additionalProperties {old} -> a schema: extra keys must now match it", _N),
    _r("additional-properties-opened", _C, _I, "undeclared keys are accepted more freely",
       "{where}: additionalProperties {old} -> {new}", _W),
    _r("pattern-property-added", _B, _I, "a patternProperties entry was added",
       "{where}: patternProperties {pattern} added", _N,
       # Leaving the matching key out first, as for an added property (kept from when the
       # strategy was read off the id, which contains "property-added").
       witness=Witness.OMIT),
    _r("pattern-property-removed", _C, _I, "a patternProperties entry was removed",
       "{where}: patternProperties {pattern} removed", _W),
    _r("property-names-added", _B, _I, "property names are now constrained",
       "{where}: propertyNames constraint added", _N),
    _r("property-names-removed", _C, _I, "the propertyNames constraint was dropped",
       "{where}: propertyNames constraint dropped", _W),
    _r("dependent-required-added", _B, _I,
       "setting a property now requires others",
       "{where}: setting {name} now also requires {names}", _N,
       witness=Witness.OMIT_REQUIRED),
    _r("dependent-required-removed", _C, _I, "a dependentRequired requirement was dropped",
       "{where}: setting {name} no longer requires {names}", _W,
       witness=Witness.OMIT_REQUIRED),
    _r("dependent-schema-added", _B, _I, "setting a property now imposes a schema",
       "{where}: setting {name} now imposes a dependent schema", _N),
    _r("dependent-schema-removed", _C, _I, "a dependent schema was dropped",
       "{where}: setting {name} no longer imposes a dependent schema", _W),
    _r("min-properties-added", _B, _I, "a minimum property count (minProperties) appeared",
       "{where}: minProperties {new} added", _N),
    _r("min-properties-removed", _C, _I, "the minimum property count (minProperties) was dropped",
       "{where}: minProperties {old} dropped", _W),
    _r("min-properties-increased", _B, _I, "the minimum property count (minProperties) tightened",
       "{where}: minProperties {old} -> {new} (tightened)", _N),
    _r("min-properties-decreased", _C, _I, "the minimum property count (minProperties) loosened",
       "{where}: minProperties {old} -> {new} (loosened)", _W),
    _r("max-properties-added", _B, _I, "a maximum property count (maxProperties) appeared",
       "{where}: maxProperties {new} added", _N),
    _r("max-properties-removed", _C, _I, "the maximum property count (maxProperties) was dropped",
       "{where}: maxProperties {old} dropped", _W),
    _r("max-properties-decreased", _B, _I, "the maximum property count (maxProperties) tightened",
       "{where}: maxProperties {old} -> {new} (tightened)", _N),
    _r("max-properties-increased", _C, _I, "the maximum property count (maxProperties) loosened",
       "{where}: maxProperties {old} -> {new} (loosened)", _W),
)
