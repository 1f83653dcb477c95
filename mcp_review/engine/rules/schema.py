"""The schema as a whole and the keywords no family owns: a schema that rejects everything,
an invalid or too-deep schema, an engine failure, ``$schema``, ``x-mcp-header`` and keywords
the classifier does not understand.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_review.engine.dialects import meaning_changes
from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    HEADER,
    MISSING,
    Handler,
    Judge,
    Pair,
    accepts_all,
    jeq,
    num,
    opt,
)
from mcp_review.engine.rules.registry import Effect, Rule, Witness
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
    where,
)

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_CO = ChangeClass.COSMETIC
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

# Rule ids (one literal each): consumers outside engine/rules/ name a rule by these.
ENGINE_ERROR = "engine-error"
SCHEMA_TOO_DEEP = "schema-too-deep"
SCHEMA_NOW_FALSE = "schema-now-false"
SCHEMA_NO_LONGER_FALSE = "schema-no-longer-false"
SCHEMA_KEYWORD_INERT = "schema-keyword-inert"
UNSUPPORTED_KEYWORD_CHANGED = "unsupported-keyword-changed"
SCHEMA_INVALID = "schema-invalid"

RULES: tuple[Rule, ...] = (
    _r(
        SCHEMA_NOW_FALSE,
        _B,
        _I,
        "a schema now rejects every value",
        "{where}: now rejects every value",
        _N,
    ),
    _r(
        SCHEMA_NO_LONGER_FALSE,
        _C,
        _I,
        "a schema that rejected every value now accepts some",
        "{where}: no longer rejects every value",
        _W,
    ),
    _r(
        SCHEMA_INVALID,
        _P,
        _I,
        "a schema is neither an object nor a boolean",
        "{where}: not a valid schema ({kind}); cannot compare",
    ),
    _r(
        SCHEMA_TOO_DEEP,
        _P,
        _I,
        "nesting beyond the walker's limit; not compared",
        "{where}: nested deeper than {limit} levels; not compared",
        unjudged=True,
    ),
    _r(
        ENGINE_ERROR,
        _P,
        _I,
        "the engine failed on this part of the definition; it is not compared",
        "{where}: not compared: the engine failed here ({error}); review it by hand",
        unjudged=True,
    ),
    _r(
        "schema-dialect-changed",
        _CO,
        _I,
        "$schema changed; no keyword of the schema means something else under the new dialect",
        "{where}: $schema changed {old} -> {new}",
    ),
    _r(
        "schema-dialect-meaning-changed",
        _P,
        _I,
        "$schema changed, and keywords the schema holds mean something else under the new "
        "dialect (known to one and ignored by the other, or read another way)",
        "{where}: $schema changed {old} -> {new}, and {keywords} mean something else under "
        "the new dialect",
        _U,
    ),
    _r(
        "header-mapping-changed",
        _P,
        _I,
        "a property's x-mcp-header mapping was added, removed or renamed",
        "{where}: x-mcp-header {how} ({old} -> {new}): on HTTP the argument now travels in "
        "another header, which can break routing",
        witness=Witness.HINT,
    ),
    _r(
        "schema-explicit-default",
        _CO,
        _I,
        "a keyword was written out or dropped with its JSON Schema default value (additionalProperties "
        "true, minLength 0, required [], ...): the same set of values",
        "{where}: {keyword} {old} -> {new} (the JSON Schema default: same meaning)",
    ),
    _r(
        SCHEMA_KEYWORD_INERT,
        _CO,
        _I,
        "a keyword that constrains only other instance types than the schema's changed: no "
        "value is affected (e.g. minLength beside type object; at the root of inputSchema and "
        "outputSchema, every keyword but the object ones, since arguments and results are "
        "objects)",
        "{where}: {keyword} {old} -> {new} constrains no {types} value: no effect",
    ),
    _r(
        UNSUPPORTED_KEYWORD_CHANGED,
        _P,
        _I,
        "a keyword the classifier does not understand was added, removed or changed",
        "{where}: keyword {keyword} {how} ({old} -> {new}); effect unknown",
        _U,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_dialect(w: Judge, at: Pair) -> None:
    """A ``$schema`` change of the document, judged by meaning: cosmetic
    when every keyword the two documents hold means the same under both dialects
    (engine/dialects.py), else potentially-breaking, and the witness search (each side
    validated under its own dialect) looks for a call the new dialect rejects. A ``$schema``
    inside a subschema selects nothing (no validator reads it there): cosmetic."""
    o, n, _op, np, pos, depth = at
    ov, nv = o.get("$schema", MISSING), n.get("$schema", MISSING)
    if jeq(ov, nv):
        return
    ptr = pointer_join(np, "$schema")
    changed = meaning_changes(w.old_root, w.new_root) if depth == 0 else []
    if changed:
        w.emit(
            "schema-dialect-meaning-changed",
            ptr,
            pos,
            old=opt(ov),
            new=opt(nv),
            keywords=Raw(", ".join(changed)),
        )
    else:
        w.emit("schema-dialect-changed", ptr, pos, old=opt(ov), new=opt(nv))


def judge_header(w: Judge, at: Pair) -> None:
    """``x-mcp-header`` (2026-07-28): the HTTP header an argument also travels in. Added,
    removed or renamed, routing that reads the header may break: potentially-breaking on
    either side (not a set of values, so no polarity)."""
    o, n, op, np, pos, _depth = at
    ov, nv = o.get(HEADER, MISSING), n.get(HEADER, MISSING)
    if jeq(ov, nv):
        return
    how = "added" if ov is MISSING else "removed" if nv is MISSING else "renamed"
    w.emit(
        "header-mapping-changed",
        pointer_join(np if nv is not MISSING else op, HEADER),
        pos,
        cls=ChangeClass.POTENTIALLY_BREAKING,
        how=Raw(how),
        old=opt(ov),
        new=opt(nv),
    )


def _is_zero(v: Any) -> bool:
    return num(v) and v == 0


def _is_one(v: Any) -> bool:
    return num(v) and v == 1


def _is_false(v: Any) -> bool:
    return v is False


def _is_empty_list(v: Any) -> bool:
    return isinstance(v, list) and not v


def _is_empty_map(v: Any) -> bool:
    return isinstance(v, dict) and not v


DEFAULTS: dict[str, Callable[[Any], bool]] = {
    **dict.fromkeys(
        ("additionalProperties", "items", "additionalItems", "propertyNames"), accepts_all
    ),
    **dict.fromkeys(("minLength", "minItems", "minProperties"), _is_zero),
    "minContains": _is_one,
    "uniqueItems": _is_false,
    "required": _is_empty_list,
    **dict.fromkeys(
        (
            "properties",
            "patternProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
        ),
        _is_empty_map,
    ),
}
"""keyword -> whether a value is its JSON Schema default (the same as leaving it out): the
keywords the walker judges whose default can be written out. Each family already reads such a
value as no constraint; this names the edit, so the digest change is explained."""


def is_default(keyword: str, value: Any) -> bool:
    """``value`` is ``keyword``'s JSON Schema default (the same as leaving it out)."""
    test = DEFAULTS.get(keyword)
    return test is not None and test(value)


