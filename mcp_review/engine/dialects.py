"""JSON Schema dialects: which keywords mean what under draft-04, -06, -07, 2019-09 and 2020-12.

A ``$schema`` change alone changes nothing when every keyword the two documents hold means the
same under both dialects (draft-07 -> 2020-12 on a schema of ``type``, ``properties``,
``required``, ``enum``: the common case). It changes what is valid when a keyword is known to
one dialect and ignored by the other (``prefixItems``, ``dependentRequired``,
``unevaluatedProperties`` are unknown to draft-07; ``dependencies`` and ``additionalItems`` to
2020-12), or when the same keyword is read another way (``items`` as an array: a tuple up to
2019-09, not a 2020-12 form; ``exclusiveMinimum`` as a boolean modifier in draft-04, a number
after; keywords beside ``$ref``: ignored up to draft-07, applied from 2019-09).
:func:`meaning_changes` names them; the validator (jsonschema-rs) validates each side under its
own dialect, and the witness search looks for a call the two read differently.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_review.engine.walk import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE

DRAFT4, DRAFT6, DRAFT7, D2019, D2020 = "draft-04", "draft-06", "draft-07", "2019-09", "2020-12"
ORDER = (DRAFT4, DRAFT6, DRAFT7, D2019, D2020)

DEFAULT = D2020
"""The dialect of a schema without ``$schema`` (MCP's default; the validator's as well)."""

_URIS = {
    "http://json-schema.org/draft-04/schema": DRAFT4,
    "http://json-schema.org/draft-06/schema": DRAFT6,
    "http://json-schema.org/draft-07/schema": DRAFT7,
    "https://json-schema.org/draft/2019-09/schema": D2019,
    "https://json-schema.org/draft/2020-12/schema": D2020,
}

_CORE4 = frozenset(
    {
        "type",
        "enum",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "items",
        "additionalItems",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxProperties",
        "minProperties",
        "required",
        "properties",
        "patternProperties",
        "additionalProperties",
        "dependencies",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "format",
        "$ref",
    }
)
_CORE6 = _CORE4 | {"const", "contains", "propertyNames"}
_CORE7 = _CORE6 | {"if", "then", "else"}
_CORE2019 = (_CORE7 - {"dependencies"}) | {
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
}
VOCABULARY: dict[str, frozenset[str]] = {
    DRAFT4: _CORE4,
    DRAFT6: _CORE6,
    DRAFT7: _CORE7,
    D2019: _CORE2019 | {"$recursiveRef"},
    D2020: (_CORE2019 - {"additionalItems"}) | {"prefixItems", "$dynamicRef"},
}
"""The assertion and applicator keywords each dialect validates with (annotations, which
validate nothing, and ``$defs``/``definitions``, reached only through ``$ref``, are left out:
they mean the same, or nothing, under every dialect)."""

_REF_NEUTRAL = frozenset({"$ref", "$comment", "title", "description", "$defs", "definitions"})
"""Keywords beside a ``$ref`` that mean nothing either way (draft-07 ignores them, 2020-12
applies them: only constraints make a difference)."""

MAX_NODES = 20_000
"""Schema objects looked at per document at most (a bigger document is judged as changed)."""


def dialect_of(schema: Any) -> str | None:
    """The dialect a document's ``$schema`` names (the default when it names none); None for a
    URI this table does not know."""
    uri = schema.get("$schema", None) if isinstance(schema, dict) else None
    if uri is None:
        return DEFAULT
    if not isinstance(uri, str):
        return None
    return _URIS.get(uri.rstrip("#"))


def _subschemas(root: Any) -> Iterator[dict[str, Any]]:
    """Every schema object of a document (not the property names, not enum values), iteratively,
    at most MAX_NODES + 1 of them."""
    stack = [root]
    seen = 0
    while stack and seen <= MAX_NODES:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        seen += 1
        yield node
        for k in SCHEMA_ONE:
            if isinstance(node.get(k), dict):
                stack.append(node[k])
        for k in SCHEMA_LIST:
            if isinstance(node.get(k), list):
                stack.extend(node[k])
        for k in SCHEMA_MAP:
            if isinstance(node.get(k), dict):
                stack.extend(node[k].values())


def meaning_changes(old: Any, new: Any) -> list[str]:
    """The keywords both documents hold that mean something else under the new document's
    dialect than under the old one's (the text kept, its reading changed), sorted (``["$schema"]`` when either dialect is one
    this table does not know, or a document is too big to read through). Empty: the dialect
    change changes nothing that is validated."""
    a, b = dialect_of(old), dialect_of(new)
    if a is None or b is None:
        return ["$schema"]
    if a == b:
        return []
    va, vb = VOCABULARY[a], VOCABULARY[b]
    differ = va ^ vb
    refs_differ = (ORDER.index(a) <= 2) != (ORDER.index(b) <= 2)
    bool_bounds_differ = (a == DRAFT4) != (b == DRAFT4)
    tuples_differ = (a == D2020) != (b == D2020)
    per_doc: list[set[str]] = []
    for doc in (old, new):
        found: set[str] = set()
        n = 0
        for node in _subschemas(doc):
            n += 1
            if n > MAX_NODES:
                return ["$schema"]
            for k, v in node.items():
                if k in differ:
                    found.add(k)
                elif k in ("exclusiveMinimum", "exclusiveMaximum") and bool_bounds_differ:
                    found.add(k)
                elif k == "items" and isinstance(v, list) and tuples_differ:
                    found.add(k)
            if refs_differ and "$ref" in node and any(k not in _REF_NEUTRAL for k in node):
                found.add("$ref")
        per_doc.append(found)
    # A keyword held by one document only was rewritten along with the dialect (draft-07's
    # dependencies as 2020-12's dependentRequired): the walker compares those forms by meaning.
    return sorted(per_doc[0] & per_doc[1])
