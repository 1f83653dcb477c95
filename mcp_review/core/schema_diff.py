"""Classified diff of two tool definitions: text, annotations, input/output schema, hidden chars.

The walker descends old and new schemas together, carrying a polarity: positive where new must
accept every value old accepted (``inputSchema``), negative where the direction flips
(``outputSchema``, and each ``not``). At each node it decides which rule of ``rules.RULES``
fired and with what effect on the set of valid values; ``rules`` turns that into a class and a
message. Judged closed-world over declared properties (design.md): old calls are assumed to set
only properties the old schema declared.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from mcp_review.core.canonical import MAX_DEPTH, canonical_json
from mcp_review.core.hidden import has_hidden
from mcp_review.core.model import (
    CLASS_ORDER,
    Change,
    ChangeClass,
    Direction,
    NewText,
    ToolDef,
    pointer_join,
)
from mcp_review.core.rules import (
    RULES,
    Effect,
    Raw,
    class_for,
    hidden_tokens,
    make,
    new_text,
    quote,
    where,
    with_new_text,
)
from mcp_review.core.rules import text_delta as _delta
from mcp_review.core.walk import DEFINITIONS, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_ONE, Refs

__all__ = ["diff_schemas", "diff_tools", "scan_hidden"]

_MISSING: Any = object()

_ANNOTATIONS_COSMETIC = frozenset({
    "examples", "example", "$comment", "deprecated", "readOnly", "writeOnly", "$id", "$anchor",
    "$dynamicAnchor", "contentMediaType", "contentEncoding", "contentSchema", "$vocabulary",
})
_TEXT = frozenset({"title", "description"})
_TEXT_ANNOTATIONS = frozenset({"$comment", "examples", "example"})  # text: on the trust axis
_CONTAINERS = DEFINITIONS  # judged only through the refs that use them
# Keywords that carry no constraint: a schema made only of these accepts every value.
_NO_CONSTRAINT = _ANNOTATIONS_COSMETIC | _TEXT | _CONTAINERS | {"$schema", "default"}

_JSON_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})
_AT_KEYWORD = frozenset({
    "additional-properties-closed", "additional-properties-restricted",
    "additional-properties-opened", "pattern-property-added", "pattern-property-removed",
    "property-names-added", "property-names-removed", "dependent-required-added",
    "dependent-required-removed", "dependent-schema-added", "dependent-schema-removed",
    "contains-added", "contains-removed", "not-added", "not-removed", "if-changed",
    "conditional-branch-added", "conditional-branch-removed", "any-of-branch-added",
    "any-of-branch-removed", "one-of-branch-added", "one-of-branch-removed",
    "all-of-branch-added", "all-of-branch-removed", "composition-added", "composition-removed",
})
_ENTRY_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf", "patternProperties", "dependentSchemas",
                             "dependentRequired", "dependencies"})
_HEADER = "x-mcp-header"
_HIDDEN_CAP = 100
"""Most hidden-character changes reported per definition; the rest are summarised in one."""


# Equality ------------------------------------------------------------------------------------


def _dumps(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _jeq(a: Any, b: Any) -> bool:
    """JSON equality, fast: Python ``==`` first (it never calls unequal what JSON calls equal),
    then a C-speed dump to tell ``true`` from ``1``, canonical form only for ``1`` vs ``1.0``."""
    if a is b:
        return True
    try:
        if a != b:
            return False
        if _dumps(a) == _dumps(b):
            return True
        return canonical_json(a) == canonical_json(b)
    except (TypeError, ValueError, RecursionError):
        return False


def _ckey(v: Any) -> str:
    try:
        return canonical_json(v)
    except (TypeError, ValueError, RecursionError):
        return repr(v)


def _has_ref(v: Any) -> bool:
    try:
        return '"$ref"' in _dumps(v)
    except (TypeError, ValueError, RecursionError):
        return True


def _accepts_all(s: Any) -> bool:
    return s is True or (isinstance(s, dict) and all(k in _NO_CONSTRAINT for k in s))


def _rejects_all(s: Any) -> bool:
    return s is False or (isinstance(s, dict) and "not" in s and _accepts_all(s["not"])
                          and all(k in _NO_CONSTRAINT or k == "not" for k in s))


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _frac(v: int | float) -> Fraction:
    # The decimal repr, not the binary float: multipleOf 0.1 means one tenth.
    return Fraction(v) if isinstance(v, int) else Fraction(repr(v))


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array",
            dict: "object"}.get(type(v), type(v).__name__)


def _shape(s: Any) -> str:
    """Canonical text of a property schema without its prose: the key of the rename hint."""
    if isinstance(s, dict):
        s = {k: v for k, v in s.items() if k not in _TEXT and k not in _ANNOTATIONS_COSMETIC}
    return _ckey(s)


# Text ----------------------------------------------------------------------------------------

_WS = re.compile(r"\s+")


def _text_rule(old: str, new: str, rule: str) -> str | None:
    """Which rule a text edit fires: None (equal), a cosmetic rule, or ``rule``."""
    if old == new:
        return None
    on, nn = unicodedata.normalize("NFC", old), unicodedata.normalize("NFC", new)
    if on == nn:
        return "text-normalization-changed"
    if _WS.sub(" ", on).strip() == _WS.sub(" ", nn).strip():
        return "text-whitespace-changed"
    return rule


def _as_text(v: Any) -> str:
    if v is None or v is _MISSING:
        return ""
    return v if isinstance(v, str) else _dumps(v)


# The walker ----------------------------------------------------------------------------------


class _Walker:
    """One comparison of two schema documents (the roots refs resolve against)."""

    def __init__(self, old_root: Any, new_root: Any, base: str, positive: bool,
                 out: list[Change]):
        self.old_root, self.new_root = old_root, new_root
        self.base = base
        self.positive = positive
        self.direction = Direction.OUTPUT if base == "/outputSchema" else Direction.INPUT
        self.out = out
        self.memo: set[tuple[Any, ...]] = set()
        self.alive: list[Any] = []  # synthetic views stay referenced so their ids stay unique
        self.lifted: set[int] = set()
        self.refs = {id(old_root): Refs(old_root), id(new_root): Refs(new_root)}
        self.flat: dict[int, tuple[Any, Any]] = {}  # id(schema) -> (schema, flattened view)
        self.probes = [_PROBE_BUDGET]  # shared with every probe walker of this walk
        self.probed: dict[tuple[int, int, bool], Any] = {}  # shared too: (o, n, pos) -> verdict
        self.split_memo: dict[int, tuple[Any, list[Any]]] = {}
        self.is_probe = False
        self.reported: set[tuple[str, str]] = set()  # (text kind, normalised text) named

    def flatten(self, s: Any, *, refs: bool, root: Any = None) -> Any:
        """``s`` with its ``allOf`` folded in where that is exact (see _flatten_all_of); the
        same view object for the same schema, so $ref recursion through it still terminates.

        With ``root``, an allOf whose branches are ``$ref``s to parts of an object (an object
        rewritten as ``allOf`` of references to its pieces) is folded through their targets
        when the plain fold cannot."""
        if not (isinstance(s, dict) and "allOf" in s):
            return s
        hit = self.flat.get(id(s))
        if hit is None or hit[0] is not s:
            view = _flatten_all_of(s, refs=refs)
            if view is s and root is not None and isinstance(s["allOf"], list) and any(
                    _pure_ref(b) for b in s["allOf"]):
                resolved = {**s, "allOf": [self._target(root, b) for b in s["allOf"]]}
                view = _flatten_all_of(resolved, refs=False, merge_objects=True)
                if view is resolved:
                    view = s
                else:
                    self.alive.append(view)
            hit = (s, view)
            self.flat[id(s)] = hit
        return hit[1]

    def _target(self, root: Any, b: Any) -> Any:
        """The schema a pure ``{"$ref": …}`` branch stands for (chains followed, bounded);
        ``b`` itself when it is not one or does not resolve."""
        return self._refs(root).target(b, _pure_ref)

    # Emitting --------------------------------------------------------------------------------
    def emit(self, rule_id: str, ptr: str, pos: bool, effect: Effect | None = None,
             cls: ChangeClass | None = None, **params: Any) -> Change:
        rule = RULES[rule_id]
        eff = effect or rule.effect
        if cls is None:
            cls = class_for(eff, pos) if eff is not None else rule.cls
        if rule_id in _AT_KEYWORD and "where" not in params:
            # The pointer names the keyword (or one entry of it): say where its schema is.
            toks = ptr.split("/")
            cut = 2 if len(toks) > 2 and toks[-2] in _ENTRY_KEYWORDS else 1
            params["where"] = Raw(where("/".join(toks[:-cut])))
        ch = make(rule_id, ptr, cls=cls, direction=self.direction, **params)
        self.out.append(ch)
        return ch

    def engine_error(self, ptr: str, pos: bool, e: BaseException) -> None:
        """An unexpected exception inside a rule: potentially-breaking, naming the pointer and
        the exception's type (never its text: it may quote the server's schema)."""
        self.emit("engine-error", ptr, pos, error=Raw(type(e).__name__))

    # References ------------------------------------------------------------------------------
    def _refs(self, root: Any) -> Refs:
        refs = self.refs.get(id(root))
        if refs is None or refs.root is not root:
            refs = self.refs[id(root)] = Refs(root)
        return refs

    def deref(self, s: Any, ptr: str, root: Any) -> tuple[Any, str, Any, str | None, str]:
        """Follow ``$ref`` chains (core.walk): (view, pointer, key for the memo, problem, ref
        text). Keywords beside a ``$ref`` are merged over its target."""
        if not (isinstance(s, dict) and "$ref" in s):
            return s, ptr, id(s), None, ""  # the common case, without a call
        d = self._refs(root).deref(s, keep=self.alive)
        ptr = ptr if d.frag is None else self.base + d.frag
        return d.view, ptr, d.key, d.problem, _as_text(d.ref)

    # The walk --------------------------------------------------------------------------------
    def diff(self, o: Any, n: Any, op: str, np: str, pos: bool, depth: int) -> None:
        if o is n:
            return
        if depth > MAX_DEPTH:
            self.emit("schema-too-deep", np, pos, limit=MAX_DEPTH)
            return
        if _jeq(o, n) and not _has_ref(o):
            return
        for s, ptr in ((o, op), (n, np)):
            if not isinstance(s, (dict, bool)):
                if not _jeq(o, n):
                    self.emit("schema-invalid", ptr, pos, kind=Raw(_kind(s)))
                return
        # allOf that only conjoins keywords (pydantic v1's {"allOf": [{"$ref": …}]} wrapper, or
        # constraints split across branches) means the same as one schema with them all: fold
        # it first, so a change of style is not read as branches added or removed.
        o = self.flatten(o, refs=True, root=self.old_root)
        n = self.flatten(n, refs=True, root=self.new_root)
        o, op, okey, oprob, oref = self.deref(o, op, self.old_root)
        n, np, nkey, nprob, nref = self.deref(n, np, self.new_root)
        o, n = self.flatten(o, refs=False), self.flatten(n, refs=False)
        if oprob or nprob:
            same = oprob and nprob and oref == nref
            if not same:
                for prob, ref, ptr in ((oprob, oref, op), (nprob, nref, np)):
                    if prob == "remote":
                        self.emit("ref-remote", ptr, pos, ref=ref)
                    elif prob:
                        self.emit("ref-unresolved", ptr, pos, ref=ref,
                                  why=Raw(prob if ptr is np else f"old definition: {prob}"))
                return
        key = (okey, nkey, pos)
        if key in self.memo:
            return  # a recursive $ref came back round, or a shared definition already judged
        self.memo.add(key)
        if isinstance(o, bool) or isinstance(n, bool) or _rejects_all(o) or _rejects_all(n):
            if self._bools(o, n, op, np, pos):
                return
            o = {} if o is True else o
            n = {} if n is True else n
        if not isinstance(o, dict) or not isinstance(n, dict):
            for s, ptr in ((o, op), (n, np)):
                if not isinstance(s, dict):
                    self.emit("schema-invalid", ptr, pos, kind=Raw(_kind(s)))
            return
        for kw in ("anyOf", "oneOf"):
            if (kw in o) != (kw in n):
                if kw in n and isinstance(n[kw], list):
                    o = self._lift(o, n, kw)
                elif kw in o and isinstance(o[kw], list):
                    n = self._lift(n, o, kw)
        self._keywords(o, n, op, np, pos, depth)

    def _bools(self, o: Any, n: Any, op: str, np: str, pos: bool) -> bool:
        """Boolean (and ``{"not": {}}``) schemas; True when nothing is left to compare."""
        o_no, n_no = _rejects_all(o), _rejects_all(n)
        if o_no and n_no:
            return True
        if n_no:
            self.emit("schema-now-false", np, pos)
            return True
        if o_no:
            self.emit("schema-no-longer-false", np, pos)
            return True
        return False

    def _lift(self, plain: dict[str, Any], composed: dict[str, Any], kw: str) -> dict[str, Any]:
        """See ``{type: string}`` as ``{anyOf: [{type: string}]}`` when the other side has an
        anyOf/oneOf, so ``T`` -> ``anyOf [T, null]`` reads as an added alternative."""
        core = {k: v for k, v in plain.items()
                if k not in _NO_CONSTRAINT and not (k in composed and _jeq(v, composed[k]))}
        if not core:
            return plain
        view = {k: v for k, v in plain.items() if k not in core}
        view[kw] = [core]
        self.alive.append(view)
        self.lifted.add(id(view[kw]))
        return view

    def _keywords(self, o: dict[str, Any], n: dict[str, Any], op: str, np: str, pos: bool,
                  depth: int) -> None:
        o, n = _drop_inert(o, n, pos)
        done: set[Callable[..., None]] = set()
        unknown: list[str] = []
        for k in (*o, *(k for k in n if k not in o)):
            h = _HANDLERS.get(k)
            if h is None:
                if k not in _IGNORED:
                    unknown.append(k)
            elif h not in done:
                done.add(h)
                try:
                    h(self, o, n, op, np, pos, depth)
                except RecursionError:
                    raise  # reported once, as schema-too-deep, by diff_schemas
                except Exception as e:
                    self.engine_error(np, pos, e)
        for k in unknown:
            ov, nv = o.get(k, _MISSING), n.get(k, _MISSING)
            if ov is _MISSING or nv is _MISSING or not _jeq(ov, nv):
                how = "added" if ov is _MISSING else "removed" if nv is _MISSING else "changed"
                self.emit("unsupported-keyword-changed", pointer_join(np if nv is not _MISSING
                                                                      else op, k), pos,
                          keyword=k, how=Raw(how), old=_opt(ov), new=_opt(nv))

    # Keyword handlers (each called at most once per node) --------------------------------------
    def h_text(self, o, n, op, np, pos, depth):
        for field, rule in (("description", "schema-description-changed"),
                            ("title", "schema-title-changed")):
            ov, nv = o.get(field, _MISSING), n.get(field, _MISSING)
            if ov is _MISSING and nv is _MISSING:
                continue
            a, b = _as_text(ov), _as_text(nv)
            fired = _text_rule(a, b, rule)
            if fired is None and (ov is _MISSING) != (nv is _MISSING):
                fired = "text-whitespace-changed"  # "" -> absent: nothing a reader sees
            if fired:
                ptr = pointer_join(np if nv is not _MISSING else op, field)
                self.emit(fired, ptr, pos, delta=_delta(a, b), field=Raw(field))
                self.reported.add((field, _norm(b)))

    def h_annotation(self, o, n, op, np, pos, depth):
        for k in _ANNOTATIONS_COSMETIC:
            ov, nv = o.get(k, _MISSING), n.get(k, _MISSING)
            if (ov is _MISSING and nv is _MISSING) or _jeq(ov, nv):
                continue
            ptr = pointer_join(np if nv is not _MISSING else op, k)
            if k in _TEXT_ANNOTATIONS and self._text_annotation(k, ov, nv, ptr, pos):
                continue
            self.emit("schema-annotation-changed", ptr, pos, keyword=Raw(k), old=_opt(ov),
                      new=_opt(nv))

    def _text_annotation(self, k: str, ov: Any, nv: Any, ptr: str, pos: bool) -> bool:
        """``$comment`` / ``examples`` text the model reads: True when new text fired a trust
        rule. Text that was only removed, or changed in whitespace, stays cosmetic."""
        kind = _TEXT_KIND[k]
        olds = {_norm(t) for t in _data_strings(ov)}
        gained = [t for t in _data_strings(nv) if _norm(t) and _norm(t) not in olds]
        if not gained:
            return False
        self.reported.update((kind, _norm(t)) for t in gained)
        if k == "$comment":
            self.emit("schema-comment-changed", ptr, pos,
                      delta=_delta(_as_text(ov), _as_text(nv)))
        else:
            self.emit("schema-examples-changed", ptr, pos, field=Raw(k),
                      added=list(dict.fromkeys(gained)))
        return True

    def h_dialect(self, o, n, op, np, pos, depth):
        ov, nv = o.get("$schema", _MISSING), n.get("$schema", _MISSING)
        if not _jeq(ov, nv):
            self.emit("schema-dialect-changed", pointer_join(np, "$schema"), pos,
                      old=_opt(ov), new=_opt(nv))

    def h_default(self, o, n, op, np, pos, depth):
        ov, nv = o.get("default", _MISSING), n.get("default", _MISSING)
        if not _jeq(ov, nv):  # default-added/changed below are trust: they name this text
            self.reported.update(("default", _norm(t)) for t in _data_strings(nv))
        if ov is _MISSING:
            self.emit("default-added", pointer_join(np, "default"), pos, new=nv)
        elif nv is _MISSING:
            self.emit("default-removed", pointer_join(op, "default"), pos, old=ov)
        elif not _jeq(ov, nv):
            self.emit("default-changed", pointer_join(np, "default"), pos, old=ov, new=nv)

    def h_type(self, o, n, op, np, pos, depth):
        ot, nt = _types(o.get("type", _MISSING)), _types(n.get("type", _MISSING))
        if ot == nt:
            return
        ptr = pointer_join(np if "type" in n else op, "type")
        if ot is None:
            if not _covers_all(nt):
                self.emit("type-added", ptr, pos, new=_tlist(nt))
            return
        if nt is None:
            if not _covers_all(ot):
                self.emit("type-removed", ptr, pos, old=_tlist(ot))
            return
        lost = [t for t in sorted(ot) if not _covered(t, nt)]
        gained = [t for t in sorted(nt) if not _covered(t, ot)]
        if lost and gained:
            self.emit("type-changed", ptr, pos, old=_tlist(ot), new=_tlist(nt), lost=lost)
        elif lost:
            self.emit("type-narrowed", ptr, pos, old=_tlist(ot), new=_tlist(nt), lost=lost)
        elif gained:
            self.emit("type-widened", ptr, pos, old=_tlist(ot), new=_tlist(nt))

    def h_values(self, o, n, op, np, pos, depth):
        ov, nv = _allowed(o), _allowed(n)
        if ov is None and nv is None:
            return
        const_only = "enum" not in o and "enum" not in n
        side, base = (n, np) if ("enum" in n or "const" in n) else (o, op)
        ptr = pointer_join(base, "enum" if "enum" in side else "const")
        if ov is None:
            assert nv is not None
            if const_only:
                self.emit("const-added", ptr, pos, new=n["const"])
            else:
                self.emit("enum-added", ptr, pos, new=list(nv.values()))
            return
        if nv is None:
            if const_only:
                self.emit("const-removed", ptr, pos, old=o["const"])
            else:
                self.emit("enum-removed", ptr, pos, old=list(ov.values()))
            return
        dropped = [v for k, v in ov.items() if k not in nv]
        added = [v for k, v in nv.items() if k not in ov]
        if not dropped and not added:
            return
        if const_only:
            self.emit("const-changed", ptr, pos, old=o["const"], new=n["const"])
        elif dropped and added:
            self.emit("enum-changed", ptr, pos, dropped=dropped, added=added)
        elif dropped:
            self.emit("enum-narrowed", ptr, pos, dropped=dropped)
        else:
            self.emit("enum-widened", ptr, pos, added=added)

    def h_numeric(self, o, n, op, np, pos, depth):
        for lower, kws in ((True, ("minimum", "exclusiveMinimum")),
                           (False, ("maximum", "exclusiveMaximum"))):
            if not any(k in o or k in n for k in kws):
                continue
            bad = [(k, s) for k in kws for s in (o, n)
                   if k in s and not (_num(s[k]) or isinstance(s[k], bool))]
            if bad:
                if any(not _jeq(o.get(k, _MISSING), n.get(k, _MISSING)) for k in kws):
                    side = bad[0][1]
                    self.emit("schema-invalid", pointer_join(np if side is n else op,
                                                             bad[0][0]), pos,
                              kind=Raw(f"{bad[0][0]} is {_kind(side[bad[0][0]])}"))
                continue
            ob, nb = _bound(o, *kws, lower), _bound(n, *kws, lower)
            if _types(o.get("type", _MISSING)) == _INTEGER == _types(n.get("type", _MISSING)):
                # On integers "> 0" is ">= 1" and "< 1000000" is "<= 999999": same values.
                ob, nb = _int_bound(ob, lower), _int_bound(nb, lower)
            ids = _MINIMUM if lower else _MAXIMUM
            ptr_kw = next((k for k in reversed(kws) if k in n and _num(n[k])), kws[0])
            ptr = pointer_join(np if nb is not None else op, ptr_kw if nb is not None else
                               next((k for k in kws if k in o), kws[0]))
            if ob == nb:
                continue
            if ob is None:
                self.emit(ids.added, ptr, pos, new=_show_bound(nb, lower))
                continue
            if nb is None:
                self.emit(ids.removed, ptr, pos, old=_show_bound(ob, lower))
                continue
            tighter = _tighter(nb, ob, lower)
            if tighter is None:
                continue
            self.emit(ids.tightened if tighter else ids.loosened, ptr, pos,
                      old=_show_bound(ob, lower),
                      new=_show_bound(nb, lower))

    def h_multiple(self, o, n, op, np, pos, depth):
        ov, nv = o.get("multipleOf", _MISSING), n.get("multipleOf", _MISSING)
        if _jeq(ov, nv):
            return
        ptr = pointer_join(np if nv is not _MISSING else op, "multipleOf")
        for v in (ov, nv):
            if v is not _MISSING and not (_num(v) and v > 0):
                self.emit("schema-invalid", ptr, pos, kind=Raw(f"multipleOf {quote(v)}"))
                return
        if ov is _MISSING:
            self.emit("multiple-of-added", ptr, pos, new=nv)
            return
        if nv is _MISSING:
            self.emit("multiple-of-removed", ptr, pos, old=ov)
            return
        fo, fn = _frac(ov), _frac(nv)
        if fo == fn:
            return
        if fo % fn == 0:  # every multiple of old is a multiple of new
            self.emit("multiple-of-widened", ptr, pos, old=ov, new=nv)
        elif fn % fo == 0:
            self.emit("multiple-of-narrowed", ptr, pos, old=ov, new=nv)
        else:
            self.emit("multiple-of-changed", ptr, pos, old=ov, new=nv)

    def h_counts(self, o, n, op, np, pos, depth):
        for kw, ids, lower, default in _COUNTS:
            ov, nv = o.get(kw, _MISSING), n.get(kw, _MISSING)
            if (ov is _MISSING and nv is _MISSING) or _jeq(ov, nv):
                continue
            ptr = pointer_join(np if nv is not _MISSING else op, kw)
            if any(v is not _MISSING and not (_num(v) and v >= 0) for v in (ov, nv)):
                self.emit("schema-invalid", ptr, pos, kind=Raw(f"{kw} {quote(nv)}"))
                continue
            if kw == "minContains" and "contains" not in o and "contains" not in n:
                continue  # no effect without contains
            if lower:
                oe = default if ov is _MISSING else ov
                ne = default if nv is _MISSING else nv
                if oe == ne:
                    continue
                if ov is _MISSING:
                    self.emit(ids.added, ptr, pos, new=nv)
                elif nv is _MISSING:
                    self.emit(ids.removed, ptr, pos, old=ov)
                else:
                    self.emit(ids.tightened if ne > oe else ids.loosened, ptr, pos,
                              old=ov, new=nv)
            elif ov is _MISSING:
                self.emit(ids.added, ptr, pos, new=nv)
            elif nv is _MISSING:
                self.emit(ids.removed, ptr, pos, old=ov)
            elif nv != ov:
                self.emit(ids.tightened if nv < ov else ids.loosened, ptr, pos,
                          old=ov, new=nv)

    def h_string_rules(self, o, n, op, np, pos, depth):
        for kw, ids in (("pattern", _PATTERN), ("format", _FORMAT)):
            ov, nv = o.get(kw, _MISSING), n.get(kw, _MISSING)
            if _jeq(ov, nv):
                continue
            if ov is _MISSING:
                self.emit(ids.added, pointer_join(np, kw), pos, new=nv)
            elif nv is _MISSING:
                self.emit(ids.removed, pointer_join(op, kw), pos, old=ov)
            else:
                self.emit(ids.changed, pointer_join(np, kw), pos, old=ov, new=nv)

    def h_unique(self, o, n, op, np, pos, depth):
        ou, nu = o.get("uniqueItems") is True, n.get("uniqueItems") is True
        if nu and not ou:
            self.emit("unique-items-added", pointer_join(np, "uniqueItems"), pos)
        elif ou and not nu:
            self.emit("unique-items-removed", pointer_join(op, "uniqueItems"), pos)

    def h_items(self, o, n, op, np, pos, depth):
        opre, okw, orest, orkw = _array_form(o)
        npre, nkw, nrest, nrkw = _array_form(n)
        for i in range(max(len(opre), len(npre))):
            if i < len(opre):
                a, ap = opre[i], pointer_join(op, okw, i)
            else:
                a, ap = orest, pointer_join(op, orkw) if orkw in o else op
            if i < len(npre):
                b, bp = npre[i], pointer_join(np, nkw, i)
            else:
                b, bp = nrest, pointer_join(np, nrkw) if nrkw in n else np
            self.diff(a, b, ap, bp, pos, depth + 1)
        if not (orest is True and nrest is True):
            self.diff(orest, nrest, pointer_join(op, orkw), pointer_join(np, nrkw), pos,
                      depth + 1)

    def h_contains(self, o, n, op, np, pos, depth):
        ov, nv = o.get("contains", _MISSING), n.get("contains", _MISSING)
        if ov is _MISSING:
            self.emit("contains-added", pointer_join(np, "contains"), pos)
        elif nv is _MISSING:
            self.emit("contains-removed", pointer_join(op, "contains"), pos)
        else:
            self.diff(ov, nv, pointer_join(op, "contains"), pointer_join(np, "contains"), pos,
                      depth + 1)

    def h_object(self, o, n, op, np, pos, depth):
        oprops, nprops = _dict(o.get("properties")), _dict(n.get("properties"))
        oreq, nreq = _names(o.get("required")), _names(n.get("required"))
        oap, nap = o.get("additionalProperties", True), n.get("additionalProperties", True)
        opat, npat = _dict(o.get("patternProperties")), _dict(n.get("patternProperties"))
        o_open = _accepts_all(oap)
        n_open = _accepts_all(nap)
        for name, sub in nprops.items():
            if name in oprops:
                self.diff(oprops[name], sub, pointer_join(op, "properties", name),
                          pointer_join(np, "properties", name), pos, depth + 1)
        removed: dict[str, Change] = {}
        added: dict[str, Change] = {}
        for name, sub in oprops.items():
            if name in nprops:
                continue
            pat = _matching_pattern(npat, name)
            if pat is not None:
                # The key is still judged, now by a patternProperties schema.
                self.diff(sub, npat[pat], pointer_join(op, "properties", name),
                          pointer_join(np, "patternProperties", pat), pos, depth + 1)
                continue
            ptr = pointer_join(op, "properties", name)
            if n_open:
                removed[name] = self.emit("property-removed-open", ptr, pos, name=name)
            else:
                removed[name] = self.emit(
                    "property-removed-closed", ptr, pos, name=name,
                    ap=Raw("false" if _rejects_all(nap) else "(a schema)"))
        for name in nprops:
            if name in oprops:
                continue
            ptr = pointer_join(np, "properties", name)
            if name in nreq:
                added[name] = self.emit("property-added-required", ptr, pos, name=name)
            else:
                # On a closed object the new key was rejected before: a real widening (which
                # flips to breaking on the output side); on an open one, closed world applies.
                eff = None if o_open else Effect.WIDEN
                added[name] = self.emit("property-added-optional", ptr, pos, effect=eff,
                                        name=name)
        for name in sorted(nreq - oreq):
            if name not in added:
                self.emit("required-added", pointer_join(np, "required"), pos, name=name)
        for name in sorted(oreq - nreq):
            if name in removed and pos:
                continue  # implied by the removal, and harmless on the input side
            self.emit("required-removed", pointer_join(op, "required"), pos, name=name)
        if removed and added:
            self._renames(oprops, nprops, removed, added, np, pos)
        self._additional(oap, nap, op, np, pos, depth)
        self._patterns(opat, npat, oprops, nprops, o_open, n_open, op, np, pos, depth)

    def _renames(self, oprops, nprops, removed, added, np, pos):
        by_shape: dict[str, list[str]] = {}
        for name in added:
            by_shape.setdefault(_shape(nprops[name]), []).append(name)
        old_by_shape: dict[str, list[str]] = {}
        for name in removed:
            old_by_shape.setdefault(_shape(oprops[name]), []).append(name)
        for shape, olds in old_by_shape.items():
            news = by_shape.get(shape, [])
            if len(olds) == 1 and len(news) == 1:  # only an unambiguous pair is a hint
                a, b = olds[0], news[0]
                cls = min((removed[a].cls, added[b].cls), key=CLASS_ORDER.__getitem__)
                self.emit("property-rename-suspected", pointer_join(np, "properties", b), pos,
                          cls=cls, old=a, new=b)

    def _additional(self, oap, nap, op, np, pos, depth):
        if _jeq(oap, nap) and not _has_ref(oap):
            return
        ptr = pointer_join(np, "additionalProperties")
        oa, na = _accepts_all(oap), _accepts_all(nap)
        orj, nrj = _rejects_all(oap), _rejects_all(nap)
        if (oa and na) or (orj and nrj):
            return
        show = _ap_text(oap)
        if nrj:
            self.emit("additional-properties-closed", ptr, pos, old=show)
        elif orj or na:
            self.emit("additional-properties-opened", ptr, pos, old=show, new=_ap_text(nap))
        elif oa:
            self.emit("additional-properties-restricted", ptr, pos, old=show)
        else:
            self.diff(oap, nap, pointer_join(op, "additionalProperties"), ptr, pos, depth + 1)

    def _patterns(self, opat, npat, oprops, nprops, o_open, n_open, op, np, pos, depth):
        for pat, sub in npat.items():
            ptr = pointer_join(np, "patternProperties", pat)
            if pat in opat:
                self.diff(opat[pat], sub, pointer_join(op, "patternProperties", pat), ptr, pos,
                          depth + 1)
                continue
            # Added: constrains matching keys on an open object; admits them on a closed one;
            # what it does to a declared property it also matches is not decidable here.
            eff = (Effect.UNKNOWN if _matches_any(pat, nprops) else
                   Effect.NARROW if o_open else Effect.WIDEN)
            self.emit("pattern-property-added", ptr, pos, effect=eff, pattern=pat)
        for pat in opat:
            if pat not in npat:
                eff = (Effect.UNKNOWN if _matches_any(pat, oprops) else
                       Effect.WIDEN if n_open else Effect.NARROW)
                self.emit("pattern-property-removed", pointer_join(op, "patternProperties", pat),
                          pos, effect=eff, pattern=pat)

    def h_property_names(self, o, n, op, np, pos, depth):
        ov, nv = o.get("propertyNames", True), n.get("propertyNames", True)
        ptr = pointer_join(np, "propertyNames")
        if "propertyNames" not in o and not _accepts_all(nv):
            self.emit("property-names-added", ptr, pos)
        elif "propertyNames" not in n and not _accepts_all(ov):
            self.emit("property-names-removed", pointer_join(op, "propertyNames"), pos)
        elif "propertyNames" in o and "propertyNames" in n:
            self.diff(ov, nv, pointer_join(op, "propertyNames"), ptr, pos, depth + 1)

    def h_header(self, o, n, op, np, pos, depth):
        """``x-mcp-header`` (2026-07-28): the HTTP header an argument also travels in. Added,
        removed or renamed, routing that reads the header may break: potentially-breaking on
        either side (not a set of values, so no polarity)."""
        ov, nv = o.get(_HEADER, _MISSING), n.get(_HEADER, _MISSING)
        if _jeq(ov, nv):
            return
        how = "added" if ov is _MISSING else "removed" if nv is _MISSING else "renamed"
        self.emit("header-mapping-changed",
                  pointer_join(np if nv is not _MISSING else op, _HEADER), pos,
                  cls=ChangeClass.POTENTIALLY_BREAKING, how=Raw(how), old=_opt(ov),
                  new=_opt(nv))

    def h_dependent(self, o, n, op, np, pos, depth):
        oreq, osch = _deps(o)
        nreq, nsch = _deps(n)
        for name in {**oreq, **nreq}:
            (a, akw), (b, bkw) = oreq.get(name, (set(), "")), nreq.get(name, (set(), ""))
            if b - a:
                self.emit("dependent-required-added", pointer_join(np, bkw, name), pos,
                          name=name, names=sorted(b - a))
            if a - b:
                self.emit("dependent-required-removed",
                          pointer_join(np if bkw else op, bkw or akw, name), pos,
                          name=name, names=sorted(a - b))
        for name in {**osch, **nsch}:
            if name not in osch:
                s, kw = nsch[name]
                if not _accepts_all(s):
                    self.emit("dependent-schema-added", pointer_join(np, kw, name), pos,
                              name=name)
            elif name not in nsch:
                s, kw = osch[name]
                if not _accepts_all(s):
                    self.emit("dependent-schema-removed", pointer_join(op, kw, name), pos,
                              name=name)
            else:
                (a, akw), (b, bkw) = osch[name], nsch[name]
                self.diff(a, b, pointer_join(op, akw, name), pointer_join(np, bkw, name), pos,
                          depth + 1)

    def h_any_of(self, o, n, op, np, pos, depth):
        self._branches("anyOf", o, n, op, np, pos, depth, "any-of-branch-added",
                       "any-of-branch-removed")

    def h_one_of(self, o, n, op, np, pos, depth):
        self._branches("oneOf", o, n, op, np, pos, depth, "one-of-branch-added",
                       "one-of-branch-removed")

    def h_all_of(self, o, n, op, np, pos, depth):
        self._branches("allOf", o, n, op, np, pos, depth, "all-of-branch-added",
                       "all-of-branch-removed")

    def _branches(self, kw, o, n, op, np, pos, depth, added_rule, removed_rule):
        ol, nl = o.get(kw, []), n.get(kw, [])
        if not isinstance(ol, list) or not isinstance(nl, list):
            if not _jeq(ol, nl):
                side = n if not isinstance(nl, list) else o
                self.emit("schema-invalid", pointer_join(np if side is n else op, kw), pos,
                          kind=Raw(f"{kw} is {_kind(side[kw])}"))
            return
        o_lift, n_lift = id(ol) in self.lifted, id(nl) in self.lifted
        if kw != "allOf" and (kw in o) != (kw in n):
            # Nothing to lift on the other side: the alternatives constrain a free value.
            present = [x for x in (nl if kw in n else ol) if not _accepts_all(x)]
            if len(present) == len(nl if kw in n else ol):
                rule = "composition-added" if kw in n else "composition-removed"
                self.emit(rule, pointer_join(np if kw in n else op, kw), pos, keyword=Raw(kw))
            return

        def optr(i: int) -> str:
            return op if o_lift else pointer_join(op, kw, i)

        def nptr(j: int) -> str:
            return np if n_lift else pointer_join(np, kw, j)

        # Meaning before syntax: does every alternative the accepting side allowed still find
        # one on the other side that accepts all of it? (anyOf/oneOf only: allOf was folded.)
        cover = self._coverage(kw, ol, nl, optr, nptr, pos, depth) if kw != "allOf" else None
        mark = len(self.out)
        pairs, gone, new = _match(ol, nl)
        for i, j in pairs:
            self.diff(ol[i], nl[j], optr(i), nptr(j), pos, depth + 1)
        # In anyOf/allOf a branch equal to one the other side still has is a duplicate: adding
        # or dropping it changes nothing. (Not in oneOf, where a duplicate rejects its matches.)
        kept_o = {_ckey(x) for x in ol} if kw != "oneOf" else set()
        kept_n = {_ckey(x) for x in nl} if kw != "oneOf" else set()
        for i in gone:
            if not (kw == "allOf" and _accepts_all(ol[i])) and _ckey(ol[i]) not in kept_n:
                state = cover.old.get(i) if cover is not None and pos else None
                if state is True:
                    continue  # another alternative still accepts everything this one did
                self.emit(removed_rule, optr(i), pos, branch=_brief(ol[i]),
                          cls=ChangeClass.POTENTIALLY_BREAKING if state is _UNDECIDED else None)
        # A oneOf alternative that no other can share a value with widens like an anyOf one.
        added_effect = Effect.WIDEN if kw == "oneOf" and new and _disjoint(nl) else None
        for j in new:
            if not (kw == "allOf" and _accepts_all(nl[j])) and _ckey(nl[j]) not in kept_o:
                state = cover.new.get(j) if cover is not None and not pos else None
                if state is True:
                    continue  # on the output side: an old alternative already allowed it all
                if cover is not None and pos and j in cover.used:
                    continue  # it takes over values an old alternative had: not an addition
                self.emit(added_rule, nptr(j), pos, branch=_brief(nl[j]), effect=added_effect,
                          cls=ChangeClass.POTENTIALLY_BREAKING if state is _UNDECIDED else None)
        if cover is not None and cover.complete:
            # Every value the accepting side allowed is still allowed here: alarms about the
            # branches' shapes (a split enum, a type list as alternatives, branches regrouped)
            # are not about values. Text and compatible changes stay; when the other side is
            # covered too, the two mean the same and the branch bookkeeping goes as well.
            same = (None if self.is_probe  # a probe needs the verdict, not the bookkeeping
                    else self._coverage(kw, ol, nl, optr, nptr, not pos, depth))
            mine = ({optr(i) for i in gone} | {nptr(j) for j in new}
                    if same is not None and same.complete else set())
            self.out[mark:] = [c for c in self.out[mark:] if c.cls not in _VALUE_ALARMS and not (
                c.rule in (added_rule, removed_rule) and c.pointer in mine)]

    def _coverage(self, kw: str, ol: list[Any], nl: list[Any], optr: Callable[[int], str],
                  nptr: Callable[[int], str], pos: bool, depth: int) -> _Cover | None:
        """Which alternatives of the accepting side (old on input, new on output) are covered
        by one alternative of the other side, each judged by a probe walk of this same walker
        (a branch whose values are listed, an ``enum`` or a ``type`` list, is split into one
        part per value or type first). None when too many pairs to probe."""
        acc, other = (ol, nl) if pos else (nl, ol)
        acc_ptr, other_ptr = (optr, nptr) if pos else (nptr, optr)
        root_acc = self.old_root if pos else self.new_root
        split = [self._parts(b, acc_ptr(i), root_acc) for i, b in enumerate(acc)]
        if sum(len(p) for p in split) * max(1, len(other)) > _MAX_PROBES:
            return None  # too many pairs to probe here: branches are matched by shape
        other_sig = [(_sig(b), _ckey(b)) for b in other]
        states: dict[int, Any] = {}
        used: set[int] = set()
        for i, parts in enumerate(split):
            state: Any = True
            for part in parts:
                # The likeliest cover first (same type/ref/const, then equal), so a re-expressed
                # alternative costs one probe, not one per alternative.
                sig, key = _sig(part), _ckey(part)
                order = sorted(range(len(other)), key=lambda j: (other_sig[j][1] != key,
                                                                  other_sig[j][0] != sig, j))
                found: Any = False
                for j in order:
                    if self.probes[0] <= 0:
                        return None  # this walk's probe budget is spent: match by shape
                    self.probes[0] -= 1
                    o, n = (part, other[j]) if pos else (other[j], part)
                    op_, np_ = (acc_ptr(i), other_ptr(j)) if pos else (other_ptr(j), acc_ptr(i))
                    verdict = self._probe(o, n, op_, np_, pos, depth)
                    if verdict is True:
                        found = True
                        used.add(j)
                        break
                    if verdict is _UNDECIDED:
                        found = _UNDECIDED
                if found is False:
                    state = False
                elif found is _UNDECIDED and state is True:
                    state = _UNDECIDED
            states[i] = state
        complete = all(v is True for v in states.values())
        if complete and kw == "oneOf" and not _disjoint(other):
            complete = False  # a value matching two alternatives fails oneOf
        return _Cover(old=states if pos else {}, new={} if pos else states, complete=complete,
                      used=frozenset(used))

    def _parts(self, branch: Any, ptr: str, root: Any) -> list[Any]:
        """``branch`` as a union of simpler alternatives: each value of an ``enum`` as a typed
        ``const``, each type of a ``type`` list on its own; else the branch itself."""
        hit = self.split_memo.get(id(branch))
        if hit is not None and hit[0] is branch:
            return hit[1]
        parts = self._split(branch, ptr, root)
        self.split_memo[id(branch)] = (branch, parts)
        return parts

    def _split(self, branch: Any, ptr: str, root: Any) -> list[Any]:
        view, *_ = self.deref(branch, ptr, root)
        if not isinstance(view, dict) or "anyOf" in view or "oneOf" in view:
            return [branch]
        rest = {k: v for k, v in view.items() if k not in ("enum", "const")}
        vals = _allowed(view)
        if vals is not None and 0 < len(vals) <= _MAX_PROBES:
            out = []
            for v in vals.values():
                part = {**rest, "const": v}
                t = _value_type(v)
                if "type" not in part and t is not None:
                    part["type"] = t
                out.append(part)
            self.alive.append(out)
            return out
        types = view.get("type")
        if isinstance(types, list) and len(types) > 1 and all(isinstance(t, str) for t in types):
            out = [{**view, "type": t} for t in types]
            self.alive.append(out)
            return out
        return [branch]

    def _probe(self, o: Any, n: Any, op: str, np: str, pos: bool, depth: int) -> Any:
        """True when ``n`` accepts every value ``o`` accepts (under ``pos``), False when the walk
        says it does not, _UNDECIDED when it cannot tell."""
        memo_key = (id(o), id(n), pos)
        hit = self.probed.get(memo_key)
        if hit is not None and hit[0] is o and hit[1] is n:
            return hit[2]
        probe = _Walker(self.old_root, self.new_root, self.base, pos, [])
        probe.refs = self.refs
        probe.probes, probe.probed, probe.split_memo = self.probes, self.probed, self.split_memo
        probe.alive = self.alive
        probe.is_probe = True
        probe.diff(o, n, op, np, pos, depth + 1)
        classes = {c.cls for c in probe.out}
        verdict: Any = True
        if ChangeClass.BREAKING in classes:
            verdict = False
        elif ChangeClass.POTENTIALLY_BREAKING in classes:
            verdict = _UNDECIDED
        self.probed[memo_key] = (o, n, verdict)  # holding o and n keeps their ids unique
        return verdict

    def h_not(self, o, n, op, np, pos, depth):
        ov, nv = o.get("not", _MISSING), n.get("not", _MISSING)
        if ov is _MISSING:
            self.emit("not-added", pointer_join(np, "not"), pos, branch=_brief(nv))
        elif nv is _MISSING:
            self.emit("not-removed", pointer_join(op, "not"), pos, branch=_brief(ov))
        else:
            # Inside not, accepting more means the whole accepts less.
            self.diff(ov, nv, pointer_join(op, "not"), pointer_join(np, "not"), not pos,
                      depth + 1)

    def h_conditional(self, o, n, op, np, pos, depth):
        oi, ni = o.get("if", _MISSING), n.get("if", _MISSING)
        if oi is _MISSING and ni is _MISSING:
            return  # then/else without if have no effect
        if oi is _MISSING or ni is _MISSING or not _jeq(oi, ni) or _has_ref(oi):
            if _jeq(oi, ni) and self._refs_same(oi, ni, op, np, pos, depth):
                pass
            else:
                how = "added" if oi is _MISSING else "removed" if ni is _MISSING else "changed"
                self.emit("if-changed", pointer_join(np if ni is not _MISSING else op, "if"),
                          pos, how=Raw(how))
                return
        for kw in ("then", "else"):
            ov, nv = o.get(kw, _MISSING), n.get(kw, _MISSING)
            if ov is _MISSING and nv is _MISSING:
                continue
            if ov is _MISSING:
                if not _accepts_all(nv):
                    self.emit("conditional-branch-added", pointer_join(np, kw), pos,
                              keyword=Raw(kw))
            elif nv is _MISSING:
                if not _accepts_all(ov):
                    self.emit("conditional-branch-removed", pointer_join(op, kw), pos,
                              keyword=Raw(kw))
            else:
                self.diff(ov, nv, pointer_join(op, kw), pointer_join(np, kw), pos, depth + 1)

    def _refs_same(self, oi, ni, op, np, pos, depth) -> bool:
        """An ``if`` that is textually equal but contains refs: equal iff walking it finds
        nothing."""
        probe = _Walker(self.old_root, self.new_root, self.base, pos, [])
        probe.diff(oi, ni, pointer_join(op, "if"), pointer_join(np, "if"), pos, depth + 1)
        return not probe.out


_UNDECIDED: Any = object()
"""A probe's third answer: the walk could not decide (a pattern, a format, a remote $ref)."""
_MAX_PROBES = 256
"""Most (part, alternative) pairs probed at one anyOf/oneOf; beyond, branches match by shape."""
_PROBE_BUDGET = 2_000
"""Probes one schema walk may spend in all (nested probes included): nested alternatives
cannot multiply into an exponential walk; past it, alternatives are matched by shape, as they
were before coverage was judged (the verdict may then be the stricter one, never laxer)."""
_VALUE_ALARMS = frozenset({ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING})


