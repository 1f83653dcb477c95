"""Closed world over declared properties: which keys of a call the schema never declared.

The engine judges an added optional property compatible "closed world": old calls never set
it, even on an object that accepts undeclared keys. A proxy serving the approved definition
while a change waits for review (the hold, docs/proxy.md) must hold calls to that same world:
a key the approved schema does not declare at that level would reach the server as the new,
unapproved parameter although the approved schema, being open, accepts it.

:func:`undeclared` walks an instance (the call's arguments) beside its schema and names the
first object key that no subschema applying at that place declares. A key is declared by
``properties``, by a ``patternProperties`` pattern it matches (ECMA-262, by the validator), or
by an ``additionalProperties`` / ``unevaluatedProperties`` that is a schema saying something
(a typed map: ``{"type": "string"}``); ``true``, ``{}``, an absent keyword, or any spelling of
"every value" (a ``$ref`` to ``{}``, ``anyOf: [true]``, every type…) declare nothing, and nor
does a pattern matching any name to such a schema (``".*": {}``). ``propertyNames``,
``dependentRequired`` and ``$dynamicRef`` (not followed) declare nothing: refused.
Subschemas applying at a place: the schema there, its ``$ref`` chain followed, and every
branch of ``allOf``/``anyOf``/``oneOf``, ``if``/``then``/``else`` and ``dependentSchemas``
(draft-07 ``dependencies`` too): a key any of them declares counts (the call was validated
by the real validator first, so this only asks whether the approved schema names the key).
``not`` declares nothing.

Total and bounded: iterative, at most :data:`MAX_STEPS` (subschema, value) visits; a
``$ref`` that does not resolve, or a walk past the bound, is "cannot tell", which the caller
refuses (fail closed).
"""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import pointer_escape
from mcp_review.engine.walk import Refs

MAX_STEPS = 1_000_000
"""(subschema, instance value) pairs visited at most for one instance."""

_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "$comment",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$id",
        "$schema",
        "$anchor",
        "$defs",
        "definitions",
    }
)
"""Keywords that constrain nothing: a map schema made only of them is ``{}`` (anything)."""


class CannotTell(Exception):
    """The walk could not judge the instance (unresolved ``$ref``, the step bound)."""

    def __init__(self, message: str, steps: int = 0):
        super().__init__(message)
        self.steps = steps
        """The (subschema, value) steps the walk had taken when it gave up (counted, so a test
        can hold the bound without a clock)."""


_EVERY_TYPE = frozenset({"string", "number", "boolean", "null", "object", "array"})
_MAX_DEPTH = 32
_MAP_BUDGET = 10_000
"""Subschemas :func:`_accepts_all` visits at most for one map schema."""


def _accepts_all(s: Any, refs: Refs, budget: list[int], depth: int = 0) -> bool:
    """``s`` accepts every value, as far as its keywords show: ``true``, ``{}``, prose only, a
    ``$ref`` to such a schema, ``allOf`` of them, ``anyOf`` holding one, a one-branch
    ``oneOf``, ``not: false``, a ``type`` naming every type. Anything else constrains. Nested
    past :data:`_MAX_DEPTH`: treated as accepting all (it then declares nothing: refused);
    more than ``budget[0]`` subschemas in all (``$ref``s can share branches): cannot tell."""
    if depth > _MAX_DEPTH:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        raise CannotTell("a schema for extra keys is too large to follow")
    if isinstance(s, dict) and "$ref" in s:
        d = refs.deref(s)
        if d.problem is not None:
            raise CannotTell(f"a $ref does not resolve ({d.problem})")
        s = d.view
    if s is True:
        return True
    if not isinstance(s, dict):
        return False
    for k, v in s.items():
        if k in _ANNOTATIONS or k == "if":
            continue
        if k == "allOf" and isinstance(v, list):
            if all(_accepts_all(b, refs, budget, depth + 1) for b in v):
                continue
        elif (k == "anyOf" and isinstance(v, list)) or k in ("then", "else"):
            branches = v if isinstance(v, list) else [v]
            if any(_accepts_all(b, refs, budget, depth + 1) for b in branches):
                continue
        elif k == "oneOf" and isinstance(v, list) and len(v) == 1:
            if _accepts_all(v[0], refs, budget, depth + 1):
                continue
        elif k == "not" and v is False:
            continue
        elif k == "type" and isinstance(v, list) and _EVERY_TYPE <= set(v):
            continue
        return False
    return True


def _says_something(s: Any, refs: Refs, memo: dict[int, bool]) -> bool:
    """A subschema for extra keys that declares them (a typed map), not one that accepts every
    value however it is spelled (``true``, ``{}``, a ``$ref`` to ``{}``, …)."""
    if not isinstance(s, dict):
        return False  # absent or true: open; false admits no key (the validator refused it)
    hit = memo.get(id(s))
    if hit is None:
        hit = memo[id(s)] = not _accepts_all(s, refs, [_MAP_BUDGET])
    return hit


