"""The one walk of every server-written string a host may pass to the model.

A tool definition reaches the model whole: its name, title and description, every string
anywhere in ``inputSchema`` and ``outputSchema`` (any keyword, known or not: ``x-*`` values and
list items, ``format``, ``pattern``, ``required`` and ``dependentRequired`` entries, property
names, ``enum`` / ``const`` / ``default`` / ``examples``, ``$comment``, ``$defs`` keys), its
annotations (unknown keys too) and the strings in ``_meta``. This module lists them, each with
its place (:class:`Role`) and JSON pointer. Two readers use it and nothing else:

- the cue reader (``engine/cues.py``, ``tool_texts``) reads every string it yields;
- the trust axis (``engine/rules/text.py``, ``_model_text``) judges, per :class:`Role`, which
  new strings read as text (``TRUST_FILTERS``: a ``type`` name is not prose, a sentence is).

``tests/engine/test_textwalk.py`` fails when a place is read by one of them and not the other.

Iterative with a node bound: a hostile definition cannot make it recurse or run unbounded.
Pointers are built lazily (:func:`pointer_of`): the trust axis walks 100,000-string schemas and
names only the few strings that turn out new. Engine layer: pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any

from mcp_review.engine.model import pointer_join
from mcp_review.engine.walk import SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE

__all__ = [
    "ALWAYS_TEXT",
    "ANNOTATION_KEYS",
    "IDENTIFIER_KEYS",
    "KEYWORDS",
    "MAX_NODES",
    "Loc",
    "Role",
    "pointer_of",
    "schema_strings",
    "surface_strings",
    "tool_strings",
]


class Role(StrEnum):
    """Where a string sits: what the trust axis asks of it before it counts as text."""

    NAME = "name"
    """The tool's name."""
    TITLE = "title"
    """The tool's title."""
    DESCRIPTION = "description"
    """The tool's description."""
    ANNOTATION = "annotation"
    """An annotation's string value (``title``, an unknown key's value) or an unknown key."""
    META = "meta"
    """A string (value or key) anywhere in the tool's ``_meta``."""
    TEXT = "text"
    """Any string under ``description``, ``title``, ``$comment``, ``examples``, ``example``,
    ``default`` inside a schema (object keys included)."""
    VALUE = "value"
    """A string in ``enum`` / ``const``."""
    PROPERTY_NAME = "property name"
    """A key of ``properties``."""
    PATTERN_NAME = "pattern name"
    """A key of ``patternProperties``."""
    DEFS_NAME = "defs name"
    """A key of ``$defs``, ``definitions``, ``dependentSchemas``, ``dependencies``."""
    REQUIRED = "required"
    """A ``required`` entry that names a declared property."""
    REQUIRED_UNDECLARED = "required undeclared"
    """A ``required`` entry naming no property of its schema."""
    DEPENDENT = "dependent"
    """A ``dependentRequired`` key or entry (and a draft-07 ``dependencies`` name list)."""
    PATTERN = "pattern"
    """A ``pattern`` value."""
    FORMAT = "format"
    """A ``format`` value."""
    IDENTIFIER = "identifier"
    """A string under ``type``, ``$ref``, ``$schema``, ``$id``, anchors, ``$vocabulary``."""
    OTHER = "other"
    """Any other string: an unknown keyword's (``x-*``) values, list items and keys, a schema
    keyword holding something that is not a schema."""


ALWAYS_TEXT = frozenset({"description", "title", "$comment", "examples", "example", "default"})
"""Schema keywords every string under which is text (any length)."""

IDENTIFIER_KEYS = frozenset(
    {
        "type",
        "$ref",
        "$schema",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$dynamicRef",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
    }
)
"""Identifiers and references (their changes have rules of their own)."""

KEYWORDS = (
    SCHEMA_ONE
    | SCHEMA_LIST
    | SCHEMA_MAP
    | ALWAYS_TEXT
    | IDENTIFIER_KEYS
    | frozenset(
        {
            "enum",
            "const",
            "required",
            "dependentRequired",
            "pattern",
            "format",
            "multipleOf",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "maxLength",
            "minLength",
            "maxItems",
            "minItems",
            "uniqueItems",
            "maxContains",
            "minContains",
            "maxProperties",
            "minProperties",
            "contentEncoding",
            "contentMediaType",
            "contentSchema",
            "deprecated",
            "readOnly",
            "writeOnly",
            "nullable",
        }
    )
)
"""JSON Schema's own keywords (2020-12 and the drafts before it): a key of a schema outside
this set is a name the server chose, and text the model reads."""

