"""The one schema walker: JSON pointers into a schema document, bounded node walks, and local
``$ref`` resolution with cycle and hop bounds, shared by the diff and the witness search.

``schema_diff`` (the verdict) and ``witness`` (the calls that prove it) read a schema through
these same functions, so they never disagree on what a ``$ref``, an ``$anchor`` or a pointer
stands for. Everything here is total over any JSON value and bounded: no recursion, no fetching
(a remote ``$ref`` is reported, never followed), a hop limit on ``$ref`` chains, a cycle check.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple
from urllib.parse import unquote

from mcp_review.engine.model import pointer_escape, pointer_join, pointer_tokens

__all__ = [
    "COMBINATORS",
    "DEFINITIONS",
    "MAX_REF_HOPS",
    "MISSING",
    "SCHEMA_LIST",
    "SCHEMA_MAP",
    "SCHEMA_ONE",
    "Deref",
    "Refs",
    "Unresolved",
    "escape",
    "follow",
    "get",
    "nodes",
    "ref_sites",
    "refs_for",
]

MISSING: Any = object()
"""What :func:`get` answers for a location the document does not have."""

MAX_REF_HOPS = 65
"""``$ref``\\ s followed in one chain at most (beyond it, or round a cycle: no schema)."""


# Where subschemas sit -----------------------------------------------------------------------

SCHEMA_ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "contentSchema",
    }
)
"""Keywords whose value is one subschema."""
SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
"""Keywords whose value is a list of subschemas (``items``: the draft-07 tuple form)."""
SCHEMA_MAP = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
"""Keywords whose value maps names to subschemas (``dependencies``: draft-07, where a value
may also be a list of property names)."""
COMBINATORS = frozenset({"anyOf", "oneOf", "allOf"})
"""The composition keywords: branches that apply at the same instance location."""
DEFINITIONS = frozenset({"$defs", "definitions"})
"""Containers of definitions: they constrain nothing by themselves, only through ``$ref``."""


# Pointers ------------------------------------------------------------------------------------


def get(node: Any, toks: list[str]) -> Any:
    """The value at reference tokens ``toks`` below ``node`` (object keys, array indexes);
    :data:`MISSING` where there is none."""
    for t in toks:
        if isinstance(node, dict) and t in node:
            node = node[t]
        elif isinstance(node, list) and t.isdigit() and int(t) < len(node):
            node = node[int(t)]
        else:
            return MISSING
    return node


escape = pointer_escape
"""One RFC 6901 reference token, escaped (``~`` and ``/``): :func:`model.pointer_escape`."""


def nodes(
    root: Any, *, limit: int | None = None, max_depth: int | None = None
) -> Iterator[tuple[Any, list[str]]]:
    """Every object and array in ``root`` with its reference tokens, depth first, iteratively.

    At most ``limit`` containers are visited; containers more than ``max_depth`` tokens deep
    are not entered (both unbounded when None, for a document already bounded by the caller).
    """
    stack: list[tuple[Any, list[str]]] = [(root, [])]
    seen = 0
    while stack and (limit is None or seen < limit):
        node, at = stack.pop()
        seen += 1
        yield node, at
        if max_depth is not None and len(at) >= max_depth:
            continue
        if isinstance(node, dict):
            stack.extend((v, [*at, k]) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(
                (v, [*at, str(i)]) for i, v in enumerate(node) if isinstance(v, (dict, list))
            )


def ref_sites(
    root: Any, ref: str, *, first: int | None = None, limit: int = 5000
) -> list[list[str]]:
    """Schema locations (tokens) whose ``$ref`` is exactly ``ref``, shortest first (a change
    inside ``$defs`` shows in instances wherever it is referenced). ``first`` stops the walk
    once that many are found; at most ``limit`` containers are visited, 64 tokens deep."""
    out: list[list[str]] = []
    for node, at in nodes(root, limit=limit, max_depth=64):
        if first is not None and len(out) >= first:
            break
        if isinstance(node, dict) and node.get("$ref") == ref:
            out.append(at)
    out.sort(key=len)
    return out


# References ----------------------------------------------------------------------------------


class Unresolved(Exception):
    """A ``$ref`` that does not resolve in its document (``remote``: it names another one)."""

    def __init__(self, why: str, remote: bool = False):
        super().__init__(why)
        self.why = why
        self.remote = remote


class Deref(NamedTuple):
    """A ``$ref`` chain followed (see :meth:`Refs.deref`)."""

    view: Any
    """The schema the node stands for: the last target, keywords beside each ``$ref`` merged
    over it; where the chain breaks, the node reached so far without its ``$ref``."""
    frag: str | None
    """Pointer (within the document) of the last target reached; None when no ``$ref``."""
    key: Any
    """Identity of the view for memos: ``id`` of the node or the target, or a tuple of the ids
    along the chain when keywords were merged (the view is then a fresh dict)."""
    problem: str | None
    """Why the chain broke: ``remote``, ``not a string``, ``no such location``, ``no anchor
    …``, ``a $ref cycle with no schema``; None when it resolved."""
    ref: Any
    """The ``$ref`` that broke the chain, as written ("" when it resolved)."""
    last: Any
    """Where the chain broke, the node reached so far with its ``$ref`` (else ``view``)."""


class Refs:
    """Local ``$ref`` resolution against one schema document (``root``).

    JSON-pointer fragments (percent-decoded), ``$anchor`` names and ``$id: "#name"`` plain-name
    fragments; never fetches. The anchor index is built on first need, once per document.
    """

    __slots__ = ("_anchors", "root")

    def __init__(self, root: Any):
        self.root = root
        self._anchors: dict[str, str] | None = None

    def anchor(self, name: str) -> str | None:
        """The pointer of the subschema that declares plain-name fragment ``name``."""
        if self._anchors is None:
            idx: dict[str, str] = {}
            for node, at in nodes(self.root):
                if isinstance(node, dict):
                    a = node.get("$anchor")
                    if isinstance(a, str) and a not in idx:
                        idx[a] = pointer_join("", *at)
                    i = node.get("$id")
                    if isinstance(i, str) and i.startswith("#") and i[1:] not in idx:
                        idx[i[1:]] = pointer_join("", *at)
            self._anchors = idx
        return self._anchors.get(name)

    def resolve(self, ref: str) -> tuple[Any, str]:
        """(target node, its pointer within the document) of a local ``$ref``; raises
        :class:`Unresolved` for a remote, dangling or unknown-anchor reference."""
        if not ref.startswith("#"):
            raise Unresolved("remote", remote=True)
        frag = unquote(ref[1:])
        if frag and not frag.startswith("/"):
            found = self.anchor(frag)
            if found is None:
                raise Unresolved(f"no anchor {frag!r}")
            frag = found
        target = get(self.root, pointer_tokens(frag))
        if target is MISSING:
            raise Unresolved("no such location")
        return target, frag

    def target(self, node: Any, is_pure: Any, hops: int = 8) -> Any:
        """What a bare-reference node stands for (``is_pure(node)`` says which nodes are only a
        ``$ref``), following at most ``hops`` of them; ``node`` itself when it is not one or
        the chain does not resolve."""
        cur = node
        for _ in range(hops):
            if not is_pure(cur):
                return cur
            try:
                cur, _ = self.resolve(cur["$ref"])
            except Unresolved:
                return node
        return node

    def deref(
        self, s: Any, *, max_hops: int = MAX_REF_HOPS, keep: list[Any] | None = None
    ) -> Deref:
        """Follow the ``$ref`` chain at ``s``.

        Keywords beside a ``$ref`` are merged over its target (2020-12 applies both; even prose
        beside a ``$ref`` is shown to the model); the view is a shallow dict, never a deep
        copy, and each merged view is appended to ``keep`` (the caller keeps it alive so ids
        in memo keys stay unique). More than ``max_hops`` hops, or a target reached twice, is
        a cycle with no schema."""
        if not (isinstance(s, dict) and "$ref" in s):
            return Deref(s, None, id(s), None, "", s)
        view: Any = s
        key: list[int] = [id(s)]
        seen: set[str] = set()
        merged = False
        frag: str | None = None
        while isinstance(view, dict) and "$ref" in view:
            ref = view["$ref"]
            if not isinstance(ref, str):
                return Deref(_strip(view), frag, tuple(key), "not a string", ref, view)
            try:
                target, at = self.resolve(ref)
            except Unresolved as e:
                return Deref(
                    _strip(view), frag, tuple(key), "remote" if e.remote else e.why, ref, view
                )
            if at in seen or len(seen) >= max_hops:
                return Deref(
                    _strip(view), frag, tuple(key), "a $ref cycle with no schema", ref, view
                )
            seen.add(at)
            frag = at
            siblings = {k: v for k, v in view.items() if k != "$ref"}
            key.append(id(target))
            if siblings:
                if isinstance(target, dict):
                    view = {**target, **siblings}
                elif target is True:
                    view = siblings
                else:
                    view = target
                merged = True
                if keep is not None:
                    keep.append(view)
            else:
                view = target
        return Deref(view, frag, tuple(key) if merged else (key[-1],), None, "", view)


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "$ref"}


_RECENT: dict[int, Refs] = {}
_RECENT_MAX = 8


def refs_for(root: Any) -> Refs:
    """The :class:`Refs` of ``root``, reused across calls for the few documents in use (the
    anchor index is built once per document, not once per ``$ref`` followed). Schema
    documents are read, never mutated, while they are being walked."""
    refs = _RECENT.get(id(root))
    if refs is None or refs.root is not root:
        if len(_RECENT) >= _RECENT_MAX:
            _RECENT.clear()
        refs = _RECENT[id(root)] = Refs(root)
    return refs


def follow(root: Any, node: Any, max_hops: int) -> Any:
    """``node`` with its ``$ref`` chain in ``root`` followed (:meth:`Refs.deref`), for a caller
    that only wants the schema: where the chain breaks, the node reached so far, ``$ref`` and
    all (a remote or dangling reference stays visible as one)."""
    if not (isinstance(node, dict) and "$ref" in node):
        return node
    return refs_for(root).deref(node, max_hops=max_hops).last