class _Patterns:
    """ECMA-262 ``pattern`` matching by the engine's validator, compiled once per pattern."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def match(self, pattern: str, key: str) -> bool:
        from mcp_review.engine.replay import SchemaError, SchemaValidator

        v = self._cache.get(pattern)
        if v is None:
            try:
                v = SchemaValidator({"pattern": pattern})
            except SchemaError:
                raise CannotTell(f"patternProperties regex {pattern!r} does not compile") from None
            self._cache[pattern] = v
        return bool(v.is_valid(key))

    def universal(self, pattern: str) -> bool:
        """``pattern`` matches any name (``""``, ``.*``, ``^.+$`` …), judged on probe names."""
        return all(self.match(pattern, k) for k in _PROBE_KEYS)


_PROBE_KEYS = ("y", "path", "Zz_9", "a-b", "a b", "\u00e9\u4e2d", "\U0001f600")
"""Names of every shape a parameter could have (cased, digits, punctuation, space, non-ASCII,
astral): a pattern matching them all (``.*``, ``^.+$``, ``""``) is a wildcard."""


def undeclared(schema: Any, instance: Any) -> str | None:
    """The JSON pointer of the first key of ``instance`` that ``schema`` declares nowhere it
    applies (see the module notes), or None when every key is declared. Raises
    :class:`CannotTell` when the schema cannot be followed or the walk is too large."""
    refs = Refs(schema)
    patterns = _Patterns()
    memo: dict[int, bool] = {}  # map schema -> it declares keys (the schema lives meanwhile)
    steps = 0
    # (value, pointer, the subschemas applying there, not yet expanded)
    work: list[tuple[Any, str, list[Any]]] = [(instance, "", [schema])]
    while work:
        value, ptr, roots = work.pop()
        if not isinstance(value, (dict, list)):
            continue
        applying: list[dict[str, Any]] = []
        seen: set[int] = set()
        todo = list(roots)
        while todo:
            steps += 1
            if steps > MAX_STEPS:
                raise CannotTell(
                    f"the schema is too large to follow (over {MAX_STEPS} steps)", steps
                )
            s = todo.pop()
            if isinstance(s, dict) and "$ref" in s:
                d = refs.deref(s)
                if d.problem is not None:
                    raise CannotTell(f"a $ref does not resolve ({d.problem})")
                s = d.view
            if not isinstance(s, dict) or id(s) in seen:
                continue
            seen.add(id(s))
            applying.append(s)
            for k in ("allOf", "anyOf", "oneOf"):
                branches = s.get(k)
                if isinstance(branches, list):
                    todo.extend(branches)
            for k in ("if", "then", "else"):
                if k in s:
                    todo.append(s[k])
            for k in ("dependentSchemas", "dependencies"):
                deps = s.get(k)
                if isinstance(deps, dict) and isinstance(value, dict):
                    todo.extend(v for n, v in deps.items() if n in value and isinstance(v, dict))
        if isinstance(value, dict):
            for k_, child in value.items():
                key = str(k_)
                steps += len(applying)
                if steps > MAX_STEPS:
                    raise CannotTell(
                        f"the call is too large to follow (over {MAX_STEPS} steps)", steps
                    )
                kids: list[Any] = []
                declared = False
                for s in applying:
                    props = s.get("properties")
                    named = isinstance(props, dict) and key in props
                    if named:
                        declared = True
                        kids.append(props[key])  # type: ignore[index]
                    matched = False
                    pats = s.get("patternProperties")
                    if isinstance(pats, dict):
                        for pat, sub in pats.items():
                            if patterns.match(pat, key):
                                matched = True
                                # A pattern every key matches, to a schema accepting every
                                # value, is an open map: it declares nothing.
                                if not patterns.universal(pat) or _says_something(sub, refs, memo):
                                    declared = True
                                kids.append(sub)
                    if not named and not matched:
                        for k in ("additionalProperties", "unevaluatedProperties"):
                            extra = s.get(k)
                            if _says_something(extra, refs, memo):
                                declared = True
                                kids.append(extra)
                if not declared:
                    return ptr + "/" + pointer_escape(key)
                work.append((child, ptr + "/" + pointer_escape(key), kids))
        else:
            for i, child in enumerate(value):
                kids = []
                for s in applying:
                    pre = s.get("prefixItems")
                    items = s.get("items")
                    if isinstance(pre, list) and i < len(pre):
                        kids.append(pre[i])
                    elif isinstance(items, list):  # the draft-07 tuple form
                        if i < len(items):
                            kids.append(items[i])
                        elif "additionalItems" in s:
                            kids.append(s["additionalItems"])
                    elif items is not None:
                        kids.append(items)
                    for k in ("unevaluatedItems", "contains"):
                        if k in s:
                            kids.append(s[k])
                work.append((child, f"{ptr}/{i}", kids))
    return None
