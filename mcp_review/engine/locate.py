"""Where in a call a schema location applies: instance paths for a schema pointer.

Used by replay to find the recorded calls that still send a property the new definition
removed. Exact or nothing: a location reached through a branch that may not apply to a call
(``anyOf``/``oneOf``/``if``/``not``), through a key pattern, or through extra keys gives no
path, so a call is never called "ignored" on a guess.
"""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import pointer_tokens
from mcp_review.engine.walk import DEFINITIONS, escape, ref_sites

Path = tuple[str | int | None, ...]
"""Instance path: object keys, array indexes, None for "any index"."""

MAX_SITES = 16
"""$ref sites followed per definition, and instance paths returned per location."""

_MAX_HOPS = 4


def instance_paths(root: Any, pointer: str) -> tuple[Path, ...]:
    """Instance paths the schema location ``pointer`` (relative to ``root``, e.g.
    ``/properties/a/items/properties/b``) applies to; () when not exactly known."""
    out: list[Path] = []
    _walk(root, pointer_tokens(pointer), out, 0)
    return tuple(dict.fromkeys(out))[:MAX_SITES]


def _get(node: Any, tok: str) -> Any:
    if isinstance(node, dict):
        return node.get(tok)
    if isinstance(node, list) and tok.isdigit() and int(tok) < len(node):
        return node[int(tok)]
    return None


def _walk(root: Any, toks: list[str], out: list[Path], hops: int) -> None:
    path: list[str | int | None] = []
    node = root
    i = 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t in DEFINITIONS and nxt is not None and i == 0:
            if hops >= _MAX_HOPS:
                return
            target = "#/" + t + "/" + escape(nxt)
            for site in ref_sites(root, target)[:MAX_SITES]:
                _walk(root, [*site, *toks[2:]], out, hops + 1)
            return
        if not isinstance(node, dict):
            return
        if t == "properties" and nxt is not None:
            path.append(nxt)
            node = _get(_get(node, "properties"), nxt)
            i += 2
        elif t == "prefixItems" and nxt is not None and nxt.isdigit():
            path.append(int(nxt))
            node = _get(_get(node, t), nxt)
            i += 2
        elif t == "items" and nxt is not None and nxt.isdigit():  # draft-07 tuple form
            path.append(int(nxt))
            node = _get(_get(node, t), nxt)
            i += 2
        elif t == "items" and not isinstance(node.get("prefixItems"), list):
            path.append(None)
            node = node.get("items")
            i += 1
        elif t == "allOf" and nxt is not None:
            node = _get(_get(node, t), nxt)  # applies to every call: same place
            i += 2
        else:
            return  # a branch, a pattern, extra keys, a conditional: not exactly known
    out.append(tuple(path))
