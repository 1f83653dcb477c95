"""Does a schema accept no JSON object at all?

``tools/call`` arguments are a JSON object (MCP), so an ``inputSchema`` whose root admits no
object (a ``$ref`` to a string ``enum``, a ``type`` of ``"string"``) rejects every call any
client can send, in every version that says so. Such a tool is one protocol finding, not a list
of changes inside definitions no call can reach.

Decided statically and conservatively: True only when the root provably rejects every object
(its ``type`` leaves objects out, its ``enum`` / ``const`` lists no object, it is ``false``, every
``anyOf`` / ``oneOf`` alternative rejects objects, some ``allOf`` part does); ``$ref`` chains are
followed locally, a bounded number of hops. Anything it cannot read is "may accept one"."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.walk import Refs, Unresolved

_MAX_STEPS = 64
"""Schema nodes looked at, at most (a hostile union cannot make the check expensive)."""


def accepts_no_object(schema: Any) -> bool:
    """True when no JSON object is valid under ``schema`` (a whole document: its own root)."""
    if not isinstance(schema, (dict, bool)):
        return False
    return _no_object(schema, Refs(schema), [_MAX_STEPS], 0)


def _no_object(s: Any, refs: Refs, steps: list[int], hops: int) -> bool:
    steps[0] -= 1
    if steps[0] < 0 or hops > 16:
        return False
    if s is False:
        return True
    if not isinstance(s, dict):
        return False
    t = s.get("type")
    if isinstance(t, str) and t != "object":
        return True
    if isinstance(t, list) and t and all(isinstance(x, str) for x in t) and "object" not in t:
        return True
    if "const" in s and not isinstance(s["const"], dict):
        return True
    enum = s.get("enum")
    if isinstance(enum, list) and not any(isinstance(v, dict) for v in enum):
        return True
    ref = s.get("$ref")
    if isinstance(ref, str):
        try:
            target, _ = refs.resolve(ref)
        except Unresolved:
            target = None
        if target is not None and _no_object(target, refs, steps, hops + 1):
            return True
    for kw in ("anyOf", "oneOf"):
        alts = s.get(kw)
        if isinstance(alts, list) and alts and all(_no_object(a, refs, steps, hops) for a in alts):
            return True
    parts = s.get("allOf")
    return isinstance(parts, list) and any(_no_object(p, refs, steps, hops) for p in parts)