ANNOTATION_KEYS = frozenset(
    {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
)
"""The annotation keys MCP defines; any other key is itself server-written text."""

MAX_NODES = 200_000
"""Schema nodes visited per document at most (a bound against hostile definitions)."""

Loc = Any
"""A location: a pointer string (the base) or ``(parent location, token)``."""


def pointer_of(loc: Loc) -> str:
    """The JSON pointer of a location."""
    toks: list[Any] = []
    while not isinstance(loc, str):
        loc, tok = loc
        toks.append(tok)
    return pointer_join(loc, *reversed(toks))


def _data(v: Any, loc: Loc) -> Iterator[tuple[Loc, str]]:
    """(location, string) for every string in a JSON value, object keys included (the order
    the trust axis has always walked in: its caps and first-found wording depend on it)."""
    stack: list[tuple[Any, Loc]] = [(v, loc)]
    while stack:
        x, at = stack.pop()
        if isinstance(x, str):
            yield at, x
        elif isinstance(x, dict):
            for k, y in x.items():
                child = (at, k)
                if isinstance(k, str):
                    yield child, k
                stack.append((y, child))
        elif isinstance(x, list):
            stack.extend((y, (at, i)) for i, y in enumerate(x))


def schema_strings(doc: Any, base: str) -> Iterator[tuple[Loc, str, Role, str]]:
    """(location, field, role, string) for every string of a schema document, at any depth:
    ``field`` is the keyword it sits under (``value`` for a document that is not a schema)."""
    stack: list[tuple[Any, Loc]] = [(doc, base)]
    budget = MAX_NODES
    while stack and budget > 0:
        budget -= 1
        node, at = stack.pop()
        if not isinstance(node, dict):
            # Not a schema (a string, a list where a schema belongs): read all the same.
            for p, t in _data(node, at):
                yield p, "value", Role.OTHER, t
            continue
        later: list[tuple[Any, Loc]] = []
        for k, v in node.items():
            child = (at, k)
            if k in ALWAYS_TEXT:
                for p, t in _data(v, child):
                    yield p, k, Role.TEXT, t
            elif k == "enum" or k == "const":
                for p, t in _data(v, child):
                    yield p, k, Role.VALUE, t
            elif k in SCHEMA_MAP and isinstance(v, dict):
                role = (
                    Role.PROPERTY_NAME
                    if k == "properties"
                    else Role.PATTERN_NAME
                    if k == "patternProperties"
                    else Role.DEFS_NAME
                )
                for name, sub in v.items():
                    sp = (child, name)
                    if isinstance(name, str):
                        yield sp, k, role, name
                    if isinstance(sub, dict):
                        later.append((sub, sp))
                    elif k == "dependencies":
                        for p, t in _data(sub, sp):
                            yield p, k, Role.DEPENDENT, t
                    else:
                        later.append((sub, sp))
            elif k in SCHEMA_LIST and isinstance(v, list):
                later.extend((sub, (child, i)) for i, sub in enumerate(v))
            elif k in SCHEMA_ONE and isinstance(v, dict):
                later.append((v, child))
            elif k == "required" and isinstance(v, list):
                props = node.get("properties")
                for i, t in enumerate(v):
                    if isinstance(t, str):
                        named = isinstance(props, dict) and t in props
                        yield (child, i), k, Role.REQUIRED if named else Role.REQUIRED_UNDECLARED, t
                    else:
                        for p, s in _data(t, (child, i)):
                            yield p, k, Role.OTHER, s
            elif k == "dependentRequired":
                for p, t in _data(v, child):
                    yield p, k, Role.DEPENDENT, t
            elif k == "pattern" and isinstance(v, str):
                yield child, k, Role.PATTERN, v
            elif k == "format" and isinstance(v, str):
                yield child, k, Role.FORMAT, v
            elif k in IDENTIFIER_KEYS or k == "required":
                for p, t in _data(v, child):
                    yield p, k, Role.IDENTIFIER, t
            else:
                # An unknown keyword (``x-*``), or a schema keyword holding something that is
                # not a schema: the model reads it all the same, an unknown keyword's name too.
                if k not in KEYWORDS and isinstance(k, str):
                    yield child, k, Role.OTHER, k
                for p, t in _data(v, child):
                    yield p, k, Role.OTHER, t
        stack.extend(later)


def tool_strings(wire: Mapping[str, Any]) -> Iterator[tuple[str, Role, str]]:
    """(pointer, role, string) for every server-written string of a tool definition (its wire
    JSON) a host may pass to the model: name, title, description, both schemas, annotations
    (unknown keys and their values too), ``_meta``."""
    for k, role in (("name", Role.NAME), ("title", Role.TITLE), ("description", Role.DESCRIPTION)):
        v = wire.get(k)
        if isinstance(v, str):
            yield "/" + k, role, v
    ann = wire.get("annotations")
    if isinstance(ann, dict):
        for k, v in ann.items():
            if not isinstance(k, str):
                continue
            at: Loc = ("/annotations", k)
            if k not in ANNOTATION_KEYS:
                yield pointer_of(at), Role.ANNOTATION, k
            for p, t in _data(v, at):
                yield pointer_of(p), Role.ANNOTATION, t
    for side in ("inputSchema", "outputSchema"):
        if side in wire:
            for loc, _, role, t in schema_strings(wire.get(side), "/" + side):
                yield pointer_of(loc), role, t
    meta = wire.get("_meta")
    if isinstance(meta, (dict, list)):
        for p, t in _data(meta, "/_meta"):
            yield pointer_of(p), Role.META, t


def surface_strings(wire: Mapping[str, Any]) -> Iterator[tuple[str, Role, str]]:
    """(pointer, role, string) for every server-written string of a prompt, resource or
    resource template a host may pass to the model or the user: what
    :func:`tool_strings` reads (name, title, description, annotations, ``_meta``), each prompt
    argument's name, title, description and ``_meta``, and a resource's ``mimeType``."""
    yield from tool_strings(wire)
    args = wire.get("arguments")
    if isinstance(args, list):
        for i, a in enumerate(args):
            if not isinstance(a, dict):
                continue
            for k, role in (
                ("name", Role.NAME),
                ("title", Role.TITLE),
                ("description", Role.DESCRIPTION),
            ):
                v = a.get(k)
                if isinstance(v, str):
                    yield pointer_join("/arguments", i, k), role, v
            meta = a.get("_meta")
            if isinstance(meta, (dict, list)):
                for p, t in _data(meta, (("/arguments", i), "_meta")):
                    yield pointer_of(p), Role.META, t
    mime = wire.get("mimeType")
    if isinstance(mime, str):
        yield "/mimeType", Role.VALUE, mime
