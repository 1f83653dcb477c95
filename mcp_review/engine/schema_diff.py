"""Classified diff of two tool definitions: text, annotations, input/output schema, hidden chars.

The walker descends old and new schemas together, carrying a polarity: positive where new must
accept every value old accepted (``inputSchema``), negative where the direction flips
(``outputSchema``, and each ``not``). It resolves ``$ref`` through ``engine.walk``, folds
``allOf`` where that is exact, and at each node calls the handlers of the rule families
(``engine/rules/<family>.py``: ``HANDLERS``, keyword -> ``judge(w, Pair)``), which decide which rule
fired and with what effect on the set of valid values; the walker turns the effect and the
polarity into a class. Around the schemas, the families judge the tool itself (``tool``,
``tool_annotations``, ``hidden``, and ``text`` for new text anywhere). Judged closed-world over
declared properties (docs/design.md): old calls are assumed to set only properties the old schema
declared.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mcp_review.engine.canonical import MAX_DEPTH
from mcp_review.engine.hidden import none_hidden
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import Change, ChangeClass, Direction, ToolDef, pointer_join
from mcp_review.engine.noobject import accepts_no_object as _no_object
from mcp_review.engine.rules import (
    KEYWORDS,
    RULES,
    Effect,
    Raw,
    class_for,
    make,
    where,
)
from mcp_review.engine.rules.hidden import HIDDEN_PRESENT, hidden_changes, hidden_strings
from mcp_review.engine.rules.hidden import hidden_added as _hidden_added
from mcp_review.engine.rules.kit import (
    ANNOTATIONS_COSMETIC,
    CONTAINERS,
    MISSING,
    NO_CONSTRAINT,
    TEXT,
    UNDECIDED,
    Cover,
    Handler,
    Pair,
    accepts_all,
    allowed,
    as_text,
    branch_sig,
    ckey,
    covered,
    disjoint,
    has_ref,
    jeq,
    kind_of,
    opt,
    rejects_all,
    type_set,
    value_type,
)
from mcp_review.engine.rules.objects import OBJECT_GROUP, PROPERTY_REMOVED_OPEN, accepts_all_names
from mcp_review.engine.rules.refs import REF_REMOTE, REF_UNRESOLVED
from mcp_review.engine.rules.schema import (
    ENGINE_ERROR,
    SCHEMA_INVALID,
    SCHEMA_KEYWORD_INERT,
    SCHEMA_NO_LONGER_FALSE,
    SCHEMA_NOW_FALSE,
    SCHEMA_TOO_DEEP,
    UNSUPPORTED_KEYWORD_CHANGED,
    is_default,
)
from mcp_review.engine.rules.text import with_model_text
from mcp_review.engine.rules.tool import judge_name_and_text, judge_outside_schemas
from mcp_review.engine.rules.tool import output_schema_presence as _output_presence
from mcp_review.engine.rules.tool_annotations import judge_annotations as _annotations
from mcp_review.engine.rules.ui import judge_ui
from mcp_review.engine.walk import Refs

__all__ = ["diff_schemas", "diff_tools", "scan_hidden"]


# The walker ----------------------------------------------------------------------------------


class _Walker:
    """One comparison of two schema documents (the roots refs resolve against)."""

    def __init__(self, old_root: Any, new_root: Any, base: str, positive: bool, out: list[Change]):
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
        self.typed: dict[int, tuple[Any, dict[str, Any]]] = {}  # id(branch) -> (branch, typed)
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
            if (
                view is s
                and root is not None
                and isinstance(s["allOf"], list)
                and any(_pure_ref(b) for b in s["allOf"])
            ):
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
    def emit(
        self,
        rule_id: str,
        ptr: str,
        pos: bool,
        effect: Effect | None = None,
        cls: ChangeClass | None = None,
        **params: Any,
    ) -> Change:
        rule = RULES[rule_id]
        eff = effect or rule.effect
        if self.is_probe and pos and rule_id in _VALUE_NEUTRAL:
            cls = ChangeClass.COMPATIBLE  # a probe judges the set of values, nothing else
        if cls is None:
            cls = class_for(eff, pos) if eff is not None else rule.cls
        if rule.at_keyword and "where" not in params:
            # The pointer names the keyword (or one entry of it): say where its schema is.
            toks = ptr.split("/")
            cut = 2 if len(toks) > 2 and toks[-2] in KEYWORDS.entries else 1
            params["where"] = Raw(where("/".join(toks[:-cut])))
        ch = make(rule_id, ptr, cls=cls, direction=self.direction, **params)
        self.out.append(ch)
        return ch

    def engine_error(self, ptr: str, pos: bool, e: BaseException) -> None:
        """An unexpected exception inside a rule: potentially-breaking, naming the pointer and
        the exception's type (never its text: it may quote the server's schema)."""
        self.emit(ENGINE_ERROR, ptr, pos, error=Raw(type(e).__name__))

    # References ------------------------------------------------------------------------------
    def _refs(self, root: Any) -> Refs:
        refs = self.refs.get(id(root))
        if refs is None or refs.root is not root:
            refs = self.refs[id(root)] = Refs(root)
        return refs

    def deref(self, s: Any, ptr: str, root: Any) -> tuple[Any, str, Any, str | None, str]:
        """Follow ``$ref`` chains (engine.walk): (view, pointer, key for the memo, problem, ref
        text). Keywords beside a ``$ref`` are merged over its target."""
        if not (isinstance(s, dict) and "$ref" in s):
            return s, ptr, id(s), None, ""  # the common case, without a call
        d = self._refs(root).deref(s, keep=self.alive)
        ptr = ptr if d.frag is None else self.base + d.frag
        return d.view, ptr, d.key, d.problem, as_text(d.ref)

    # The walk --------------------------------------------------------------------------------
    def diff(self, o: Any, n: Any, op: str, np: str, pos: bool, depth: int) -> None:
        if o is n:
            return
        if depth > MAX_DEPTH:
            self.emit(SCHEMA_TOO_DEEP, np, pos, limit=MAX_DEPTH)
            return
        if jeq(o, n) and not has_ref(o):
            return
        for s, ptr in ((o, op), (n, np)):
            if not isinstance(s, (dict, bool)):
                if not jeq(o, n):
                    self.emit(SCHEMA_INVALID, ptr, pos, kind=Raw(kind_of(s)))
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
                        self.emit(REF_REMOTE, ptr, pos, ref=ref)
                    elif prob:
                        self.emit(
                            REF_UNRESOLVED,
                            ptr,
                            pos,
                            ref=ref,
                            why=Raw(prob if ptr is np else f"old definition: {prob}"),
                        )
                return
        key = (okey, nkey, pos)
        if key in self.memo:
            return  # a recursive $ref came back round, or a shared definition already judged
        self.memo.add(key)
        if isinstance(o, bool) or isinstance(n, bool) or rejects_all(o) or rejects_all(n):
            if self._bools(o, n, op, np, pos):
                return
            o = {} if o is True else o
            n = {} if n is True else n
        if not isinstance(o, dict) or not isinstance(n, dict):
            for s, ptr in ((o, op), (n, np)):
                if not isinstance(s, dict):
                    self.emit(SCHEMA_INVALID, ptr, pos, kind=Raw(kind_of(s)))
            return
        if depth == 0:
            # tools/call arguments and structuredContent are JSON objects (MCP): the root is
            # judged on objects only.
            o, n = self._object_root(o), self._object_root(n)
        for kw in ("anyOf", "oneOf"):
            if (kw in o) != (kw in n):
                if kw in n and isinstance(n[kw], list):
                    o = self._lift(o, n, kw)
                elif kw in o and isinstance(o[kw], list):
                    n = self._lift(n, o, kw)
        o, n = self._implied_lengths(o, n), self._implied_lengths(n, o)
        self._keywords(o, n, op, np, pos, depth)

    def _implied_lengths(self, s: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
        """``s`` with the length bounds its ``pattern`` already implies by a leading lookahead
        (``^(?=.{1,253}$)...``: every string it matches has 1 to 253 characters) written as
        ``minLength`` / ``maxLength``, where ``other`` writes that keyword: a bound moved from
        the pattern to the keyword is no change (firecrawl's domain lists)."""
        m = _LENGTH_LOOKAHEAD.match(s["pattern"]) if isinstance(s.get("pattern"), str) else None
        if m is None:
            return s
        lo, comma, hi = int(m.group(1)), m.group(2), m.group(3)
        implied = {"minLength": lo, "maxLength": int(hi) if hi else None if comma else lo}
        view = dict(s)
        for kw, bound in implied.items():
            if bound is None or kw not in other:
                continue
            have = s.get(kw)
            if have is None:
                view[kw] = bound
            elif isinstance(have, int) and not isinstance(have, bool):
                view[kw] = max(have, bound) if kw == "minLength" else min(have, bound)
        if view == s:
            return s
        self.alive.append(view)
        return view

    def _object_root(self, s: dict[str, Any]) -> dict[str, Any]:
        """The root of ``inputSchema`` / ``outputSchema`` as the protocol constrains it: the
        instance is always an object, so a root ``type`` that admits objects (absent,
        ``"object"``, ``["object", "null"]``) reads as ``"object"`` on both sides (typing an
        untyped root as an object changes nothing), and keywords that only constrain other
        types are then inert. A root type without ``object`` is kept: it rejects every call."""
        types = type_set(s.get("type", MISSING))
        if types is not None and "object" not in types:
            return s
        if s.get("type") == "object":
            return s
        view = {**s, "type": "object"}
        self.alive.append(view)
        return view

    def _bools(self, o: Any, n: Any, op: str, np: str, pos: bool) -> bool:
        """Boolean (and ``{"not": {}}``) schemas; True when nothing is left to compare."""
        o_no, n_no = rejects_all(o), rejects_all(n)
        if o_no and n_no:
            return True
        if n_no:
            self.emit(SCHEMA_NOW_FALSE, np, pos)
            return True
        if o_no:
            self.emit(SCHEMA_NO_LONGER_FALSE, np, pos)
            return True
        return False

    def _lift(self, plain: dict[str, Any], composed: dict[str, Any], kw: str) -> dict[str, Any]:
        """See ``{type: string}`` as ``{anyOf: [{type: string}]}`` when the other side has an
        anyOf/oneOf, so ``T`` -> ``anyOf [T, null]`` reads as an added alternative."""
        core = {
            k: v
            for k, v in plain.items()
            if k not in NO_CONSTRAINT and not (k in composed and jeq(v, composed[k]))
        }
        if not core:
            return plain
        view = {k: v for k, v in plain.items() if k not in core}
        view[kw] = [core]
        self.alive.append(view)
        self.lifted.add(id(view[kw]))
        return view

    def _keywords(
        self, o: dict[str, Any], n: dict[str, Any], op: str, np: str, pos: bool, depth: int
    ) -> None:
        o_all, n_all = o, n
        for node in _NODES:
            node(self, Pair(o, n, op, np, pos, depth))
        o, n, inert = _drop_inert(o, n, pos)
        for k in sorted(inert):
            ov, nv = o_all.get(k, MISSING), n_all.get(k, MISSING)
            if jeq(ov, nv) or all(v is MISSING or is_default(k, v) for v in (ov, nv)):
                continue  # unchanged, or a default written out (named by the node handlers)
            if not (_inert_for(k, o_all) and _inert_for(k, n_all)):
                continue  # the type changed too: the type's change says what it does
            self.emit(
                SCHEMA_KEYWORD_INERT,
                pointer_join(np if nv is not MISSING else op, k),
                pos,
                where=Raw(where(np if nv is not MISSING else op)),
                keyword=Raw(k),
                old=opt(ov),
                new=opt(nv),
                types=Raw(_type_words(o_all if pos else n_all)),
            )
        done: set[Handler] = set()
        unknown: list[str] = []
        for k in (*o, *(k for k in n if k not in o)):
            h = _HANDLERS.get(k)
            if h is None:
                if k not in _IGNORED:
                    unknown.append(k)
            elif h not in done:
                done.add(h)
                try:
                    h(self, Pair(o, n, op, np, pos, depth))
                except RecursionError:
                    raise  # reported once, as schema-too-deep, by diff_schemas
                except Exception as e:
                    self.engine_error(np, pos, e)
        for k in unknown:
            ov, nv = o.get(k, MISSING), n.get(k, MISSING)
            if ov is MISSING or nv is MISSING or not jeq(ov, nv):
                how = "added" if ov is MISSING else "removed" if nv is MISSING else "changed"
                self.emit(
                    UNSUPPORTED_KEYWORD_CHANGED,
                    pointer_join(np if nv is not MISSING else op, k),
                    pos,
                    keyword=k,
                    how=Raw(how),
                    old=opt(ov),
                    new=opt(nv),
                )

    def coverage(
        self,
        kw: str,
        ol: list[Any],
        nl: list[Any],
        optr: Callable[[int], str],
        nptr: Callable[[int], str],
        pos: bool,
        depth: int,
        types: tuple[Any, Any] = (MISSING, MISSING),
    ) -> Cover | None:
        """Which alternatives of the accepting side (old on input, new on output) are covered
        by one alternative of the other side, each judged by a probe walk of this same walker
        (a branch whose values are listed, an ``enum`` or a ``type`` list, is split into one
        part per value or type first). None when too many pairs to probe."""
        acc, other = (ol, nl) if pos else (nl, ol)
        acc_t, other_t = types if pos else types[::-1]
        acc = [self._typed(b, acc_t) for b in acc]
        other = [self._typed(b, other_t) for b in other]
        acc_ptr, other_ptr = (optr, nptr) if pos else (nptr, optr)
        root_acc = self.old_root if pos else self.new_root
        if len(acc) * max(1, len(other)) > _MAX_PROBES:
            return None  # too many pairs even before splitting: not one branch is split
        split = [self._parts(b, acc_ptr(i), root_acc) for i, b in enumerate(acc)]
        if sum(len(p) for p in split) * max(1, len(other)) > _MAX_PROBES:
            return None  # too many pairs to probe here: branches are matched by shape
        other_sig = [(branch_sig(b), ckey(b)) for b in other]
        states: dict[int, Any] = {}
        used: set[int] = set()
        for i, parts in enumerate(split):
            state: Any = True
            for part in parts:
                # The likeliest cover first (same type/ref/const, then equal), so a re-expressed
                # alternative costs one probe, not one per alternative.
                sig, key = branch_sig(part), ckey(part)
                order = sorted(
                    range(len(other)),
                    key=lambda j: (other_sig[j][1] != key, other_sig[j][0] != sig, j),
                )
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
                    if verdict is UNDECIDED:
                        found = UNDECIDED
                if found is False:
                    state = False
                elif found is UNDECIDED and state is True:
                    state = UNDECIDED
            states[i] = state
        complete = all(v is True for v in states.values())
        if complete and kw == "oneOf" and not disjoint(other):
            complete = False  # a value matching two alternatives fails oneOf
        return Cover(
            old=states if pos else {},
            new={} if pos else states,
            complete=complete,
            used=frozenset(used),
        )

    def _typed(self, branch: Any, t: Any) -> Any:
        """``branch`` with the ``type`` written beside its union, when it has none of its own
        (the same view object for the same branch, so probe memos keep working)."""
        if t is MISSING or not isinstance(branch, dict) or "type" in branch or "$ref" in branch:
            return branch
        hit = self.typed.get(id(branch))
        if hit is None or hit[0] is not branch or not jeq(hit[1].get("type"), t):
            hit = (branch, {**branch, "type": t})
            self.typed[id(branch)] = hit
        return hit[1]

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
        vals = allowed(view)
        if vals is not None and 0 < len(vals) <= _MAX_PROBES:
            out = []
            for v in vals.values():
                part = {**rest, "const": v}
                t = value_type(v)
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
        says it does not, UNDECIDED when it cannot tell."""
        memo_key = (id(o), id(n), pos)
        hit = self.probed.get(memo_key)
        if hit is not None and hit[0] is o and hit[1] is n:
            return hit[2]
        # An alternative that accepts every object covers any alternative of objects alone
        # (a union judged as a whole: narrowing one object branch beside it changes nothing).
        wide, narrow = (n, o) if pos else (o, n)
        w_root, n_root = (self.new_root, self.old_root) if pos else (self.old_root, self.new_root)
        if _every_object(self.deref(wide, np, w_root)[0]) and _only_objects(
            self.deref(narrow, op, n_root)[0]
        ):
            self.probed[memo_key] = (o, n, True)
            return True
        probe = _Walker(self.old_root, self.new_root, self.base, pos, [])
        probe.refs = self.refs
        probe.probes, probe.probed, probe.split_memo = self.probes, self.probed, self.split_memo
        probe.typed = self.typed
        probe.alive = self.alive
        probe.is_probe = True
        probe.diff(o, n, op, np, pos, depth + 1)
        classes = {c.cls for c in probe.out}
        verdict: Any = True
        if ChangeClass.BREAKING in classes:
            verdict = False
        elif ChangeClass.POTENTIALLY_BREAKING in classes:
            verdict = UNDECIDED
        self.probed[memo_key] = (o, n, verdict)  # holding o and n keeps their ids unique
        return verdict

    def refs_same(self, oi: Any, ni: Any, op: str, np: str, pos: bool, depth: int) -> bool:
        """An ``if`` that is textually equal but contains refs: equal iff walking it finds
        nothing."""
        probe = _Walker(self.old_root, self.new_root, self.base, pos, [])
        probe.diff(oi, ni, pointer_join(op, "if"), pointer_join(np, "if"), pos, depth + 1)
        return not probe.out


_VALUE_NEUTRAL = frozenset({PROPERTY_REMOVED_OPEN})
"""Rules that lose no value where new must accept what old did (a property dropped from an open
object: the key still takes any value); potentially-breaking for what the server does with
it, which a probe (is this alternative covered by that one?) does not ask."""

_MAX_PROBES = 256
"""Most (part, alternative) pairs probed at one anyOf/oneOf; beyond, branches match by shape."""
_PROBE_BUDGET = 2_000
"""Probes one schema walk may spend in all (nested probes included): nested alternatives
cannot multiply into an exponential walk; past it, alternatives are matched by shape, as they
were before coverage was judged (the verdict may then be the stricter one, never laxer)."""


_LENGTH_LOOKAHEAD = re.compile(r"\^\(\?=\.\{(\d{1,6})(,)?(\d{1,6})?\}\$\)")
"""A pattern opening with a lookahead that bounds the whole string's length: ``^(?=.{a,b}$)``,
``^(?=.{a,}$)``, ``^(?=.{a}$)``."""


def _every_object(s: Any) -> bool:
    """``s`` accepts every JSON object: a ``type`` that admits objects (or none: the lifted
    side of a union keeps the ``type`` it shares with the other side beside it) with nothing
    else that constrains (prose, an ``additionalProperties`` that accepts all, a
    ``propertyNames`` every name passes)."""
    if not isinstance(s, dict):
        return False
    types = type_set(s.get("type", MISSING))
    if types is not None and "object" not in types:
        return False
    return all(
        k == "type"
        or k in NO_CONSTRAINT
        or (k in ("additionalProperties", "unevaluatedProperties") and accepts_all(v))
        or (k == "propertyNames" and accepts_all_names(v))
        for k, v in s.items()
    )


def _only_objects(s: Any) -> bool:
    """``s`` accepts nothing but objects (its own ``type`` says so)."""
    return isinstance(s, dict) and type_set(s.get("type", MISSING)) == frozenset({"object"})


def _inert_for(keyword: str, s: dict[str, Any]) -> bool:
    """``keyword`` constrains none of the types ``s`` declares (False when it declares none)."""
    types = type_set(s.get("type", MISSING))
    return types is not None and not any(covered(t, types) for t in _INSTANCE_TYPES[keyword])


def _type_words(s: dict[str, Any]) -> str:
    types: set[str] = set(type_set(s.get("type", MISSING)) or ())
    return " or ".join(sorted(types)) or "other"


def _drop_inert(
    o: dict[str, Any], n: dict[str, Any], pos: bool
) -> tuple[dict[str, Any], dict[str, Any], set[str]]:
    """Hide keywords that cannot affect the values in question: ``minimum`` on a schema whose
    ``type`` is ``string`` constrains nothing. On the input side the values that matter are the
    ones old accepted (new must keep accepting them); on the output side, the ones new may
    produce. Only a declared ``type`` on this node is trusted, so the check stays conservative."""
    types = type_set((o if pos else n).get("type", MISSING))
    if types is None:
        return o, n, set()
    inert = {
        k
        for s in (o, n)
        for k in s
        if k in _INSTANCE_TYPES and not any(covered(t, types) for t in _INSTANCE_TYPES[k])
    }
    if not inert:
        return o, n, inert
    return (
        {k: v for k, v in o.items() if k not in inert},
        {k: v for k, v in n.items() if k not in inert},
        inert,
    )


# Never folded: they see across allOf branches, or give a schema an identity or a scope.
_NO_FOLD = frozenset(
    {
        "unevaluatedProperties",
        "unevaluatedItems",
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$defs",
        "definitions",
        "$schema",
    }
)


def _pure_ref(b: Any) -> bool:
    return (
        isinstance(b, dict)
        and isinstance(b.get("$ref"), str)
        and all(k == "$ref" or k in NO_CONSTRAINT for k in b)
    )


_OBJECT_PARTS = frozenset({"properties", "required"})
_OPEN_BLOCKERS = frozenset({"additionalProperties", "patternProperties", "unevaluatedProperties"})
_SAYS_OPEN = frozenset({"additionalProperties", "unevaluatedProperties"})


def _flatten_all_of(
    s: dict[str, Any], *, refs: bool, merge_objects: bool = False
) -> dict[str, Any]:
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
        if merge_objects and any(k in _SAYS_OPEN and accepts_all(v) for k, v in b.items()):
            # A part that says its other keys may be anything (MCP's Result: {"_meta": …,
            # "additionalProperties": {}}) constrains nothing by saying so.
            b = {k: v for k, v in b.items() if not (k in _SAYS_OPEN and accepts_all(v))}
        if not any(jeq(b, p) for p in parts[1:]):  # a repeated branch adds nothing
            parts.append(b)
    if any(k in _NO_FOLD for p in parts[1:] for k in p) or any(
        k in parts[0] for k in ("unevaluatedProperties", "unevaluatedItems")
    ):
        return s
    # merge_objects: parts that each declare some properties (and none says anything about
    # the keys it does not declare) conjoin exactly: the union of their properties (one key
    # in two parts: both schemas apply) and of their required lists.
    objects = merge_objects and not any(k in p for p in parts for k in _OPEN_BLOCKERS)
    for group in KEYWORDS.interacting:
        if objects and group == OBJECT_GROUP:
            continue
        if sum(1 for p in parts if not group.isdisjoint(p)) > 1:
            return s
    merged: dict[str, Any] = {}
    for p in parts:
        for k, v in p.items():
            if k in merged and not jeq(merged[k], v):
                if (
                    objects
                    and k == "properties"
                    and isinstance(v, dict)
                    and isinstance(merged[k], dict)
                ):
                    props = dict(merged[k])
                    for name, sub in v.items():
                        props[name] = (
                            sub
                            if name not in props or jeq(props[name], sub)
                            else {"allOf": [props[name], sub]}
                        )
                    merged[k] = props
                    continue
                if (
                    objects
                    and k == "required"
                    and isinstance(v, list)
                    and isinstance(merged[k], list)
                ):
                    merged[k] = list(dict.fromkeys([*merged[k], *v]))
                    continue
                if merge_objects and k in TEXT | ANNOTATIONS_COSMETIC:
                    continue  # prose of a part: no constraint; the outer text is kept
                return s
            merged[k] = v
    return merged


_HANDLERS = KEYWORDS.handlers
"""keyword -> the family handler the walker calls for it (the registry's table)."""
_NODES = KEYWORDS.nodes
"""Handlers called once at every node (the registry's ``nodes``)."""
_INSTANCE_TYPES = KEYWORDS.instance_types
_IGNORED = frozenset({"$ref", *CONTAINERS})  # $ref is followed in deref; containers via refs


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
        out.append(make(SCHEMA_TOO_DEEP, base, direction=w.direction, limit=MAX_DEPTH))
    except Exception as e:  # outside any rule (resolving, folding): the same promise
        w.engine_error(base, not output, e)
    return out, w.reported


def _walk_memo(
    old: Any, new: Any, output: bool, memo: CompareMemo | None
) -> tuple[list[Change], set[tuple[str, str]]]:
    """:func:`_walk`, answered from ``memo`` when the same pair of documents was walked before
    in this run (the walk reads nothing but the two documents; its changes are frozen)."""
    if memo is None:
        return _walk(old, new, output)
    ko, kn = memo.key(old), memo.key(new)
    if ko is None or kn is None:
        return _walk(old, new, output)
    key = (ko, kn, output)
    hit = memo.get("walks", key)
    if hit is None:
        out, named = _walk(old, new, output)
        memo.put("walks", key, (tuple(out), frozenset(named)))
        return out, named
    return list(hit[0]), set(hit[1])


def diff_tools(old: ToolDef, new: ToolDef, memo: CompareMemo | None = None) -> list[Change]:
    """Every classified change from ``old`` to ``new``: text, annotations, schemas, hidden.

    Never raises: a schema rule that fails is an ``engine-error`` change at its pointer (see
    diff_schemas); a failure in the text or annotation rules is one ``engine-error`` for the
    tool, with every schema change still reported. ``memo``: schema walks already made in
    this run (engine/memo.py), reused for a pair of schema documents seen before."""
    try:
        out = _diff_tools(old, new, memo)
    except Exception as e:
        out = _diff_tools_degraded(old, new, e)
    if old.ui is None or new.ui is None:
        return out
    try:
        return out + judge_ui(old.ui, new.ui, new.wire)
    except Exception as e:
        return [
            *out,
            make(
                ENGINE_ERROR,
                "/_meta",
                direction=Direction.TOOL,
                where=Raw("UI resource"),
                error=Raw(type(e).__name__),
            ),
        ]


def _diff_tools_degraded(old: ToolDef, new: ToolDef, e: Exception) -> list[Change]:
    ow, nw = old.wire, new.wire
    out = [
        make(
            ENGINE_ERROR,
            "",
            direction=Direction.TOOL,
            where=Raw("tool text/annotations"),
            error=Raw(type(e).__name__),
        )
    ]
    out += diff_schemas(ow.get("inputSchema"), nw.get("inputSchema"))
    oo, no = ow.get("outputSchema"), nw.get("outputSchema")
    if oo is not None and no is not None:
        out += diff_schemas(oo, no, output=True)
    else:
        presence = _output_presence(oo, no)
        if presence is not None:
            out.append(presence)
    try:
        out += _hidden_added(old.hashed_projection(), new.hashed_projection())
    except Exception as e2:
        out.append(
            make(
                ENGINE_ERROR,
                "",
                direction=Direction.TOOL,
                where=Raw("hidden-character scan"),
                error=Raw(type(e2).__name__),
            )
        )
    return out


def _diff_tools(old: ToolDef, new: ToolDef, memo: CompareMemo | None = None) -> list[Change]:
    ow, nw = old.wire, new.wire
    if jeq(ow, nw):
        return []  # key order and formatting are not changes at all
    out = judge_name_and_text(ow, nw)
    out += _annotations(
        old.annotations,
        new.annotations,
        (ow.get("annotations", MISSING), nw.get("annotations", MISSING)),
    )
    out += judge_outside_schemas(ow, nw)
    schema, named = _walk_memo(ow.get("inputSchema"), nw.get("inputSchema"), False, memo)
    oo, no = ow.get("outputSchema"), nw.get("outputSchema")
    presence = _output_presence(oo, no)
    if presence is not None:
        schema.append(presence)
    elif oo is not None and no is not None:
        more, named_out = _walk_memo(oo, no, True, memo)
        schema += more
        named |= named_out
    out += with_model_text(ow, nw, schema, named)
    out = _drop_unreachable(ow, nw, out)
    new_proj = new.hashed_projection()
    if not none_hidden(new_proj):  # else nothing can be added (one scan, not two walks)
        out += _hidden_added(old.hashed_projection(), new_proj)
    return out


def _drop_unreachable(ow: dict[str, Any], nw: dict[str, Any], out: list[Change]) -> list[Change]:
    """Without the alarms inside a schema whose root admits no JSON object in either version
    (a ``$ref`` to a string enum, say): no call (no structured result) is valid under either,
    so nothing a client sends can break; the tool's one protocol finding says so
    (engine.protocol). Text, trust and cosmetic changes stay: the model still
    reads the schema, and they explain the new digest."""
    for field in ("inputSchema", "outputSchema"):
        o, n = ow.get(field), nw.get(field)
        if o is None or n is None or not (_no_object(o) and _no_object(n)):
            continue
        base = "/" + field
        out = [
            c
            for c in out
            if not (
                c.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
                and (c.pointer == base or c.pointer.startswith(base + "/"))
            )
        ]
    return out


def scan_hidden(tool: ToolDef) -> list[Change]:
    """Hidden characters anywhere in one definition (a new tool, or a first pin)."""
    return hidden_changes(hidden_strings(tool.hashed_projection()), HIDDEN_PRESENT, set())
