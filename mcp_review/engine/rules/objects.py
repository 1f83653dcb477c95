"""Objects: properties added and removed, ``required``, ``additionalProperties``,
``patternProperties``, ``propertyNames``, dependencies and property counts.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

import re
from typing import Any

from mcp_review.engine.model import (
    CLASS_ORDER,
    Change,
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    NO_CONSTRAINT,
    Bound,
    Count,
    Handler,
    Judge,
    Pair,
    accepts_all,
    dict_of,
    has_ref,
    jeq,
    names,
    rejects_all,
    shape_key,
    type_set,
)
from mcp_review.engine.rules.registry import Effect, Rule, Witness
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
)

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

# Rule ids (one literal each): consumers outside engine/rules/ name a rule by these.
PROPERTY_REMOVED_CLOSED = "property-removed-closed"
PROPERTY_REMOVED_OPEN = "property-removed-open"
PROPERTY_ADDED_REQUIRED = "property-added-required"
PROPERTY_ADDED_OPTIONAL = "property-added-optional"
PROPERTY_RENAME_SUSPECTED = "property-rename-suspected"

RULES: tuple[Rule, ...] = (
    _r(
        PROPERTY_ADDED_OPTIONAL,
        _C,
        _I,
        "an optional property was declared (closed world: old calls never set it)",
        "{parent}: optional property {name} added (old calls stay valid)",
        witness=Witness.OMIT,
    ),
    _r(
        PROPERTY_ADDED_REQUIRED,
        _B,
        _I,
        "a required property was declared: old calls omit it",
        "{parent}: required property {name} added (old calls omit it)",
        _N,
        witness=Witness.OMIT_REQUIRED,
        adds_required=True,
    ),
    _r(
        PROPERTY_REMOVED_CLOSED,
        _B,
        _I,
        "a property was removed from an object that rejects undeclared keys",
        "{parent}: property {name} removed under additionalProperties {ap} "
        "(a call using it is now rejected)",
        _N,
    ),
    _r(
        PROPERTY_REMOVED_OPEN,
        _P,
        _I,
        "a property was removed from an open object",
        "{parent}: property {name} removed (calls that set it still validate but the server may "
        "now ignore it)",
        _U,
    ),
    _r(
        PROPERTY_RENAME_SUSPECTED,
        _P,
        _I,
        "one property removed and one with the same schema added: probably a rename",
        "{parent}: property {old} looks renamed to {new} (same schema); calls sending {old} "
        "need updating",
        witness=Witness.HINT,
    ),
    _r(
        "required-added",
        _B,
        _I,
        "an existing property became required",
        "{where}: property {name} is now required",
        _N,
        witness=Witness.OMIT_REQUIRED,
        adds_required=True,
    ),
    _r(
        "required-removed",
        _C,
        _I,
        "a property is no longer required",
        "{where}: property {name} is no longer required",
        _W,
        witness=Witness.OMIT_REQUIRED,
    ),
    _r(
        "additional-properties-closed",
        _B,
        _I,
        "undeclared keys were accepted and are now rejected",
        "{where}: additionalProperties {old} -> false: a call with an extra key is now rejected",
        _N,
        at_keyword=True,
    ),
    _r(
        "additional-properties-restricted",
        _B,
        _I,
        "undeclared keys were free and must now match a schema",
        "{where}: additionalProperties {old} -> a schema: extra keys must now match it",
        _N,
        at_keyword=True,
    ),
    _r(
        "additional-properties-opened",
        _C,
        _I,
        "undeclared keys are accepted more freely",
        "{where}: additionalProperties {old} -> {new}",
        _W,
        at_keyword=True,
    ),
    _r(
        "pattern-property-added",
        _B,
        _I,
        "a patternProperties entry was added",
        "{where}: patternProperties {pattern} added",
        _N,
        # Leaving the matching key out first, as for an added property (kept from when the
        # strategy was read off the id, which contains "property-added").
        witness=Witness.OMIT,
        at_keyword=True,
    ),
    _r(
        "pattern-property-removed",
        _C,
        _I,
        "a patternProperties entry was removed",
        "{where}: patternProperties {pattern} removed",
        _W,
        at_keyword=True,
    ),
    _r(
        "property-names-added",
        _B,
        _I,
        "property names are now constrained",
        "{where}: propertyNames constraint added",
        _N,
        at_keyword=True,
    ),
    _r(
        "property-names-removed",
        _C,
        _I,
        "the propertyNames constraint was dropped",
        "{where}: propertyNames constraint dropped",
        _W,
        at_keyword=True,
    ),
    _r(
        "dependent-required-added",
        _B,
        _I,
        "setting a property now requires others",
        "{where}: setting {name} now also requires {names}",
        _N,
        witness=Witness.OMIT_REQUIRED,
        at_keyword=True,
    ),
    _r(
        "dependent-required-removed",
        _C,
        _I,
        "a dependentRequired requirement was dropped",
        "{where}: setting {name} no longer requires {names}",
        _W,
        witness=Witness.OMIT_REQUIRED,
        at_keyword=True,
    ),
    _r(
        "dependent-schema-added",
        _B,
        _I,
        "setting a property now imposes a schema",
        "{where}: setting {name} now imposes a dependent schema",
        _N,
        at_keyword=True,
    ),
    _r(
        "dependent-schema-removed",
        _C,
        _I,
        "a dependent schema was dropped",
        "{where}: setting {name} no longer imposes a dependent schema",
        _W,
        at_keyword=True,
    ),
    _r(
        "min-properties-added",
        _B,
        _I,
        "a minimum property count (minProperties) appeared",
        "{where}: minProperties {new} added",
        _N,
    ),
    _r(
        "min-properties-removed",
        _C,
        _I,
        "the minimum property count (minProperties) was dropped",
        "{where}: minProperties {old} dropped",
        _W,
    ),
    _r(
        "min-properties-increased",
        _B,
        _I,
        "the minimum property count (minProperties) tightened",
        "{where}: minProperties {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "min-properties-decreased",
        _C,
        _I,
        "the minimum property count (minProperties) loosened",
        "{where}: minProperties {old} -> {new} (loosened)",
        _W,
    ),
    _r(
        "max-properties-added",
        _B,
        _I,
        "a maximum property count (maxProperties) appeared",
        "{where}: maxProperties {new} added",
        _N,
    ),
    _r(
        "max-properties-removed",
        _C,
        _I,
        "the maximum property count (maxProperties) was dropped",
        "{where}: maxProperties {old} dropped",
        _W,
    ),
    _r(
        "max-properties-decreased",
        _B,
        _I,
        "the maximum property count (maxProperties) tightened",
        "{where}: maxProperties {old} -> {new} (tightened)",
        _N,
    ),
    _r(
        "max-properties-increased",
        _C,
        _I,
        "the maximum property count (maxProperties) loosened",
        "{where}: maxProperties {old} -> {new} (loosened)",
        _W,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_object(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    oprops, nprops = dict_of(o.get("properties")), dict_of(n.get("properties"))
    oreq, nreq = names(o.get("required")), names(n.get("required"))
    oap, nap = o.get("additionalProperties", True), n.get("additionalProperties", True)
    opat, npat = dict_of(o.get("patternProperties")), dict_of(n.get("patternProperties"))
    o_open = accepts_all(oap)
    n_open = accepts_all(nap)
    for name, sub in nprops.items():
        if name in oprops:
            w.diff(
                oprops[name],
                sub,
                pointer_join(op, "properties", name),
                pointer_join(np, "properties", name),
                pos,
                depth + 1,
            )
    removed: dict[str, Change] = {}
    added: dict[str, Change] = {}
    for name, sub in oprops.items():
        if name in nprops:
            continue
        pat = _matching_pattern(npat, name)
        if pat is not None:
            # The key is still judged, now by a patternProperties schema.
            w.diff(
                sub,
                npat[pat],
                pointer_join(op, "properties", name),
                pointer_join(np, "patternProperties", pat),
                pos,
                depth + 1,
            )
            continue
        if isinstance(nap, dict) and not n_open and not rejects_all(nap):
            # Not removed: the key is still accepted, now by additionalProperties (an object
            # re-expressed as a map): judged against that schema, as for a pattern.
            w.diff(
                sub,
                nap,
                pointer_join(op, "properties", name),
                pointer_join(np, "additionalProperties"),
                pos,
                depth + 1,
            )
            continue
        ptr = pointer_join(op, "properties", name)
        if n_open:
            removed[name] = w.emit(PROPERTY_REMOVED_OPEN, ptr, pos, name=name)
        else:
            removed[name] = w.emit(
                PROPERTY_REMOVED_CLOSED,
                ptr,
                pos,
                name=name,
                ap=Raw("false" if rejects_all(nap) else "(a schema)"),
            )
    for name in nprops:
        if name in oprops:
            continue
        ptr = pointer_join(np, "properties", name)
        if name in nreq:
            # On an object that rejected the key outright, every new value carries a key the
            # old schema refused: values lost and gained (breaking on the output side too).
            eff = (
                Effect.BOTH if rejects_all(oap) and _matching_pattern(opat, name) is None else None
            )
            added[name] = w.emit(PROPERTY_ADDED_REQUIRED, ptr, pos, effect=eff, name=name)
        else:
            # On a closed object the new key was rejected before: a real widening (which
            # flips to breaking on the output side); on an open one, closed world applies.
            eff = None if o_open else Effect.WIDEN
            added[name] = w.emit(PROPERTY_ADDED_OPTIONAL, ptr, pos, effect=eff, name=name)
    for name in sorted(nreq - oreq):
        if name not in added:
            w.emit("required-added", pointer_join(np, "required"), pos, name=name)
    for name in sorted(oreq - nreq):
        if name in removed and pos:
            continue  # implied by the removal, and harmless on the input side
        w.emit("required-removed", pointer_join(op, "required"), pos, name=name)
    if removed and added:
        _renames(w, oprops, nprops, removed, added, np, pos)
    _additional(w, oap, nap, op, np, pos, depth)
    _patterns(w, opat, npat, oprops, nprops, o_open, n_open, op, np, pos, depth)


def _renames(
    w: Judge,
    oprops: dict[str, Any],
    nprops: dict[str, Any],
    removed: dict[str, Change],
    added: dict[str, Change],
    np: str,
    pos: bool,
) -> None:
    by_shape: dict[str, list[str]] = {}
    for name in added:
        by_shape.setdefault(shape_key(nprops[name]), []).append(name)
    old_by_shape: dict[str, list[str]] = {}
    for name in removed:
        old_by_shape.setdefault(shape_key(oprops[name]), []).append(name)
    for shape, olds in old_by_shape.items():
        news = by_shape.get(shape, [])
        if len(olds) == 1 and len(news) == 1:  # only an unambiguous pair is a hint
            a, b = olds[0], news[0]
            cls = min((removed[a].cls, added[b].cls), key=CLASS_ORDER.__getitem__)
            w.emit(
                PROPERTY_RENAME_SUSPECTED,
                pointer_join(np, "properties", b),
                pos,
                cls=cls,
                old=a,
                new=b,
            )


def _additional(w: Judge, oap: Any, nap: Any, op: str, np: str, pos: bool, depth: int) -> None:
    if jeq(oap, nap) and not has_ref(oap):
        return
    ptr = pointer_join(np, "additionalProperties")
    oa, na = accepts_all(oap), accepts_all(nap)
    orj, nrj = rejects_all(oap), rejects_all(nap)
    if (oa and na) or (orj and nrj):
        return
    show = _ap_text(oap)
    if nrj:
        w.emit("additional-properties-closed", ptr, pos, old=show)
    elif orj or na:
        w.emit("additional-properties-opened", ptr, pos, old=show, new=_ap_text(nap))
    elif oa:
        w.emit("additional-properties-restricted", ptr, pos, old=show)
    else:
        w.diff(oap, nap, pointer_join(op, "additionalProperties"), ptr, pos, depth + 1)


def _patterns(
    w: Judge,
    opat: dict[str, Any],
    npat: dict[str, Any],
    oprops: dict[str, Any],
    nprops: dict[str, Any],
    o_open: bool,
    n_open: bool,
    op: str,
    np: str,
    pos: bool,
    depth: int,
) -> None:
    for pat, sub in npat.items():
        ptr = pointer_join(np, "patternProperties", pat)
        if pat in opat:
            w.diff(opat[pat], sub, pointer_join(op, "patternProperties", pat), ptr, pos, depth + 1)
            continue
        # Added: constrains matching keys on an open object; admits them on a closed one;
        # what it does to a declared property it also matches is not decidable here.
        eff = (
            Effect.UNKNOWN
            if _matches_any(pat, nprops)
            else Effect.NARROW
            if o_open
            else Effect.WIDEN
        )
        w.emit("pattern-property-added", ptr, pos, effect=eff, pattern=pat)
    for pat in opat:
        if pat not in npat:
            eff = (
                Effect.UNKNOWN
                if _matches_any(pat, oprops)
                else Effect.WIDEN
                if n_open
                else Effect.NARROW
            )
            w.emit(
                "pattern-property-removed",
                pointer_join(op, "patternProperties", pat),
                pos,
                effect=eff,
                pattern=pat,
            )


_NOT_FOR_STRINGS = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "items",
        "prefixItems",
        "additionalItems",
        "unevaluatedItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
    }
)
"""Keywords that constrain only numbers, arrays or objects: a string passes them all."""


def accepts_all_names(s: Any) -> bool:
    """``s`` as a ``propertyNames`` schema accepts every property name. A name is always a
    string (JSON), so a ``type`` that admits strings, and keywords that only constrain other
    types, rule none out: ``{"type": "string"}`` is no constraint there."""
    if accepts_all(s):
        return True
    if not isinstance(s, dict):
        return False
    types = type_set(s.get("type", MISSING))
    if types is not None and "string" not in types:
        return False
    return all(k == "type" or k in NO_CONSTRAINT or k in _NOT_FOR_STRINGS for k in s)


def judge_property_names(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    ov, nv = o.get("propertyNames", True), n.get("propertyNames", True)
    ptr = pointer_join(np, "propertyNames")
    if accepts_all_names(ov) and accepts_all_names(nv):
        return  # every name passes both: nothing any object can show
    if "propertyNames" not in o and not accepts_all(nv):
        w.emit("property-names-added", ptr, pos)
    elif "propertyNames" not in n and not accepts_all(ov):
        w.emit("property-names-removed", pointer_join(op, "propertyNames"), pos)
    elif "propertyNames" in o and "propertyNames" in n:
        w.diff(ov, nv, pointer_join(op, "propertyNames"), ptr, pos, depth + 1)


def judge_dependent(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    oreq, osch = _deps(o)
    nreq, nsch = _deps(n)
    for name in {**oreq, **nreq}:
        (a, akw), (b, bkw) = oreq.get(name, (set(), "")), nreq.get(name, (set(), ""))
        if b - a:
            w.emit(
                "dependent-required-added",
                pointer_join(np, bkw, name),
                pos,
                name=name,
                names=sorted(b - a),
            )
        if a - b:
            w.emit(
                "dependent-required-removed",
                pointer_join(np if bkw else op, bkw or akw, name),
                pos,
                name=name,
                names=sorted(a - b),
            )
    for name in {**osch, **nsch}:
        if name not in osch:
            s, kw = nsch[name]
            if not accepts_all(s):
                w.emit("dependent-schema-added", pointer_join(np, kw, name), pos, name=name)
        elif name not in nsch:
            s, kw = osch[name]
            if not accepts_all(s):
                w.emit("dependent-schema-removed", pointer_join(op, kw, name), pos, name=name)
        else:
            (a, akw), (b, bkw) = osch[name], nsch[name]
            w.diff(a, b, pointer_join(op, akw, name), pointer_join(np, bkw, name), pos, depth + 1)


def _deps(s: dict[str, Any]) -> tuple[dict[str, tuple[set[str], str]], dict[str, tuple[Any, str]]]:
    req: dict[str, tuple[set[str], str]] = {}
    sch: dict[str, tuple[Any, str]] = {}
    for kw in ("dependencies", "dependentRequired", "dependentSchemas"):
        for name, v in dict_of(s.get(kw)).items():
            if isinstance(v, list):
                prev = req.get(name, (set(), kw))[0]
                req[name] = (prev | names(v), kw)
            elif isinstance(v, (dict, bool)):
                sch[name] = (v, kw)
    return req, sch


def _ap_text(ap: Any) -> Any:
    if ap is True or accepts_all(ap):
        return Raw("true (or absent)")
    if rejects_all(ap):
        return False
    return Raw("(a schema)")


def _regex(pat: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pat)
    except (re.error, RecursionError, OverflowError):
        return None


def _matching_pattern(pats: dict[str, Any], name: str) -> str | None:
    for pat in pats:
        rx = _regex(pat)
        if rx is not None and rx.search(name):
            return pat
    return None


def _matches_any(pat: str, props: dict[str, Any]) -> bool:
    rx = _regex(pat)
    return rx is None or any(rx.search(p) for p in props)


PROPERTY_COUNTS = (
    Count(
        "minProperties",
        Bound(
            "min-properties-added",
            "min-properties-removed",
            "min-properties-increased",
            "min-properties-decreased",
        ),
        True,
        0,
    ),
    Count(
        "maxProperties",
        Bound(
            "max-properties-added",
            "max-properties-removed",
            "max-properties-decreased",
            "max-properties-increased",
        ),
        False,
        None,
    ),
)
"""Property counts (judged with the other counts, see ``kit.counts_judge``)."""


HANDLERS: dict[str, Handler] = {
    "properties": judge_object,
    "required": judge_object,
    "additionalProperties": judge_object,
    "patternProperties": judge_object,
    "propertyNames": judge_property_names,
    "dependentRequired": judge_dependent,
    "dependentSchemas": judge_dependent,
    "dependencies": judge_dependent,
}
"""The keywords this family judges, and the handler the walker calls for each."""

COUNTS = PROPERTY_COUNTS
"""The count keywords this family owns (judged by one handler with the other counts)."""
INSTANCE_TYPES: dict[str, frozenset[str]] = dict.fromkeys(
    (
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
    ),
    frozenset(("object",)),
)
"""The instance types these keywords constrain (on any other type they are no-ops)."""
ENTRY_KEYWORDS = frozenset(
    {"patternProperties", "dependentSchemas", "dependentRequired", "dependencies"}
)
"""Keywords whose pointer may name one entry (a pattern, a dependency)."""
OBJECT_GROUP = frozenset({"properties", "patternProperties", "additionalProperties"})
INTERACTING = (OBJECT_GROUP,)
"""Keywords whose meaning depends on each other: never split across an allOf (which keys are
"additional" depends on the other two)."""