def judge_explicit_defaults(w: Judge, at: Pair) -> None:
    """A keyword written out with its default value, dropped while it held it, or rewritten from
    one default form to another (``true`` -> ``{}``): cosmetic, in both directions. Called once
    per node by the walker, before keywords that cannot apply to the node's type are set aside
    (a default written out there is still an edit the digest sees)."""
    o, n, op, np, pos, _depth = at
    for kw, is_default in DEFAULTS.items():
        ov, nv = o.get(kw, MISSING), n.get(kw, MISSING)
        if (ov is MISSING and nv is MISSING) or jeq(ov, nv):
            continue
        if all(v is MISSING or is_default(v) for v in (ov, nv)):
            w.emit(
                "schema-explicit-default",
                pointer_join(np if nv is not MISSING else op, kw),
                pos,
                where=Raw(where(np if nv is not MISSING else op)),
                keyword=Raw(kw),
                old=opt(ov),
                new=opt(nv),
            )


NODE_HANDLERS: tuple[Handler, ...] = (judge_explicit_defaults,)
"""Judged once at every node (registered with ``catalog.KEYWORDS.nodes``)."""

HANDLERS: dict[str, Handler] = {
    "$schema": judge_dialect,
    HEADER: judge_header,
}
"""The keywords this family judges, and the handler the walker calls for each."""