@dataclass(frozen=True, slots=True)
class _Cover:
    """Coverage of one anyOf/oneOf: per accepting-side branch index, True (covered), False
    (some part is accepted by no alternative), or _UNDECIDED."""

    old: dict[int, Any]
    new: dict[int, Any]
    complete: bool
    used: frozenset[int] = frozenset()
    """Other-side branches that cover an accepting-side part: not news themselves."""


def _value_type(v: Any) -> str | None:
    if isinstance(v, bool):
        return "boolean"
    if v is None:
        return "null"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer()):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(type(v))


def _disjoint(branches: list[Any]) -> bool:
    """True when no value can match two of ``branches`` (decided cheaply: distinct listed
    values, or distinct single types); False when unsure."""
    seen_vals: set[str] = set()
    seen_types: set[str] = set()
    by_vals = by_types = True
    for b in branches:
        if not isinstance(b, dict):
            return False
        vals = _allowed(b)
        if vals is None:
            by_vals = False
        elif seen_vals & vals.keys():
            return False
        else:
            seen_vals |= vals.keys()
        t = b.get("type")
        if not isinstance(t, str) or t in seen_types or (
                t in ("integer", "number") and {"integer", "number"} & seen_types):
            by_types = False
        else:
            seen_types.add(t)
    return by_vals or by_types


