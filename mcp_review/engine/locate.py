"""Where in a call a schema location applies: instance paths for a schema pointer.

One mapper, two reaches:

- :data:`EXACT` (replay, :func:`instance_paths`: the recorded calls that still send a property
  the new definition removed). Exact or nothing: a location reached through a branch that may
  not apply to a call (``anyOf``/``oneOf``/``if``/``not``), through a key pattern, or through
  extra keys gives no path, so a call is never called "ignored" on a guess.
- :data:`LIKELY` (the witness search, :func:`likely_paths`: where to put a value that may show
  a change). Every location maps to *a* place a call can reach: a branch to its own instance
  location (with the branch as a hint), a key pattern to a key it probably matches, extra keys
  to a key the object does not declare, ``$ref``\\ s followed; a location it cannot follow maps
  to the path reached so far. The search checks every call it builds with the validator.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcp_review.engine.generate import view
from mcp_review.engine.model import pointer_tokens
from mcp_review.engine.regex_sample import regex_example
from mcp_review.engine.walk import (
    COMBINATORS,
    DEFINITIONS,
    MISSING,
    SCHEMA_MAP,
    escape,
    get,
    ref_sites,
)

Path = tuple[str | int | None, ...]
"""Instance path: object keys, array indexes, None for "any index"."""

MAX_SITES = 16
"""$ref sites followed per definition, and instance paths returned per location (EXACT)."""


@dataclass(frozen=True, slots=True)
class Reach:
    """How far a mapping goes: ``exact`` maps only what applies to every call, in the schema
    as written; otherwise branches, key patterns, extra keys and ``$ref``\\ s are followed. A
    ``$defs`` location maps through the ``$ref`` sites naming it: at most ``max_hops`` such
    steps in a chain, ``sites`` sites per step among the first ``first`` found (None: all)."""

    exact: bool
    max_hops: int
    first: int | None
    sites: int


EXACT = Reach(exact=True, max_hops=4, first=None, sites=MAX_SITES)
LIKELY = Reach(exact=False, max_hops=3, first=8, sites=3)

_KEY_TOKENS = SCHEMA_MAP - {"dependencies"}  # draft-07 dependencies: not searched for witnesses
_SAME_PLACE_TOKENS = frozenset({"not", "if", "then", "else"})
_ONE_STEP_TOKENS = frozenset(
    {
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
    }
)


def instance_paths(root: Any, pointer: str) -> tuple[Path, ...]:
    """Instance paths the schema location ``pointer`` (relative to ``root``, e.g.
    ``/properties/a/items/properties/b``) applies to; () when not exactly known."""
    out = [tuple(path) for path, _, _ in walk(root, pointer_tokens(pointer), EXACT)]
    return tuple(dict.fromkeys(out))[:MAX_SITES]


def likely_paths(root: Any, loc: list[str]) -> Iterator[tuple[list[Any], list[Any], Any]]:
    """(instance path, subschema of ``root`` at each path step, branch hint) for location
    tokens (see :func:`split_location`), by the :data:`LIKELY` reach."""
    return walk(root, loc, LIKELY)


def split_location(toks: list[str]) -> tuple[list[str], list[str]]:
    """Split schema-pointer tokens into (location tokens, keyword tokens)."""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in _KEY_TOKENS or t in COMBINATORS or t == "prefixItems":
            if i + 1 >= len(toks):
                break
            i += 2
        elif t == "items" and i + 1 < len(toks) and toks[i + 1].isdigit():
            i += 2  # draft-07 tuple items
        elif t in _ONE_STEP_TOKENS or t in _SAME_PLACE_TOKENS:
            i += 1
        else:
            break
    return toks[:i], toks[i:]


def walk(
    root: Any, toks: list[str], reach: Reach, hops: int = 0
) -> Iterator[tuple[list[Any], list[Any], Any]]:
    """(instance path, subschema at each path step, branch hint) for schema tokens ``toks``.

    EXACT yields a path only for a location it followed to the end; LIKELY always yields one
    (the path reached where it stops following). ``$defs/X`` locations map through the places
    that reference them (bounded by ``reach``)."""
    exact = reach.exact
    path: list[Any] = []
    chain: list[Any] = []
    node = root
    hint = None
    i = 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t in DEFINITIONS and nxt is not None and (i == 0 or not exact):
            if hops >= reach.max_hops:
                return
            ref = "#/" + "/".join(escape(x) for x in toks[: i + 2])
            for site in ref_sites(root, ref, first=reach.first)[: reach.sites]:
                if not exact and split_location(site)[0] != site:
                    continue
                for p2, c2, h2 in walk(root, [*site, *toks[i + 2 :]], reach, hops + 1):
                    yield path + p2, chain + c2, h2 or hint
            return
        if exact:
            if not isinstance(node, dict):
                return
            here = node  # the schema as written: a $ref is not a place every call reaches
        else:
            here = view(root, node) if node is not MISSING else MISSING
        if t == "properties" and nxt is not None:
            path.append(nxt)
            node = get(here, ["properties", nxt])
            chain.append(node)
            i += 2
        elif t in ("prefixItems", "items") and nxt is not None and nxt.isdigit():
            path.append(int(nxt))  # items/<n>: the draft-07 tuple form
            node = get(here, [t, nxt])
            chain.append(node)
            i += 2
        elif t == "items" and exact:
            if isinstance(here.get("prefixItems"), list):
                return  # after the tuple: which index is not one place
            path.append(None)
            node = get(here, ["items"])
            chain.append(node)
            i += 1
        elif t == "allOf" and nxt is not None and exact:
            node = get(here, [t, nxt])  # applies to every call: same place
            i += 2
        elif exact:
            return  # a branch, a pattern, extra keys, a conditional: not exactly known
        elif t == "patternProperties" and nxt is not None:
            path.append(regex_example(nxt) or "a")
            node = get(here, ["patternProperties", nxt])
            chain.append(node)
            i += 2
        elif t == "dependentSchemas" and nxt is not None:
            node = get(here, ["dependentSchemas", nxt])
            i += 2
        elif t in ("additionalProperties", "unevaluatedProperties"):
            # An object that declares no properties (a free-form map) has none to avoid.
            props = get(here, ["properties"])
            declared = set(props) if isinstance(props, dict) else set()
            path.append(fresh_key(declared))
            node = get(here, [t])
            chain.append(node)
            i += 1
        elif t in ("items", "additionalItems", "unevaluatedItems", "contains"):
            pre = get(here, ["prefixItems"])
            items_list = get(here, ["items"])
            idx = 0
            if t != "contains" and isinstance(pre, list):
                idx = len(pre)
            elif t == "additionalItems" and isinstance(items_list, list):
                idx = len(items_list)
            path.append(idx)
            node = get(here, [t])
            chain.append(node)
            i += 1
        elif t in COMBINATORS and nxt is not None:
            # Same instance location; later tokens are relative to the branch, and the
            # branch hints at values (a removed anyOf alternative's own instance).
            hint = node = get(here, [t, nxt])
            i += 2
        elif t in _SAME_PLACE_TOKENS:
            i += 1
        else:
            break
    yield path, chain, hint


def fresh_key(declared: set[str]) -> str:
    """A key the object does not declare (an extra key for additionalProperties)."""
    for k in ("extra", "extra_1", "extra_2", "x_extra"):
        if k not in declared:
            return k
    i = 3
    while f"extra_{i}" in declared:
        i += 1
    return f"extra_{i}"
