"""Where a witness goes: attributing the new schema's errors to a change, and building a call
with a value at a schema location's instance path (split out of :mod:`engine.witness`, which
searches for the calls; this module never imports it back)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from mcp_review.engine.canonical import MAX_DEPTH, too_deep
from mcp_review.engine.generate import Gen, view
from mcp_review.engine.locate import likely_paths, split_location
from mcp_review.engine.model import pointer_tokens
from mcp_review.engine.replay import MAX_ISSUES, Issue
from mcp_review.engine.walk import COMBINATORS, MISSING, get

_ABSENT: Any = MISSING
_BRANCH_TOKENS = COMBINATORS


def copy_json(v: Any) -> Any:
    """A deep copy of a JSON value (``copy.deepcopy`` for anything else, which a witness never
    is): a tenth of deepcopy's time on the small calls witnesses are."""
    if isinstance(v, dict):
        return {k: copy_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [copy_json(x) for x in v]
    if v is None or isinstance(v, (str, int, float)):
        return v
    return copy.deepcopy(v)


def touches(issues: list[Issue], paths: set[str] | None, toks: list[str]) -> bool:
    """The new schema rejects the call (also) at this change: some error's schema path lies
    under the change's location, is the keyword of its object or list that governs it (a
    removed property: ``additionalProperties``, ``required``; a branch: its ``anyOf``), or is
    a keyword of the same schema node (the node that held the removed branches)."""
    err = [tuple(pointer_tokens(p)) for p in (paths if paths is not None else ())] or [
        tuple(pointer_tokens(i.schema_path)) for i in issues
    ]
    at = tuple(toks)
    roots = {at}
    if len(at) >= 2 and at[-2] in ("properties", "patternProperties"):
        parent = at[:-2]
        roots |= {
            (*parent, kw) for kw in ("additionalProperties", "required", "unevaluatedProperties")
        }
    # the union (anyOf/oneOf) holding the change's branch, failed as a whole
    roots |= {at[: k + 1] for k in range(len(at) - 1) if at[k] in _BRANCH_TOKENS}
    nodes = {at[:-1]} if at else set()  # a keyword's own schema node
    if len(at) >= 2 and (at[-1].isdigit() or at[-2] in _BRANCH_TOKENS):
        roots.add(at[:-1])
        nodes.add(at[:-2])  # the node that held the branches (now maybe a plain schema)
    return any(e[: len(r)] == r for e in err for r in roots) or any(
        len(e) == len(n) + 1 and e[: len(n)] == n for e in err for n in nodes if n
    )


def at_instance(issues: list[Issue], where: set[str]) -> bool:
    """The new schema rejects the call at (or inside) the place in the call where this
    change's location applies: a change whose location only the old schema has (a branch the
    new one folded away) is judged by where the call breaks, not by the schema's words."""
    return any(i.path == w or i.path.startswith(w + "/") for i in issues for w in where)


def instance_key(inst: Any) -> str | None:
    if too_deep(inst, MAX_DEPTH):
        return None
    try:
        return json.dumps(inst, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def best_issue(issues: list[Issue], toks: list[str]) -> Issue:
    """The issue that names the changed keyword (for a property, its ``required`` error naming
    it), else the first one."""
    loc, kw = split_location(toks)
    if kw:
        for i in issues:
            if kw[0] in pointer_tokens(i.schema_path):
                return i
    elif len(loc) >= 2 and loc[-2] == "properties":
        quoted = json.dumps(loc[-1], ensure_ascii=False)
        for i in issues:
            if i.schema_path.endswith("/required") and quoted in i.message:
                return i
    return issues[0] if issues else Issue("", "rejected", "")


# Pointers and instance locations ------------------------------------------------------------


def patch(root: Any, toks: list[str], value: Any) -> Any:
    """A copy of ``root`` with ``value`` at ``toks`` (deleted when _ABSENT); copies the path only."""
    if not toks:
        return True if value is _ABSENT else value
    if not isinstance(root, (dict, list)):
        return root
    head, rest = toks[0], toks[1:]
    if isinstance(root, dict):
        out = dict(root)
        if rest:
            if head in out:
                out[head] = patch(out[head], rest, value)
            elif value is not _ABSENT:
                out[head] = patch({}, rest, value)
        elif value is _ABSENT:
            out.pop(head, None)
        else:
            out[head] = value
        return out
    lst = list(root)
    if head.isdigit() and int(head) < len(lst):
        if rest:
            lst[int(head)] = patch(lst[int(head)], rest, value)
        elif value is _ABSENT:
            del lst[int(head)]
        else:
            lst[int(head)] = value
    return lst


_LOCAL_KEYWORDS = frozenset(
    {
        "required",
        "dependentRequired",
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    }
)
"""Assertion keywords that judge their own instance only (no subschema, no sibling)."""


def keyword_attributable(issues: list[Issue], paths: set[str] | None, kw: list[str]) -> bool:
    if not issues or paths is None or len(issues) >= MAX_ISSUES:
        return False
    where = {i.path for i in issues}
    return len(where) == 1 and all(pointer_tokens(p)[-1:] == kw[:1] for p in paths)


def plain_object_path(toks: Any) -> bool:
    """Tokens made of ``properties/<name>`` steps only (the instance path is the names)."""
    return len(toks) % 2 == 0 and all(t == "properties" for t in toks[0::2])


def plain_keyword_path(toks: Any) -> bool:
    return bool(toks) and toks[-1] in _LOCAL_KEYWORDS and plain_object_path(toks[:-1])


def locations(
    acc: Any, rej: Any, toks: list[str]
) -> Iterator[tuple[list[Any], list[Any], Any, Any, Any, list[str]]]:
    loc, kw = split_location(toks)
    n_sub = view(rej, get(rej, loc))
    for path, chain, hint in likely_paths(acc, loc):
        o_sub = chain[-1] if chain else acc
        if o_sub is _ABSENT:  # a location only the new schema has (a property added)
            o_sub = True
        yield path, chain, view(acc, o_sub), n_sub, hint, kw


def all_locations(
    acc: Any, rej: Any, limit: int = 40
) -> Iterator[tuple[list[Any], list[Any], Any, Any]]:
    """Breadth-first (path, chain, acc subschema, rej subschema) over properties and items."""
    queue: list[tuple[list[str], list[Any], list[Any]]] = [([], [], [])]
    n = 0
    while queue and n < limit:
        toks, path, chain = queue.pop(0)
        n += 1
        o = view(acc, get(acc, toks) if toks else acc)
        r = view(rej, get(rej, toks) if toks else rej)
        yield path, chain, o, (r if r is not _ABSENT else None)
        if not isinstance(o, dict) or len(path) >= 4:
            continue
        props = o.get("properties")
        for name, sub in props.items() if isinstance(props, dict) else ():
            queue.append(([*toks, "properties", name], [*path, name], [*chain, sub]))
        if isinstance(o.get("items"), (dict, bool)):
            queue.append(([*toks, "items"], [*path, 0], [*chain, o["items"]]))
        for b in _BRANCH_TOKENS:
            if isinstance(o.get(b), list):
                for i in range(min(len(o[b]), 6)):
                    queue.append(([*toks, b, str(i)], path, chain))


def place(base: Any, path: list[Any], value: Any, chain: list[Any], gen: Gen) -> Any:
    """A copy of ``base`` with ``value`` at the instance ``path`` (parents created from the
    accepting schema's examples); None when the path cannot be built."""
    if not path:
        return None if value is _ABSENT else copy_json(value)
    root = copy_json(base)
    node = root
    for depth, key in enumerate(path):
        last = depth == len(path) - 1
        if isinstance(key, int):
            if not isinstance(node, list):
                return None
            while len(node) <= key:
                sub = chain[depth] if depth < len(chain) else True
                vals = gen.values(sub, 1) if sub is not _ABSENT else []
                node.append(copy_json(vals[0]) if vals else None)
            if last:
                if value is _ABSENT:
                    return None
                node[key] = copy_json(value)
            else:
                node = node[key]
            continue
        if not isinstance(node, dict):
            return None
        if last:
            if value is _ABSENT:
                node.pop(key, None)  # already absent: the call as it stands is the candidate
            else:
                node[key] = copy_json(value)
            break
        if key not in node:
            sub = chain[depth] if depth < len(chain) else True
            vals = gen.values(sub, 1) if sub is not _ABSENT else []
            nxt = path[depth + 1]
            want = list if isinstance(nxt, int) else dict
            pick = next((v for v in vals if isinstance(v, want)), want())
            node[key] = copy_json(pick)
        node = node[key]
    return root