def _opt(v: Any) -> Any:
    return Raw("(absent)") if v is _MISSING else v


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _names(v: Any) -> set[str]:
    return {x for x in v if isinstance(x, str)} if isinstance(v, list) else set()


def _types(v: Any) -> frozenset[str] | None:
    if v is _MISSING:
        return None
    if isinstance(v, str):
        return frozenset((v,))
    if isinstance(v, list):
        return frozenset(x for x in v if isinstance(x, str))
    return frozenset()


_NUMERIC, _STRING, _ARRAY, _OBJECT = (frozenset(("number", "integer")), frozenset(("string",)),
                                      frozenset(("array",)), frozenset(("object",)))
_KW_TYPES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                     "multipleOf"), _NUMERIC),
    **dict.fromkeys(("minLength", "maxLength", "pattern"), _STRING),
    **dict.fromkeys(("items", "prefixItems", "additionalItems", "minItems", "maxItems",
                     "uniqueItems", "contains", "minContains", "maxContains"), _ARRAY),
    **dict.fromkeys(("properties", "required", "additionalProperties", "patternProperties",
                     "propertyNames", "minProperties", "maxProperties", "dependentRequired",
                     "dependentSchemas", "dependencies"), _OBJECT),
}
"""The instance types each assertion keyword constrains; on any other type it is a no-op."""


