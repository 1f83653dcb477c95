"""Every value a finite schema accepts: the witness search's proof of absence.

When a schema admits only finitely many values (booleans, nulls, ``enum`` / ``const``, small
integer ranges, objects of such properties, short arrays of such items), the witness search can
try them all. If none that the accepting schema takes is refused by the other one, no witness
exists: the structural verdict had no proof and the search has shown there is none.

:func:`candidates` returns a finite list that contains every value the schema accepts (a
superset: the caller keeps the ones the real validator accepts), or None when the set is
unbounded or larger than the cap. Objects are read closed-world, as the engine judges them
(docs/design.md): a call sets only properties the schema declares; so an object of finitely many
declared properties, each with finitely many values, is finite whatever its
``additionalProperties`` says."""

from __future__ import annotations

import itertools
import math
from typing import Any

from mcp_review.engine.walk import MISSING, follow

MAX_VALUES = 2_048
"""Most candidate values one schema may list (past it: not finite, for the search's purpose)."""

MAX_RANGE = 64
"""Widest integer range (``minimum`` .. ``maximum``) listed value by value."""

MAX_ITEMS = 3
"""Longest array listed item by item (a larger ``maxItems``, or none: not finite)."""

_DEPTH = 12
"""Nesting and ``$ref`` hops followed at most (a recursive schema is not finite here)."""

_ABSENT = MISSING


class _TooMany(Exception):
    pass


def candidates(root: Any, *, objects: bool = True, cap: int = MAX_VALUES) -> list[Any] | None:
    """Every value ``root`` may accept (see the module), or None. ``objects``: the root's
    values are JSON objects (a tool's ``inputSchema`` / ``outputSchema``)."""
    try:
        return _values(root, root, _DEPTH, cap, objects)
    except (_TooMany, RecursionError):
        return None


_UNREAD = frozenset(
    {"allOf", "if", "then", "else", "dependentSchemas", "dependencies", "patternProperties"}
)
"""Keywords this module does not read as sets of values: a schema with one is not finite here
(a property a part or a branch declares would escape the closed-world listing)."""


def _values(root: Any, s: Any, depth: int, cap: int, objects: bool = False) -> list[Any] | None:
    if depth <= 0:
        return None
    s = follow(root, s, 8)
    if s is False:
        return []
    if isinstance(s, dict) and isinstance(s.get("allOf"), list):
        s = _merged(root, s)
    if not isinstance(s, dict) or "$ref" in s or any(k in s for k in _UNREAD):
        return None  # a remote or dangling $ref, or a keyword not read here
    if "const" in s or isinstance(s.get("enum"), list):
        return _own(root, s, depth, cap, objects)
    for kw in ("anyOf", "oneOf"):
        alts = s.get(kw)
        if not isinstance(alts, list) or not alts:
            continue
        if "properties" in s:
            return None  # properties beside the union: not read here
        out: list[Any] = []
        for a in alts:
            if isinstance(a, dict) and "type" in s and "type" not in a and "$ref" not in a:
                a = {**a, "type": s["type"]}  # the union's own type applies to each branch
            vals = _values(root, a, depth - 1, cap, objects)
            if vals is None:
                return None
            out += vals
            if len(out) > cap:
                raise _TooMany
        return out
    return _own(root, s, depth, cap, objects)


def _merged(root: Any, s: dict[str, Any]) -> Any:
    """An ``allOf`` of object parts (MCP's ``GetTaskResult``: ``[$ref Result, $ref Task]``) as
    one object declaring every part's properties; ``s`` unchanged when a part is anything else
    or two parts declare one name (then the allOf stays unread)."""
    parts = [follow(root, p, 8) for p in s["allOf"]]
    props: dict[str, Any] = {}
    own = s.get("properties", {})
    if not isinstance(own, dict):
        return s
    props.update(own)
    for p in parts:
        if not isinstance(p, dict) or p.get("type", "object") != "object":
            return s
        if any(k in p for k in ("$ref", "anyOf", "oneOf", "enum", "const", *_UNREAD)):
            return s
        pp = p.get("properties", {})
        if not isinstance(pp, dict) or any(k in props for k in pp):
            return s
        props.update(pp)
    rest = {k: v for k, v in s.items() if k not in ("allOf", "properties")}
    return {**rest, "type": "object", "properties": props}


def _own(root: Any, s: dict[str, Any], depth: int, cap: int, objects: bool) -> list[Any] | None:
    """The values the node's own keywords allow (None: unbounded by them alone)."""
    if "const" in s:
        return [s["const"]]
    enum = s.get("enum")
    if isinstance(enum, list):
        if len(enum) > cap:
            raise _TooMany
        return list(enum)
    t = s.get("type", MISSING)
    types = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else None
    if types is None:
        if not objects:
            return None
        types = {"object"}
    if objects:
        types &= {"object"}
    out: list[Any] = []
    for ty in sorted(t for t in types if isinstance(t, str)):
        vals = _of_type(root, s, ty, depth, cap)
        if vals is None:
            return None
        out += vals
        if len(out) > cap:
            raise _TooMany
    return out


def _of_type(root: Any, s: dict[str, Any], ty: str, depth: int, cap: int) -> list[Any] | None:
    if ty == "boolean":
        return [False, True]
    if ty == "null":
        return [None]
    if ty == "integer":
        lo, hi = s.get("minimum"), s.get("maximum")
        if not (isinstance(lo, (int, float)) and isinstance(hi, (int, float))):
            return None
        if not (_num(lo) and _num(hi)) or hi - lo > MAX_RANGE:
            return None
        return list(range(math.ceil(lo), math.floor(hi) + 1))
    if ty == "object":
        return _objects(root, s, depth, cap)
    if ty == "array":
        return _arrays(root, s, depth, cap)
    return None  # strings and numbers: unbounded


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _objects(root: Any, s: dict[str, Any], depth: int, cap: int) -> list[Any] | None:
    props = s.get("properties", {})
    if not isinstance(props, dict):
        return None
    choices: list[tuple[str, list[Any]]] = []
    total = 1
    for name, sub in props.items():
        vals = _values(root, sub, depth - 1, cap)
        if vals is None:
            return None
        choices.append((name, [_ABSENT, *vals]))
        total *= len(vals) + 1
        if total > cap:
            raise _TooMany
    out = []
    for combo in itertools.product(*(c for _, c in choices)):
        out.append({n: v for (n, _), v in zip(choices, combo, strict=True) if v is not _ABSENT})
    return out


def _arrays(root: Any, s: dict[str, Any], depth: int, cap: int) -> list[Any] | None:
    hi = s.get("maxItems")
    if not isinstance(hi, int) or isinstance(hi, bool) or hi > MAX_ITEMS or "prefixItems" in s:
        return None
    lo = s.get("minItems", 0)
    lo = lo if isinstance(lo, int) and not isinstance(lo, bool) and lo >= 0 else 0
    items = s.get("items", True)
    vals = _values(root, items, depth - 1, cap) if items is not True else None
    if vals is None:
        return [[]] if hi == 0 and lo == 0 else [] if lo > hi else None
    out: list[Any] = []
    for n in range(lo, hi + 1):
        if len(out) + len(vals) ** n > cap:
            raise _TooMany
        out += [list(c) for c in itertools.product(vals, repeat=n)]
    return out