def _drop_inert(o: dict[str, Any], n: dict[str, Any], pos: bool
                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Hide keywords that cannot affect the values in question: ``minimum`` on a schema whose
    ``type`` is ``string`` constrains nothing. On the input side the values that matter are the
    ones old accepted (new must keep accepting them); on the output side, the ones new may
    produce. Only a declared ``type`` on this node is trusted, so the check stays conservative."""
    types = _types((o if pos else n).get("type", _MISSING))
    if types is None:
        return o, n
    inert = {k for s in (o, n) for k in s
             if k in _KW_TYPES and not any(_covered(t, types) for t in _KW_TYPES[k])}
    if not inert:
        return o, n
    return ({k: v for k, v in o.items() if k not in inert},
            {k: v for k, v in n.items() if k not in inert})


# Keywords whose meaning depends on siblings in the same schema object: each group may come
# from one part of an allOf only, or folding the parts together would change the meaning.
_INTERACTING = (
    frozenset({"properties", "patternProperties", "additionalProperties"}),
    frozenset({"items", "prefixItems", "additionalItems"}),
    frozenset({"if", "then", "else"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"minimum", "exclusiveMinimum"}),
    frozenset({"maximum", "exclusiveMaximum"}),
)
# Never folded: they see across allOf branches, or give a schema an identity or a scope.
_NO_FOLD = frozenset({"unevaluatedProperties", "unevaluatedItems", "$id", "$anchor",
                      "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
                      "$defs", "definitions", "$schema"})


def _pure_ref(b: Any) -> bool:
    return isinstance(b, dict) and isinstance(b.get("$ref"), str) and all(
        k == "$ref" or k in _NO_CONSTRAINT for k in b)


_OBJECT_PARTS = frozenset({"properties", "required"})
_OPEN_BLOCKERS = frozenset({"additionalProperties", "patternProperties",
                            "unevaluatedProperties"})


def _flatten_all_of(s: dict[str, Any], *, refs: bool,
                    merge_objects: bool = False) -> dict[str, Any]:
    """``{A…, "allOf": [B, C]}`` as ``{A…, B…, C…}`` when that is the same set of values: no
    keyword given two different values, no interacting group (e.g. properties and
    additionalProperties) split across parts, nothing that looks across branches. ``$ref``
    branches fold only when ``refs`` (before $ref resolution: a $ref with siblings applies
    both, as in 2020-12). Otherwise ``s`` unchanged."""
    branches = s["allOf"]
    if not isinstance(branches, list):
        return s
    parts = [{k: v for k, v in s.items() if k != "allOf"}]
    for b in branches:
        if b is True or b == {}:
            continue
        if not isinstance(b, dict) or "allOf" in b or (not refs and "$ref" in b):
            return s
        if not any(_jeq(b, p) for p in parts[1:]):  # a repeated branch adds nothing
            parts.append(b)
    if any(k in _NO_FOLD for p in parts[1:] for k in p) or any(
            k in parts[0] for k in ("unevaluatedProperties", "unevaluatedItems")):
        return s
    # merge_objects: parts that each declare some properties (and none says anything about
    # the keys it does not declare) conjoin exactly: the union of their properties (one key
    # in two parts: both schemas apply) and of their required lists.
    objects = merge_objects and not any(k in p for p in parts for k in _OPEN_BLOCKERS)
    for group in _INTERACTING:
        if objects and group is _INTERACTING[0]:
            continue
        if sum(1 for p in parts if not group.isdisjoint(p)) > 1:
            return s
    merged: dict[str, Any] = {}
    for p in parts:
        for k, v in p.items():
            if k in merged and not _jeq(merged[k], v):
                if objects and k == "properties" and isinstance(v, dict) and isinstance(
                        merged[k], dict):
                    props = dict(merged[k])
                    for name, sub in v.items():
                        props[name] = (sub if name not in props or _jeq(props[name], sub)
                                       else {"allOf": [props[name], sub]})
                    merged[k] = props
                    continue
                if objects and k == "required" and isinstance(v, list) and isinstance(
                        merged[k], list):
                    merged[k] = list(dict.fromkeys([*merged[k], *v]))
                    continue
                if merge_objects and k in _TEXT | _ANNOTATIONS_COSMETIC:
                    continue  # prose of a part: no constraint; the outer text is kept
                return s
            merged[k] = v
    return merged


def _covered(t: str, types: frozenset[str]) -> bool:
    return t in types or (t == "integer" and "number" in types)


def _covers_all(types: frozenset[str] | None) -> bool:
    return types is None or all(_covered(t, types) for t in _JSON_TYPES)


def _tlist(types: frozenset[str] | None) -> Any:
    if types is None:
        return Raw("(any)")
    s = sorted(types)
    return s[0] if len(s) == 1 else s


def _allowed(s: dict[str, Any]) -> dict[str, Any] | None:
    vals: dict[str, Any] | None = None
    if isinstance(s.get("enum"), list):
        vals = {_ckey(v): v for v in s["enum"]}
    if "const" in s:
        k = _ckey(s["const"])
        vals = {k: s["const"]} if vals is None else {x: v for x, v in vals.items() if x == k}
    return vals


def _bound(s: dict[str, Any], plain: str, excl: str, lower: bool) -> tuple[Any, bool] | None:
    """Effective bound as (value, exclusive); draft-04 boolean and numeric forms alike."""
    best: tuple[Any, bool] | None = None
    if _num(s.get(plain)):
        best = (s[plain], s.get(excl) is True)
    ev = s.get(excl)
    if _num(ev):
        cand = (ev, True)
        if best is None or _tighter(cand, best, lower):
            best = cand
    return best


_INTEGER = frozenset({"integer"})


def _int_bound(b: tuple[Any, bool] | None, lower: bool) -> tuple[Any, bool] | None:
    """An integer-only bound as the inclusive integer bound that admits the same integers."""
    if b is None:
        return None
    v, excl = b
    try:
        f = _frac(v)
    except (ValueError, TypeError, OverflowError, ZeroDivisionError):
        return b
    if lower:
        k = math.floor(f) + 1 if excl else math.ceil(f)
    else:
        k = math.ceil(f) - 1 if excl else math.floor(f)
    return (k, False)


def _tighter(a: tuple[Any, bool], b: tuple[Any, bool], lower: bool) -> bool | None:
    """True if bound ``a`` admits less than ``b``, False if more, None if the same."""
    if a[0] != b[0]:
        return (a[0] > b[0]) if lower else (a[0] < b[0])
    if a[1] == b[1]:
        return None
    return a[1]


def _show_bound(b: tuple[Any, bool] | None, lower: bool) -> Raw:
    if b is None:
        return Raw("(none)")
    op = (">" if lower else "<") + ("" if b[1] else "=")
    return Raw(f"{op} {quote(b[0])}")


def _array_form(s: dict[str, Any]) -> tuple[list[Any], str, Any, str]:
    """(prefix schemas, their keyword, schema for the rest, its keyword): draft-07 array
    ``items`` + ``additionalItems`` read as 2020-12 ``prefixItems`` + ``items``."""
    items = s.get("items", _MISSING)
    if isinstance(items, list):
        return items, "items", s.get("additionalItems", True), "additionalItems"
    pre = s.get("prefixItems")
    return (pre if isinstance(pre, list) else []), "prefixItems", (
        True if items is _MISSING else items), "items"


def _deps(s: dict[str, Any]) -> tuple[dict[str, tuple[set[str], str]],
                                      dict[str, tuple[Any, str]]]:
    req: dict[str, tuple[set[str], str]] = {}
    sch: dict[str, tuple[Any, str]] = {}
    for kw in ("dependencies", "dependentRequired", "dependentSchemas"):
        for name, v in _dict(s.get(kw)).items():
            if isinstance(v, list):
                prev = req.get(name, (set(), kw))[0]
                req[name] = (prev | _names(v), kw)
            elif isinstance(v, (dict, bool)):
                sch[name] = (v, kw)
    return req, sch


def _ap_text(ap: Any) -> Any:
    if ap is True or _accepts_all(ap):
        return Raw("true (or absent)")
    if _rejects_all(ap):
        return False
    return Raw("(a schema)")


def _regex(pat: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pat)
    except (re.error, RecursionError, OverflowError):
        return None


def _matching_pattern(pats: dict[str, Any], name: str) -> str | None:
    for pat in pats:
        rx = _regex(pat)
        if rx is not None and rx.search(name):
            return pat
    return None


def _matches_any(pat: str, props: dict[str, Any]) -> bool:
    rx = _regex(pat)
    return rx is None or any(rx.search(p) for p in props)


def _sig(s: Any) -> str:
    """What makes two branches 'the same alternative' when not equal: type or ref."""
    if isinstance(s, dict):
        return _ckey([s.get("type"), s.get("$ref"), s.get("const")])
    return _ckey(s)


def _match(ol: list[Any], nl: list[Any]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair branches: equal ones first, then same type/ref, then by position if the counts of
    what is left agree; the rest are removed (old) or added (new)."""
    left_o, left_n = list(range(len(ol))), list(range(len(nl)))
    pairs: list[tuple[int, int]] = []
    for key in (_ckey, _sig):
        okeys = {i: key(ol[i]) for i in left_o}
        for j in list(left_n):
            kj = key(nl[j])
            for i in left_o:
                if okeys[i] == kj:
                    pairs.append((i, j))
                    left_o.remove(i)
                    left_n.remove(j)
                    break
    if len(left_o) == len(left_n):
        pairs += list(zip(left_o, left_n, strict=True))
        left_o, left_n = [], []
    return pairs, left_o, left_n


def _brief(s: Any) -> Raw:
    return Raw(quote(s, 80))


class _Bound(NamedTuple):
    """The rule ids of one bound keyword, written out so grep finds where each is emitted."""

    added: str
    removed: str
    tightened: str
    loosened: str


class _Edit(NamedTuple):
    added: str
    removed: str
    changed: str


_MINIMUM = _Bound("minimum-added", "minimum-removed", "minimum-increased", "minimum-decreased")
_MAXIMUM = _Bound("maximum-added", "maximum-removed", "maximum-decreased", "maximum-increased")
_PATTERN = _Edit("pattern-added", "pattern-removed", "pattern-changed")
_FORMAT = _Edit("format-added", "format-removed", "format-changed")
_COUNTS = [
    # (keyword, its rule ids, is a lower bound, the effective value when absent)
    ("minLength", _Bound("min-length-added", "min-length-removed", "min-length-increased",
                         "min-length-decreased"), True, 0),
    ("maxLength", _Bound("max-length-added", "max-length-removed", "max-length-decreased",
                         "max-length-increased"), False, None),
    ("minItems", _Bound("min-items-added", "min-items-removed", "min-items-increased",
                        "min-items-decreased"), True, 0),
    ("maxItems", _Bound("max-items-added", "max-items-removed", "max-items-decreased",
                        "max-items-increased"), False, None),
    ("minProperties", _Bound("min-properties-added", "min-properties-removed",
                             "min-properties-increased", "min-properties-decreased"), True, 0),
    ("maxProperties", _Bound("max-properties-added", "max-properties-removed",
                             "max-properties-decreased", "max-properties-increased"), False,
     None),
    ("minContains", _Bound("min-contains-added", "min-contains-removed",
                           "min-contains-increased", "min-contains-decreased"), True, 1),
    ("maxContains", _Bound("max-contains-added", "max-contains-removed",
                           "max-contains-decreased", "max-contains-increased"), False, None),
]

_W = _Walker
_HANDLERS: dict[str, Callable[..., None]] = {
    "title": _W.h_text, "description": _W.h_text,
    "$schema": _W.h_dialect, "default": _W.h_default, "type": _W.h_type,
    "enum": _W.h_values, "const": _W.h_values,
    "minimum": _W.h_numeric, "maximum": _W.h_numeric, "exclusiveMinimum": _W.h_numeric,
    "exclusiveMaximum": _W.h_numeric, "multipleOf": _W.h_multiple,
    "pattern": _W.h_string_rules, "format": _W.h_string_rules, "uniqueItems": _W.h_unique,
    "items": _W.h_items, "prefixItems": _W.h_items, "additionalItems": _W.h_items,
    "contains": _W.h_contains,
    "properties": _W.h_object, "required": _W.h_object, "additionalProperties": _W.h_object,
    "patternProperties": _W.h_object, "propertyNames": _W.h_property_names,
    "dependentRequired": _W.h_dependent, "dependentSchemas": _W.h_dependent,
    "dependencies": _W.h_dependent,
    "anyOf": _W.h_any_of, "oneOf": _W.h_one_of, "allOf": _W.h_all_of, "not": _W.h_not,
    "if": _W.h_conditional, "then": _W.h_conditional, "else": _W.h_conditional,
    _HEADER: _W.h_header,
    **{k: _W.h_annotation for k in _ANNOTATIONS_COSMETIC},
    **{k: _W.h_counts for k, *_ in _COUNTS},
}
_IGNORED = frozenset({"$ref", *_CONTAINERS})  # $ref is followed in deref; containers via refs


# Public API ----------------------------------------------------------------------------------


def diff_schemas(old: Any, new: Any, *, output: bool = False) -> list[Change]:
    """Classified changes between two schema documents (``inputSchema`` by default)."""
    return _walk(old, new, output)[0]


def _walk(old: Any, new: Any, output: bool) -> tuple[list[Change], set[tuple[str, str]]]:
    """The walk of one schema document: its changes, and the texts its text rules named."""
    out: list[Change] = []
    base = "/outputSchema" if output else "/inputSchema"
    w = _Walker(old, new, base, not output, out)
    try:
        w.diff(old, new, base, base, not output, 0)
    except RecursionError:  # belt and braces: a hostile shape must not become a traceback
        out.append(make("schema-too-deep", base, direction=w.direction, limit=MAX_DEPTH))
    except Exception as e:  # outside any rule (resolving, folding): the same promise
        w.engine_error(base, not output, e)
    return out, w.reported


def diff_tools(old: ToolDef, new: ToolDef) -> list[Change]:
    """Every classified change from ``old`` to ``new``: text, annotations, schemas, hidden.

    Never raises: a schema rule that fails is an ``engine-error`` change at its pointer (see
    diff_schemas); a failure in the text or annotation rules is one ``engine-error`` for the
    tool, with every schema change still reported."""
    try:
        return _diff_tools(old, new)
    except Exception as e:
        return _diff_tools_degraded(old, new, e)


def _diff_tools_degraded(old: ToolDef, new: ToolDef, e: Exception) -> list[Change]:
    ow, nw = old.wire, new.wire
    out = [make("engine-error", "", direction=Direction.TOOL, where=Raw("tool text/annotations"),
                error=Raw(type(e).__name__))]
    out += diff_schemas(ow.get("inputSchema"), nw.get("inputSchema"))
    oo, no = ow.get("outputSchema"), nw.get("outputSchema")
    if oo is not None and no is not None:
        out += diff_schemas(oo, no, output=True)
    elif (oo is None) != (no is None):
        out.append(make("output-schema-added" if no is not None else "output-schema-removed",
                        "/outputSchema"))
    try:
        out += _hidden_added(old.hashed_projection(), new.hashed_projection())
    except Exception as e2:
        out.append(make("engine-error", "", direction=Direction.TOOL,
                        where=Raw("hidden-character scan"), error=Raw(type(e2).__name__)))
    return out


def _diff_tools(old: ToolDef, new: ToolDef) -> list[Change]:
    ow, nw = old.wire, new.wire
    if _jeq(old.hashed_projection(), new.hashed_projection()):
        return []  # key order and formatting are not changes at all
    out: list[Change] = []
    if ow.get("name") != nw.get("name"):
        out.append(make("tool-renamed", "/name", old=ow.get("name"), new=nw.get("name")))
    for field, rule in (("description", "tool-description-changed"),
                        ("title", "tool-title-changed")):
        a, b = _as_text(ow.get(field)), _as_text(nw.get(field))
        fired = _text_rule(a, b, rule)
        if fired:
            out.append(make(fired, "/" + field, direction=Direction.TOOL, delta=_delta(a, b),
                            field=Raw(field), where=Raw("tool")))
    out += _annotations(old.annotations, new.annotations)
    out += _outside_schemas(ow, nw)
    schema, named = _walk(ow.get("inputSchema"), nw.get("inputSchema"), False)
    oo, no = ow.get("outputSchema"), nw.get("outputSchema")
    if oo is None and no is not None:
        schema.append(make("output-schema-added", "/outputSchema"))
    elif oo is not None and no is None:
        schema.append(make("output-schema-removed", "/outputSchema"))
    elif oo is not None and no is not None:
        more, named_out = _walk(oo, no, True)
        schema += more
        named |= named_out
    out += _with_new_text(ow, nw, schema, named)
    out += _hidden_added(old.hashed_projection(), new.hashed_projection())
    return out


def scan_hidden(tool: ToolDef) -> list[Change]:
    """Hidden characters anywhere in one definition (a new tool, or a first pin)."""
    return _hidden_changes(_strings(tool.hashed_projection()), "hidden-characters-present",
                           set())


# execution, icons, _meta -------------------------------------------------------------------

_TASK_MEANING = {
    ("forbidden", "required"): " (a client that does not run tasks can no longer call it)",
    ("optional", "required"): " (a client that does not run tasks can no longer call it)",
    ("forbidden", "optional"): " (the tool may now run as a task)",
    ("required", "optional"): " (the tool may now run without a task)",
    ("required", "forbidden"): " (a client that runs it as a task is now refused)",
    ("optional", "forbidden"): " (a client that runs it as a task is now refused)",
}
_META_CAP = 20
"""Most _meta keys reported per definition; the rest are summarised in one change."""


def _ptr_key(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _outside_schemas(ow: dict[str, Any], nw: dict[str, Any]) -> list[Change]:
    """``execution`` (potentially-breaking: how a client must call the tool), ``icons`` (trust:
    server-chosen content shown to people) and ``_meta`` (shown, never hashed: cosmetic)."""
    out: list[Change] = []
    oe, ne = ow.get("execution", _MISSING), nw.get("execution", _MISSING)
    if not _jeq(oe, ne):
        od = oe if isinstance(oe, dict) else {}
        nd = ne if isinstance(ne, dict) else {}
        if (oe is not _MISSING and not isinstance(oe, dict)) or (
                ne is not _MISSING and not isinstance(ne, dict)):
            out.append(make("execution-changed", "/execution", key=Raw("(the whole field)"),
                            old=_opt(oe), new=_opt(ne), meaning=Raw("")))
        else:
            for key in sorted({*od, *nd}):
                ov, nv = od.get(key, _MISSING), nd.get(key, _MISSING)
                if _jeq(ov, nv):
                    continue
                meaning = ""
                if key == "taskSupport":  # absent means "forbidden" (MCP 2025-11-25)
                    a = "forbidden" if ov is _MISSING else ov
                    b = "forbidden" if nv is _MISSING else nv
                    if isinstance(a, str) and isinstance(b, str):
                        meaning = _TASK_MEANING.get((a, b), "")
                out.append(make("execution-changed", "/execution/" + _ptr_key(key), key=key,
                                old=_opt(ov), new=_opt(nv), meaning=Raw(meaning)))
    oi, ni = ow.get("icons", _MISSING), nw.get("icons", _MISSING)
    if not _jeq(oi, ni):
        out.append(make("icons-changed", "/icons", old=_opt(oi), new=_opt(ni)))
    om, nm = ow.get("_meta", _MISSING), nw.get("_meta", _MISSING)
    if not _jeq(om, nm):
        if isinstance(om, dict) and isinstance(nm, dict):
            keys = [k for k in sorted({*om, *nm}) if not _jeq(om.get(k, _MISSING),
                                                              nm.get(k, _MISSING))]
            for k in keys[:_META_CAP]:
                out.append(make("meta-changed", "/_meta/" + _ptr_key(k), key=k,
                                old=_opt(om.get(k, _MISSING)), new=_opt(nm.get(k, _MISSING))))
            if len(keys) > _META_CAP:
                out.append(make("meta-changed", "/_meta", key=Raw(f"({len(keys) - _META_CAP} "
                                                                  "more keys)"),
                                old=Raw("…"), new=Raw("…")))
        else:
            out.append(make("meta-changed", "/_meta", key=Raw("(the whole field)"),
                            old=_opt(om), new=_opt(nm)))
    return out


# Annotations ---------------------------------------------------------------------------------

# hint: (MCP default when absent, the value that grants more power, what relaxing it means,
#        what a client does with the claim of less power)
_HINTS: dict[str, tuple[bool, bool, str, str]] = {
    "readOnlyHint": (False, False, "the tool may now modify its environment",
                     "clients may now run it without asking"),
    "destructiveHint": (True, True, "the tool may now perform destructive updates",
                        "clients may stop confirming destructive calls"),
    "idempotentHint": (False, False, "repeating a call may now have additional effects",
                       "clients may now retry calls freely"),
    "openWorldHint": (True, True, "the tool may now reach an open world of external entities",
                      "clients may stop treating its results as untrusted"),
}


def _annotations(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    out: list[Change] = []
    for hint, (default, power, meaning, gated) in _HINTS.items():
        ov, nv = old.get(hint, _MISSING), new.get(hint, _MISSING)
        if _jeq(ov, nv):
            continue
        oe, ne = _effective(ov, default, power), _effective(nv, default, power)
        ptr = "/annotations/" + hint
        shown = {"hint": Raw(hint), "old": _opt(ov), "new": _opt(nv)}
        if oe == ne:
            out.append(make("annotation-explicit-default", ptr, value=ne, **shown))
        elif ne == power:
            out.append(make("annotation-relaxed", ptr, meaning=Raw(meaning), **shown))
        else:
            # A claim of *less* power is what hosts auto-run on (a tool that starts saying
            # readOnlyHint: true skips the approval prompt): trust, not a tightening.
            out.append(make("annotation-gates-less", ptr, meaning=Raw(gated), **shown))
    a, b = _as_text(old.get("title")), _as_text(new.get("title"))
    fired = _text_rule(a, b, "annotation-title-changed")
    if fired:
        out.append(make(fired, "/annotations/title", direction=Direction.TOOL,
                        delta=_delta(a, b), field=Raw("annotations.title"), where=Raw("tool")))
    for key in sorted({*old, *new} - {*_HINTS, "title"}):
        ov, nv = old.get(key, _MISSING), new.get(key, _MISSING)
        if not _jeq(ov, nv):
            out.append(make("annotation-other-changed", "/annotations/" + key.replace(
                "~", "~0").replace("/", "~1"), key=key, old=_opt(ov), new=_opt(nv)))
    return out


def _effective(v: Any, default: bool, power: bool) -> bool:
    # A hint that is not a boolean cannot be trusted to restrict anything.
    if v is _MISSING or v is None:
        return default
    return v if isinstance(v, bool) else power


# Hidden characters ---------------------------------------------------------------------------


def _strings(doc: Any) -> Iterator[tuple[str, str, bool]]:
    """(pointer, string, is_key) for every string containing hidden characters, iteratively
    (a 512-deep definition must not recurse)."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, str):
            if has_hidden(node):
                yield ptr, node, False
        elif isinstance(node, dict):
            for k, v in reversed(list(node.items())):
                child = pointer_join(ptr, k)
                if has_hidden(k):
                    yield child, k, True
                stack.append((v, child))
        elif isinstance(node, list):
            stack.extend((v, pointer_join(ptr, i)) for i, v in reversed(list(enumerate(node))))


def _hidden_added(old: Any, new: Any) -> list[Change]:
    # A string with hidden characters that existed verbatim in old is not news, wherever it
    # moved; any other one is, even if old had other hidden characters elsewhere.
    seen = {s for _, s, _ in _strings(old)}
    return _hidden_changes(_strings(new), "hidden-characters-added", seen)


def _hidden_changes(found: Iterator[tuple[str, str, bool]], rule: str,
                    seen: set[str]) -> list[Change]:
    out: list[Change] = []
    extra = 0
    for ptr, s, is_key in found:
        if s in seen:
            continue
        if len(out) >= _HIDDEN_CAP:
            extra += 1
            continue
        tokens, decoded = hidden_tokens(s)
        label = ("the key at " if is_key else "") + quote(ptr or "/")
        out.append(make(rule, ptr, where=Raw(label), tokens=tokens, decoded=decoded))
    if extra:
        out.append(make(rule, "", where=Raw(f"{extra} more strings"),
                        tokens=Raw("(not listed)"), decoded=Raw("")))
    return out


# Text the model reads ------------------------------------------------------------------------
#
# Every piece of server-written text in a definition reaches the model, wherever it sits: a new
# property's description is as much an instruction as a rewritten tool description (issue 10).
# The walker names text edits where it compares two nodes; this pass finds the rest (text in a
# new property, branch, $defs entry or output schema, a new enum value that reads as a
# sentence) and puts it on the trust axis: on the structural change that carried it in, else on
# a change of its own. Text the old definition already had (same kind, any place, whitespace
# and Unicode normalisation aside) is not new; removed text puts nothing new before the model.

_TEXT_KIND = {"description": "description", "title": "title", "$comment": "$comment",
              "examples": "examples", "example": "examples", "default": "default",
              "enum": "enum", "const": "enum"}
_ALWAYS_TEXT = frozenset({"description", "title", "$comment", "examples", "example", "default"})
"""Every string under these is text (any length)."""
_NOT_TEXT = frozenset({"type", "$ref", "$schema", "$id", "$anchor", "$dynamicAnchor",
                       "$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
                       "required", "dependentRequired"})
"""Identifiers and references: not prose (their changes have rules of their own). ``pattern``
and ``format`` are judged by ``prose_pattern`` and ``prose_format``."""
TEXT_MIN = 40
"""An enum/const value (or another free string) longer than this reads as text."""
_NEW_TEXT_CAP = 20
"""Most new texts carried by one change (the rest are counted)."""
_TEXT_CHANGES_CAP = 100
"""Most changes of their own for new text per definition; the rest are summarised in one."""


def _norm(s: str) -> str:
    """Text as a reader compares it: NFC, whitespace runs as one space, trimmed."""
    if not s.isascii():
        s = unicodedata.normalize("NFC", s)
    return " ".join(s.split())


def _texty(s: str) -> bool:
    """A value that reads as prose: whitespace in it, or longer than TEXT_MIN."""
    return len(s) > TEXT_MIN or (not s.isidentifier() and _WS.search(s) is not None)


# A regex or a format name is a value, but the model reads it as it reads a description: prose
# written into one is text. A pattern is prose when it holds PROSE_WORDS plain words (letters
# only, bar quotes and sentence punctuation around them) separated by whitespace, by the regex
# escapes for it (`\s`, `\s+`, `\ `) or by underscores; regex tokens such as `^[a-z]+$`,
# `(GET|POST)` or `\.com` are never plain words. A format is prose when it is not a registered
# format name and either reads as text (`_texty`) or spells PROSE_WORDS words
# (`IGNORE_PREVIOUS_INSTRUCTIONS`); custom one- and two-word formats (`json`, `phone`) stay values.
PROSE_WORDS = 3
_PATTERN_SEP = re.compile(r"(?:\\s[+*?]?|\\ |_|\s)+")
_PLAIN_WORD = re.compile(r"[\"'(]*[^\W\d_]{2,}[\"'),.;:!?]*")
_FORMAT_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
KNOWN_FORMATS = frozenset({
    # JSON Schema (2020-12 and the drafts before it)
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex", "host-name", "ip-address", "color",
    "utc-millisec",
    # OpenAPI and common generators (pydantic, zod)
    "int32", "int64", "float", "double", "byte", "binary", "password", "path", "file-path",
    "directory-path", "unix-time", "base64", "cuid", "cuid2", "ulid", "emoji", "nanoid"})


def prose_pattern(s: str) -> bool:
    """A ``pattern`` (or ``patternProperties`` key) that reads as prose, not as a regex."""
    words = 0
    for w in _PATTERN_SEP.split(s):
        if _PLAIN_WORD.fullmatch(w):
            words += 1
            if words >= PROSE_WORDS:
                return True
    return False


def prose_format(s: str) -> bool:
    """A ``format`` value that reads as prose, not as a format name."""
    if s in KNOWN_FORMATS:
        return False
    return _texty(s) or len(_FORMAT_WORD.findall(s)) >= PROSE_WORDS


def _data_strings(v: Any) -> Iterator[str]:
    """Every string in a JSON value, object keys included, iteratively."""
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            for k, y in x.items():
                if isinstance(k, str):
                    yield k
                stack.append(y)
        elif isinstance(x, list):
            stack.extend(x)


# A pointer is built only for the rare text that turns out to be new: (parent, token) pairs
# chained back to the document's base, so a 100,000-string schema costs no string joins.
_Loc = tuple[Any, Any]


def _ptr(loc: _Loc | str) -> str:
    toks: list[Any] = []
    while not isinstance(loc, str):
        loc, tok = loc
        toks.append(tok)
    return pointer_join(loc, *reversed(toks))


def _data_texts(v: Any, loc: _Loc | str) -> Iterator[tuple[_Loc | str, str]]:
    """(location, string) for every string in a JSON value, object keys included."""
    stack: list[tuple[Any, _Loc | str]] = [(v, loc)]
    while stack:
        x, at = stack.pop()
        if isinstance(x, str):
            yield at, x
        elif isinstance(x, dict):
            for k, y in x.items():
                child = (at, k)
                yield child, k
                stack.append((y, child))
        elif isinstance(x, list):
            stack.extend((y, (at, i)) for i, y in enumerate(x))


def _model_text(doc: Any, base: str) -> Iterator[tuple[_Loc | str, str, str, str]]:
    """(location, field, kind, text) for every piece of text the model reads in a schema
    document, at any depth: under description/title/$comment/examples/default (every string),
    enum/const values, property names, patterns and formats and any other free strings that
    read as prose.
    ``_ptr(location)`` is its JSON pointer."""
    stack: list[tuple[Any, _Loc | str]] = [(doc, base)]
    while stack:
        node, at = stack.pop()
        if not isinstance(node, dict):
            if isinstance(node, (str, list)):  # not a schema: still read by the model
                for p, t in _data_texts(node, at):
                    if _texty(t):
                        yield p, "value", "other", t
            continue
        for k, v in node.items():
            child = (at, k)
            if k in _ALWAYS_TEXT:
                kind = _TEXT_KIND[k]
                for p, t in _data_texts(v, child):
                    yield p, k, kind, t
            elif k == "enum" or k == "const":
                for p, t in _data_texts(v, child):
                    if _texty(t):
                        yield p, k, "enum", t
            elif k in SCHEMA_MAP and isinstance(v, dict):
                for name, sub in v.items():
                    sp = (child, name)
                    if k == "properties" and isinstance(name, str) and _texty(name):
                        yield sp, "property name", "property name", name
                    elif (k == "patternProperties" and isinstance(name, str)
                          and prose_pattern(name)):
                        yield sp, "pattern", "pattern", name
                    if isinstance(sub, dict):
                        stack.append((sub, sp))
            elif k in SCHEMA_LIST and isinstance(v, list):
                stack.extend((sub, (child, i)) for i, sub in enumerate(v)
                             if isinstance(sub, dict))
            elif k in SCHEMA_ONE and isinstance(v, dict):
                stack.append((v, child))
            elif k == "pattern" and isinstance(v, str):
                if prose_pattern(v):
                    yield child, k, "pattern", v
            elif k == "format" and isinstance(v, str):
                if prose_format(v):
                    yield child, k, "format", v
            elif k not in _NOT_TEXT and not isinstance(v, bool):
                # An unknown keyword, or a schema keyword holding something that is not a
                # schema: the model reads it all the same, so its prose counts.
                for p, t in _data_texts(v, child):
                    if _texty(t):
                        yield p, k, "other", t


def _known_text(ow: dict[str, Any], named: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """(kind, normalised text) of every text the old definition showed the model, plus the
    ones the walker already named."""
    known = set(named)
    for field in ("description", "title"):
        v = ow.get(field)
        if isinstance(v, str):
            known.add((field, _norm(v)))
    ann = ow.get("annotations")
    if isinstance(ann, dict) and isinstance(ann.get("title"), str):
        known.add(("title", _norm(ann["title"])))
    for key, base in (("inputSchema", "/inputSchema"), ("outputSchema", "/outputSchema")):
        for _, _, kind, t in _model_text(ow.get(key), base):
            known.add((kind, _norm(t)))
    return known


def _under(ptr: str, anc: str) -> bool:
    return ptr == anc or ptr.startswith(anc + "/")


def _with_new_text(ow: dict[str, Any], nw: dict[str, Any], changes: list[Change],
                   named: set[tuple[str, str]]) -> list[Change]:
    """``changes`` with the new text of the definition put on the trust axis."""
    known = _known_text(ow, named)
    old_at: dict[str, str] | None = None
    carried: dict[int, list[NewText]] = {}
    extra: dict[int, int] = {}
    own: list[Change] = []
    left = 0
    # The deepest change whose pointer holds the text carried it in (a new property, a new
    # branch, enum values added); rename hints point where the added property does: skip them.
    anchors = sorted(((c.pointer, i) for i, c in enumerate(changes)
                      if c.rule != "property-rename-suspected"),
                     key=lambda x: -len(x[0]))
    for key, base in (("inputSchema", "/inputSchema"), ("outputSchema", "/outputSchema")):
        for loc, field, kind, t in _model_text(nw.get(key), base):
            n = _norm(t)
            if not n or (kind, n) in known:
                continue
            known.add((kind, n))  # the same text twice is one finding
            ptr = _ptr(loc)
            i = next((i for p, i in anchors if _under(ptr, p)), None)
            if i is not None:
                got = carried.setdefault(i, [])
                if len(got) < _NEW_TEXT_CAP:
                    got.append(new_text(ptr, field, t))
                else:
                    extra[i] = extra.get(i, 0) + 1
                continue
            if len(own) >= _TEXT_CHANGES_CAP:
                left += 1
                continue
            if old_at is None:
                old_at = {_ptr(p): x for k, b in (("inputSchema", "/inputSchema"),
                                                  ("outputSchema", "/outputSchema"))
                          for p, _, _, x in _model_text(ow.get(k), b)}
            rule = "schema-text-added"
            direction = Direction.OUTPUT if base == "/outputSchema" else Direction.INPUT
            was = old_at.get(ptr)
            own.append(make(rule, ptr, direction=direction, field=Raw(field),
                            delta=_delta(was, t) if was else t))
    if left:
        own.append(make("schema-text-added", "", where=Raw(f"{left} more places"),
                        field=Raw("server"), delta=Raw("(not listed)")))
    out = [with_new_text(c, carried[i], extra.get(i, 0)) if i in carried else c
           for i, c in enumerate(changes)]
    return out + own
