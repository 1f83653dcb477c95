"""Witnesses: concrete calls valid under the old schema and rejected by the new, per change."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeGuard

from mcp_review.engine.canonical import MAX_DEPTH
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_tokens
from mcp_review.engine.replay import MAX_ISSUES, Issue, SchemaError, SchemaValidator, too_deep
from mcp_review.engine.rules import RULES, Witness
from mcp_review.engine.walk import (
    COMBINATORS,
    DEFINITIONS,
    MISSING,
    SCHEMA_MAP,
    escape,
    follow,
    get,
    ref_sites,
)

# Python's regex parser: close enough to ECMA-262 to *propose* strings; never trusted, every
# proposal is checked by the real validator. ``re._parser`` since 3.11 (the floor we support);
# typeshed has its stubs under the deprecated public name, so the checker reads those.
if TYPE_CHECKING:
    import sre_parse as _sre
else:
    import re._parser as _sre

MAX_VALIDATOR_CALLS = 400
"""Validator calls spent on one change at most (candidates cost 2-3 calls each)."""

MAX_TOOL_VALIDATOR_CALLS = 20_000
"""Validator calls (a schema compilation counts as one) spent on one tool's witnesses at most:
a tool that adds thousands of required properties is classified in time linear in the change,
and the verdict never depends on how fast the machine is."""

GEN_DEPTH = 8
"""How deep the value generator follows nesting and $ref: recursive schemas stop here."""

MAX_ALTERNATIVES = 4
"""Alternative example values the generator keeps per schema node (not a cartesian product)."""

STRING_PROBES: tuple[str, ...] = (
    "",
    "a",
    "A1",
    "x y",
    "0",
    "https://example.com/a",
    "user@example.com",
    "2024-01-01",
    "2024-01-01T00:00:00Z",
    "12:00:00",
    "192.0.2.1",
    "2001:db8::1",
    "example.com",
    "00000000-0000-0000-0000-000000000000",
    "/a",
    "-1",
    "1.5",
    "true",
    "null",
)
"""Strings tried against a pattern or a format: the empty string, a letter, mixed case with a
digit, a space, a digit, and one sample of each common format."""

_FORMAT_SAMPLES = {
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/a",
    "iri": "https://example.com/a",
    "uri-reference": "/a",
    "iri-reference": "/a",
    "uri-template": "/a/{b}",
    "url": "https://example.com/a",
    "date": "2024-01-01",
    "date-time": "2024-01-01T00:00:00Z",
    "time": "12:00:00Z",
    "duration": "P1D",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "json-pointer": "/a",
    "relative-json-pointer": "0",
    "regex": "a",
}

_ABSENT: Any = MISSING
"""Candidate meaning "leave the property out" (a required property added); also what a schema
location the document lacks reads as (engine.walk.get), so putting it back deletes it."""

_KEY_TOKENS = SCHEMA_MAP - {"dependencies"}  # draft-07 dependencies: not searched for witnesses
_BRANCH_TOKENS = COMBINATORS
_SAME_PLACE_TOKENS = frozenset({"not", "if", "then", "else"})


# Public API ---------------------------------------------------------------------------------


def strategy_of(rule: str) -> Witness:
    """How the search looks for a witness of ``rule`` (each rule's ``witness`` in the registry;
    SEARCH for an id the registry does not know). No witness can show a HINT rule: the rename
    hint explains other changes (they carry the witness; a call for the hint would only
    exercise the new property's own schema); a header mapping changes no set of valid values,
    only where an argument travels."""
    r = RULES.get(rule)
    return r.witness if r is not None else Witness.SEARCH


_NOT_SEARCHED = frozenset({Witness.HINT, Witness.NONE})


class _Budget:
    """Validator calls (and schema compilations) one tool's witness search may still spend.

    Counted in calls, never in wall-clock time: a witness promotes a verdict, so the verdict
    must not depend on the machine's speed or load."""

    __slots__ = ("left",)

    def __init__(self, calls: int):
        self.left = calls

    def take(self, n: int = 1) -> bool:
        """Spend ``n`` calls; False (nothing spent) when fewer are left."""
        if self.left < n:
            return False
        self.left -= n
        return True


class _Spent(Exception):
    """The tool's budget ran out in the middle of one change's search."""


def attach_witnesses(
    old: Any,
    new: Any,
    changes: list[Change],
    *,
    budget: int = MAX_TOOL_VALIDATOR_CALLS,
    memo: CompareMemo | None = None,
) -> list[Change]:
    """Return ``changes`` with a verified witness on each breaking / potentially-breaking
    schema change that has none; a witness promotes potentially-breaking to breaking.

    Input side: a call valid under old ``inputSchema`` and rejected by the new one. Output side
    (cheap, same machinery with the roles swapped): a result the new ``outputSchema`` allows
    and the old one promised never to produce. A witness is attached only if it is
    *attributable*: putting the old value back at the change's pointer (and nothing else)
    makes the new schema accept it, so one change is never promoted by another's breakage.

    Bounded: the whole tool spends at most ``budget`` validator calls (MAX_VALIDATOR_CALLS per
    change); a change left unsearched, or whose search failed, keeps its class and carries a
    ``note`` saying why it has no witness. Never raises.

    ``memo`` (engine/memo.py): the search's answers already found in this run, reused for the
    same schema documents and the same changes (everything the search reads of them is the
    key: see :func:`_search_key`); a reused witness is a copy.
    """
    key = _search_key(old, new, changes, budget, memo)
    if key is None or memo is None:
        return _apply(changes, _search(old, new, changes, budget))
    hit = memo.get("witnesses", key)
    if hit is None:
        hit = _search(old, new, changes, budget)
        memo.put("witnesses", key, _copy_found(hit))
        return _apply(changes, hit)
    return _apply(changes, _copy_found(hit))


_SEARCHED_FIELDS = ("inputSchema", "outputSchema")


def _search_key(
    old: Any, new: Any, changes: list[Change], budget: int, memo: CompareMemo | None
) -> tuple[Any, ...] | None:
    """What :func:`_search` reads: the four schema documents (exact JSON text), the budget,
    and of each change its rule, class, pointer, direction, whether it has a witness or a
    note and whether it was promoted. None: no key (no memo, or a document without one)."""
    if memo is None:
        return None
    docs: list[Any] = [budget]
    for tool in (old, new):
        wire = _wire(tool)
        for f in _SEARCHED_FIELDS:
            k = memo.key(wire.get(f))
            if k is None:
                return None
            docs.append(k)
    docs.append(
        tuple(
            (c.rule, c.cls, c.pointer, c.direction, c.has_witness, bool(c.note), c.promoted)
            for c in changes
        )
    )
    return tuple(docs)


def _copy_found(found: list[dict[str, Any] | None]) -> list[dict[str, Any] | None]:
    """``found`` with every witness its own copy (the other fields are immutable)."""
    return [
        f if f is None or "witness" not in f else {**f, "witness": _copy_json(f["witness"])}
        for f in found
    ]


def _copy_json(v: Any) -> Any:
    """A deep copy of a JSON value (``copy.deepcopy`` for anything else, which a witness never
    is): a tenth of deepcopy's time on the small calls witnesses are."""
    if isinstance(v, dict):
        return {k: _copy_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy_json(x) for x in v]
    if v is None or isinstance(v, (str, int, float)):
        return v
    return copy.deepcopy(v)


def _apply(changes: list[Change], found: list[dict[str, Any] | None]) -> list[Change]:
    """``changes`` with :func:`_search`'s answer for each (None: unchanged)."""
    return [
        ch if f is None else dataclasses.replace(ch, **f)
        for ch, f in zip(changes, found, strict=True)
    ]


def _search(old: Any, new: Any, changes: list[Change], budget: int) -> list[dict[str, Any] | None]:
    """:func:`attach_witnesses`' search: for each change, the fields its answer replaces
    (None: the change stays as it is). Reads of each change only what :func:`_search_key`
    keys on."""
    sides: dict[str, _Side | None] = {}
    out: list[dict[str, Any] | None] = []
    spent = _Budget(budget)
    for ch in changes:
        strategy = strategy_of(ch.rule)
        if (
            ch.has_witness
            or strategy in _NOT_SEARCHED
            or ch.cls not in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
        ):
            if strategy is Witness.HINT and ch.cls is ChangeClass.BREAKING and not ch.note:
                out.append({"note": NOTE_HINT})
            else:
                out.append(None)
            continue
        toks = pointer_tokens(ch.pointer)
        field = toks[0] if toks else ""
        if field not in _SEARCHED_FIELDS or ch.direction is Direction.TOOL:
            out.append(None)
            continue
        if spent.left <= 0:
            out.append({"note": NOTE_BUDGET})
            continue
        try:
            if field not in sides:
                sides[field] = _Side.build(old, new, field, spent)
            side = sides[field]
            found = side.find(toks[1:], strategy) if side is not None else None
        except _Spent:
            out.append({"note": NOTE_BUDGET})
            continue
        except Exception as e:
            out.append({"note": f"no witness: the witness search failed ({type(e).__name__})"})
            continue
        if found is None:
            if ch.cls is ChangeClass.BREAKING and not ch.note:  # replay's evidence stays
                why = (
                    NOTE_UNCOMPILED if side is None else NOTE_BLOCKED if side.blocked else NOTE_NONE
                )
                out.append({"note": why})
            else:
                out.append(None)
            continue
        instance, issue = found
        promoted = ch.cls is ChangeClass.POTENTIALLY_BREAKING
        out.append(
            {
                "witness": instance,
                "witness_error": f"{issue.path or '(root)'}: {issue.message}",
                "cls": ChangeClass.BREAKING if promoted else ch.cls,
                "promoted": promoted or ch.promoted,
            }
        )
    return out


NOTE_BLOCKED = (
    "no witness: every generated call that breaks here also breaks because of "
    "another change in this tool, so none shows this change alone"
)
NOTE_NONE = (
    "no witness: no generated call valid under the old schema is rejected by the new "
    "one here (the verdict stands on the schema change itself)"
)
NOTE_UNCOMPILED = "no witness: the validator cannot compile one of the two schemas"
NOTE_HINT = "a hint, not a change of its own: the changes it pairs carry the evidence"

NOTE_BUDGET = (
    "no witness searched: this tool's witness budget "
    f"({MAX_TOOL_VALIDATOR_CALLS} validator calls) was spent on earlier changes"
)


def find_witness(
    old_schema: Any, new_schema: Any, pointer: str = "", rule: str = ""
) -> tuple[Any, Issue] | None:
    """A value valid under ``old_schema`` and invalid under ``new_schema`` attributable to the
    change at ``pointer`` (relative to the schemas, e.g. ``/properties/x/maxLength``), with
    the first issue the new schema reports; None if none was found within the budget."""
    try:
        side = _Side.from_schemas(old_schema, new_schema)
        return side.find(pointer_tokens(pointer), strategy_of(rule)) if side is not None else None
    except _Spent:
        return None


def example(schema: Any) -> Any:
    """A simple value the generator proposes for ``schema`` (unverified; _ABSENT-free)."""
    vals = _Gen(schema).values(schema, 0)
    return vals[0] if vals else None


# The search ---------------------------------------------------------------------------------


def _wire(tool: Any) -> dict[str, Any]:
    wire: dict[str, Any] = tool.wire if hasattr(tool, "wire") else tool
    return wire


class _Side:
    """One comparison: the schema that must accept (``acc``) and the one that must reject.

    Validator answers are cached per candidate across the changes of one tool (most changes
    try the same minimal calls first), and every call is taken from the tool's budget."""

    def __init__(
        self,
        acc: Any,
        rej: Any,
        acc_v: SchemaValidator,
        rej_v: SchemaValidator,
        budget: _Budget | None = None,
    ):
        self.acc, self.rej = acc, rej
        self.acc_v, self.rej_v = acc_v, rej_v
        self.gen = _Gen(acc)
        self.rej_gen = _Gen(rej)
        self.blocked = 0
        self.budget = budget or _Budget(MAX_TOOL_VALIDATOR_CALLS)
        self._acc_ok: dict[str, bool] = {}
        self._rej_ok: dict[str, bool] = {}
        self._rej_err: dict[str, tuple[list[Issue], set[str] | None]] = {}
        self._bases_memo: list[Any] | None = None

    @classmethod
    def build(cls, old: Any, new: Any, field: str, budget: _Budget | None = None) -> _Side | None:
        a, b = _wire(old).get(field), _wire(new).get(field)
        # Output side flips: a result the new schema allows and the old one did not.
        return (
            cls.from_schemas(a, b, budget)
            if field == "inputSchema"
            else cls.from_schemas(b, a, budget)
        )

    @classmethod
    def from_schemas(cls, acc: Any, rej: Any, budget: _Budget | None = None) -> _Side | None:
        if acc is None or rej is None:
            return None
        if budget is not None and not budget.take(2):
            raise _Spent
        try:
            return cls(acc, rej, SchemaValidator(acc), SchemaValidator(rej), budget)
        except SchemaError:
            return None

    # -- validator calls, cached and counted
    def _call(self, n: int = 1) -> None:
        if not self.budget.take(n):
            raise _Spent

    def accepts(self, inst: Any, key: str) -> bool:
        hit = self._acc_ok.get(key)
        if hit is None:
            self._call()
            hit = self._acc_ok[key] = self.acc_v.is_valid(inst)
        return hit

    def rejects(self, inst: Any, key: str) -> bool:
        hit = self._rej_ok.get(key)
        if hit is None:
            self._call()
            hit = self._rej_ok[key] = not self.rej_v.is_valid(inst)
        return hit

    def rej_errors(self, inst: Any, key: str) -> tuple[list[Issue], set[str] | None]:
        """(the first MAX_ISSUES issues, the schema paths of all of them or None if too many)"""
        hit = self._rej_err.get(key)
        if hit is None:
            self._call(2)
            hit = self._rej_err[key] = (self.rej_v.errors(inst), self.rej_v.error_keywords(inst))
        return hit

    # -- attribution
    @staticmethod
    def _targets(toks: list[str], strategy: Witness) -> list[list[str]]:
        """The schema locations that undo this one change when acc's value is put back."""
        loc, kw = _split_location(toks)
        targets = [toks]
        if kw and kw[-1].isdigit() and len(kw) >= 2:
            targets = [loc + kw[:-1]]  # an enum/required element: the whole keyword
        elif not kw and len(loc) >= 2 and loc[-2] in _BRANCH_TOKENS | {"prefixItems", "items"}:
            targets = [loc[:-1]]  # a removed or added branch: the whole branch array
        if strategy is Witness.OMIT_REQUIRED:
            obj = loc[:-2] if len(loc) >= 2 and loc[-2] == "properties" else loc
            targets += [[*obj, "required"], [*obj, "dependentRequired"]]
        return targets

    def _reverted(self, targets: list[list[str]]) -> SchemaValidator | None:
        """The rejecting schema with this one change undone (acc's value put back)."""
        patched = self.rej
        for t in targets:
            patched = _patch(patched, t, get(self.acc, t))
        self._call()  # a compilation costs about what one validation of the schema does
        try:
            return SchemaValidator(patched)
        except SchemaError:
            return None

    @staticmethod
    def _plainly_attributable(inst: Any, paths: set[str] | None, targets: list[list[str]]) -> bool:
        """True when undoing ``targets`` provably makes rej accept ``inst`` without compiling
        the reverted schema: every error rej reports (``paths``, all of them) is one of the
        target keywords itself, reached through ``properties`` only, and that keyword looks
        at nothing but its own instance (so acc's value there, which accepted ``inst``,
        accepts it again). A target property schema is harmless only when ``inst`` does not
        set that property."""
        if not paths:
            return False
        err = {tuple(pointer_tokens(p)) for p in paths}
        exact = {tuple(t) for t in targets}
        if not all(st in exact and _plain_keyword_path(st) for st in err):
            return False
        for t in targets:
            if tuple(t) in err or _plain_keyword_path(tuple(t)):
                continue  # a local keyword: putting acc's value back is safe
            if not (len(t) >= 2 and t[-2] == "properties" and _plain_object_path(t[:-2])):
                return False
            parent = get(inst, t[:-2][1::2]) if t[:-2] else inst
            if not isinstance(parent, dict) or t[-1] in parent:
                return False
        return True

    def find(self, toks: list[str], strategy: Witness) -> tuple[Any, Issue] | None:
        self.blocked = 0  # candidates that broke, but not for this change alone
        targets = self._targets(toks, strategy)
        loc, kw = _split_location(toks)
        folded = bool(kw) and get(self.rej, loc) is _ABSENT
        reverted: SchemaValidator | bool | None = False  # compiled on first need
        start = self.budget.left
        seen: set[str] = set()
        pending: list[Any] = []
        cands = self._candidates(toks, strategy)
        while True:
            if pending:
                inst = pending.pop()
            else:
                inst = next(cands, _ABSENT)
                if inst is _ABSENT:
                    return None
            if start - self.budget.left >= MAX_VALIDATOR_CALLS:
                return None
            key = _key(inst)
            if key is None or key in seen:
                continue
            seen.add(key)
            if not self.accepts(inst, key) or not self.rejects(inst, key):
                continue
            issues, paths = self.rej_errors(inst, key)
            if folded:
                # The change sits where the walker folded an allOf of $refs or followed a
                # $ref: no literal place in the schema to undo it. Attributed when every error
                # is that keyword, at one instance location.
                ok = _keyword_attributable(issues, paths, kw)
            elif self._plainly_attributable(inst, paths, targets):
                ok = True
            else:
                if reverted is False:
                    reverted = self._reverted(targets)
                if reverted is None:
                    return None
                self._call()
                ok = reverted.is_valid(inst)  # type: ignore[union-attr]
            if ok:
                if strategy is Witness.OMIT_REQUIRED:
                    inst, issues = self._narrow(inst, issues, toks)
                return inst, _best_issue(issues, toks)
            # It breaks, but also because of another change: satisfy the new schema's other
            # requirements (a property another change made required) and try that call too.
            self.blocked += 1
            fixed = self._repair(inst, issues, targets)
            if fixed is not None:
                pending.append(fixed)

    def _narrow(self, inst: Any, issues: list[Issue], toks: list[str]) -> tuple[Any, list[Issue]]:
        """For a property made required: ``inst`` with the object's other newly required
        properties filled in from the rejecting schema, when that call still passes the old
        schema and fails the new one, so the evidence fails for this property alone (``{}``
        against two added requirements names whichever the validator reports first)."""
        if len(toks) < 2 or toks[-2] != "properties" or not _plain_object_path(toks[:-2]):
            return inst, issues
        name, obj_toks = toks[-1], toks[:-2]
        node_path = obj_toks[1::2]
        obj_schema = get(self.rej, obj_toks) if obj_toks else self.rej
        node = get(inst, node_path) if node_path else inst
        if not isinstance(obj_schema, dict) or not isinstance(node, dict):
            return inst, issues
        req, props = obj_schema.get("required"), obj_schema.get("properties")
        if not isinstance(req, list) or not isinstance(props, dict) or name not in req:
            return inst, issues
        fixed = copy.deepcopy(inst)
        target = get(fixed, node_path) if node_path else fixed
        changed = False
        for other in req[:32]:
            if isinstance(other, str) and other != name and other not in target and other in props:
                vals = [v for v in self.rej_gen.values(props[other], 1) if v is not _ABSENT]
                if not vals:
                    return inst, issues
                target[other] = copy.deepcopy(vals[0])
                changed = True
        key = _key(fixed) if changed else None
        if key is None or not self.accepts(fixed, key) or not self.rejects(fixed, key):
            return inst, issues
        narrowed, _ = self.rej_errors(fixed, key)
        return fixed, narrowed

    def _repair(self, inst: Any, issues: list[Issue], targets: list[list[str]]) -> Any:
        """``inst`` with the properties the rejecting schema requires (and this change did not
        add) filled in from that schema's own values; None when there is nothing to fill."""
        if len(issues) >= MAX_ISSUES:
            return None
        mine = {tuple(t) for t in targets}
        fixed = copy.deepcopy(inst)
        changed = False
        for i in issues:
            st = pointer_tokens(i.schema_path)
            if st[-1:] != ["required"] or tuple(st) in mine or not _plain_object_path(st[:-1]):
                continue
            obj_schema = get(self.rej, st[:-1])
            node = get(fixed, pointer_tokens(i.path)) if i.path else fixed
            if not isinstance(obj_schema, dict) or not isinstance(node, dict):
                continue
            req = obj_schema.get("required")
            props = obj_schema.get("properties")
            if not isinstance(req, list) or not isinstance(props, dict):
                continue
            for name in req:
                if isinstance(name, str) and name not in node and name in props:
                    vals = self.rej_gen.values(props[name], 1)
                    if vals:
                        node[name] = copy.deepcopy(vals[0])
                        changed = True
        return fixed if changed else None

    # -- candidates
    def _bases(self) -> list[Any]:
        """Minimal calls, then one with every declared property set: when another change made
        an optional property required, only a base that sets it can witness this change."""
        if self._bases_memo is None:
            self._bases_memo = self._make_bases()
        return self._bases_memo

    def _make_bases(self) -> list[Any]:
        out = [b for b in self.gen.values(self.acc, 0) if b is not _ABSENT][:MAX_ALTERNATIVES]
        root = _view(self.acc, self.acc)
        if out and isinstance(out[0], dict) and isinstance(root, dict):
            full = dict(out[0])
            props = _dict_at(root, "properties")
            for p, sub in list(props.items())[:32]:
                if p not in full:
                    vals = self.gen.values(sub, 1)
                    if vals:
                        full[p] = vals[0]
            if full != out[0]:
                out.append(full)
        return out

    def _candidates(self, toks: list[str], strategy: Witness) -> Iterator[Any]:
        bases = self._bases() or [{}]
        for path, o_chain, o_sub, n_sub, hint, kw in _locations(self.acc, self.rej, toks):
            values = list(_targeted_values(self.gen, o_sub, n_sub, hint, kw, strategy))
            # A schema that accepts anything proposes scalars first; a location inside the
            # call needs a container to hold it.
            want = list if path and isinstance(path[0], int) else dict
            placed = bases if any(isinstance(b, want) for b in bases) else [*bases, want()]
            for value in values:
                for base in placed:
                    inst = _place(base, path, value, o_chain, self.gen)
                    if inst is not None:
                        yield inst
        # The plain minimal calls (they witness an added requirement on their own), after the
        # boundary values so those win when both would do.
        yield from bases
        # Generic fallback: a bounded walk over every location of the accepting schema.
        for path, o_chain, o_sub, n_sub in _all_locations(self.acc, self.rej):
            for value in _targeted_values(self.gen, o_sub, n_sub, None, [], strategy):
                inst = _place(bases[0], path, value, o_chain, self.gen)
                if inst is not None:
                    yield inst


def _key(inst: Any) -> str | None:
    if too_deep(inst, MAX_DEPTH):
        return None
    try:
        return json.dumps(inst, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def _best_issue(issues: list[Issue], toks: list[str]) -> Issue:
    """The issue that names the changed keyword (for a property, its ``required`` error naming
    it), else the first one."""
    loc, kw = _split_location(toks)
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


def _split_location(toks: list[str]) -> tuple[list[str], list[str]]:
    """Split schema-pointer tokens into (location tokens, keyword tokens)."""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in _KEY_TOKENS or t in _BRANCH_TOKENS or t == "prefixItems":
            if i + 1 >= len(toks):
                break
            i += 2
        elif t == "items" and i + 1 < len(toks) and toks[i + 1].isdigit():
            i += 2  # draft-07 tuple items
        elif (
            t
            in (
                "items",
                "additionalItems",
                "additionalProperties",
                "unevaluatedProperties",
                "unevaluatedItems",
                "contains",
            )
            or t in _SAME_PLACE_TOKENS
        ):
            i += 1
        else:
            break
    return toks[:i], toks[i:]


def _patch(root: Any, toks: list[str], value: Any) -> Any:
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
                out[head] = _patch(out[head], rest, value)
            elif value is not _ABSENT:
                out[head] = _patch({}, rest, value)
        elif value is _ABSENT:
            out.pop(head, None)
        else:
            out[head] = value
        return out
    lst = list(root)
    if head.isdigit() and int(head) < len(lst):
        if rest:
            lst[int(head)] = _patch(lst[int(head)], rest, value)
        elif value is _ABSENT:
            del lst[int(head)]
        else:
            lst[int(head)] = value
    return lst


def _view(root: Any, node: Any) -> Any:
    """``node`` with its local ``$ref`` chain followed (engine.walk, at most GEN_DEPTH hops);
    keywords beside a ``$ref`` are merged over its target."""
    return follow(root, node, GEN_DEPTH)


def _instance_path(
    acc: Any, loc: list[str], hops: int = 0
) -> Iterator[tuple[list[Any], list[Any], Any]]:
    """(instance path, accepting subschema at each path step, branch hint) for location tokens.

    ``$defs/X`` locations are mapped through the places that reference them (bounded)."""
    path: list[Any] = []
    chain: list[Any] = []
    node = acc
    hint = None
    i = 0
    while i < len(loc):
        t = loc[i]
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        if t in DEFINITIONS and nxt is not None:
            if hops >= 3:
                return
            sub = loc[i + 2 :]
            ref = "#/" + "/".join(escape(x) for x in loc[: i + 2])
            for site in ref_sites(acc, ref, first=8)[:3]:
                site_loc, _ = _split_location(site)
                if site_loc != site:
                    continue
                for p2, c2, h2 in _instance_path(acc, site + sub, hops + 1):
                    yield path + p2, chain + c2, h2 or hint
            return
        node_r = _view(acc, node) if node is not _ABSENT else _ABSENT
        if t == "properties" and nxt is not None:
            path.append(nxt)
            node = get(node_r, ["properties", nxt])
            chain.append(node)
            i += 2
        elif t == "patternProperties" and nxt is not None:
            key = _regex_example(nxt) or "a"
            path.append(key)
            node = get(node_r, ["patternProperties", nxt])
            chain.append(node)
            i += 2
        elif t == "dependentSchemas" and nxt is not None:
            node = get(node_r, ["dependentSchemas", nxt])
            i += 2
        elif t in ("additionalProperties", "unevaluatedProperties"):
            # An object that declares no properties (a free-form map) has none to avoid.
            props = get(node_r, ["properties"])
            declared = set(props) if isinstance(props, dict) else set()
            key = _fresh_key(declared)
            path.append(key)
            node = get(node_r, [t])
            chain.append(node)
            i += 1
        elif t == "prefixItems" and nxt is not None and nxt.isdigit():
            path.append(int(nxt))
            node = get(node_r, [t, nxt])
            chain.append(node)
            i += 2
        elif t == "items" and nxt is not None and nxt.isdigit():
            path.append(int(nxt))
            node = get(node_r, [t, nxt])
            chain.append(node)
            i += 2
        elif t in ("items", "additionalItems", "unevaluatedItems", "contains"):
            pre = get(node_r, ["prefixItems"])
            items_list = get(node_r, ["items"])
            idx = 0
            if t != "contains" and isinstance(pre, list):
                idx = len(pre)
            elif t == "additionalItems" and isinstance(items_list, list):
                idx = len(items_list)
            path.append(idx)
            node = get(node_r, [t])
            chain.append(node)
            i += 1
        elif t in _BRANCH_TOKENS and nxt is not None:
            # Same instance location; later tokens are relative to the branch, and the
            # branch hints at values (a removed anyOf alternative's own instance).
            hint = node = get(node_r, [t, nxt])
            i += 2
        elif t in _SAME_PLACE_TOKENS:
            i += 1
        else:
            break
    yield path, chain, hint


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


def _keyword_attributable(issues: list[Issue], paths: set[str] | None, kw: list[str]) -> bool:
    if not issues or paths is None or len(issues) >= MAX_ISSUES:
        return False
    where = {i.path for i in issues}
    return len(where) == 1 and all(pointer_tokens(p)[-1:] == kw[:1] for p in paths)


def _plain_object_path(toks: Any) -> bool:
    """Tokens made of ``properties/<name>`` steps only (the instance path is the names)."""
    return len(toks) % 2 == 0 and all(t == "properties" for t in toks[0::2])


def _plain_keyword_path(toks: Any) -> bool:
    return bool(toks) and toks[-1] in _LOCAL_KEYWORDS and _plain_object_path(toks[:-1])


def _fresh_key(declared: set[str]) -> str:
    """A key the object does not declare (an extra key for additionalProperties)."""
    for k in ("extra", "extra_1", "extra_2", "x_extra"):
        if k not in declared:
            return k
    i = 3
    while f"extra_{i}" in declared:
        i += 1
    return f"extra_{i}"


def _locations(
    acc: Any, rej: Any, toks: list[str]
) -> Iterator[tuple[list[Any], list[Any], Any, Any, Any, list[str]]]:
    loc, kw = _split_location(toks)
    n_sub = _view(rej, get(rej, loc))
    for path, chain, hint in _instance_path(acc, loc):
        o_sub = chain[-1] if chain else acc
        if o_sub is _ABSENT:  # a location only the new schema has (a property added)
            o_sub = True
        yield path, chain, _view(acc, o_sub), n_sub, hint, kw


def _all_locations(
    acc: Any, rej: Any, limit: int = 40
) -> Iterator[tuple[list[Any], list[Any], Any, Any]]:
    """Breadth-first (path, chain, acc subschema, rej subschema) over properties and items."""
    queue: list[tuple[list[str], list[Any], list[Any]]] = [([], [], [])]
    n = 0
    while queue and n < limit:
        toks, path, chain = queue.pop(0)
        n += 1
        o = _view(acc, get(acc, toks) if toks else acc)
        r = _view(rej, get(rej, toks) if toks else rej)
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


def _place(base: Any, path: list[Any], value: Any, chain: list[Any], gen: _Gen) -> Any:
    """A copy of ``base`` with ``value`` at the instance ``path`` (parents created from the
    accepting schema's examples); None when the path cannot be built."""
    if not path:
        return None if value is _ABSENT else copy.deepcopy(value)
    root = copy.deepcopy(base)
    node = root
    for depth, key in enumerate(path):
        last = depth == len(path) - 1
        if isinstance(key, int):
            if not isinstance(node, list):
                return None
            while len(node) <= key:
                sub = chain[depth] if depth < len(chain) else True
                vals = gen.values(sub, 1) if sub is not _ABSENT else []
                node.append(copy.deepcopy(vals[0]) if vals else None)
            if last:
                if value is _ABSENT:
                    return None
                node[key] = copy.deepcopy(value)
            else:
                node = node[key]
            continue
        if not isinstance(node, dict):
            return None
        if last:
            if value is _ABSENT:
                node.pop(key, None)  # already absent: the call as it stands is the candidate
            else:
                node[key] = copy.deepcopy(value)
            break
        if key not in node:
            sub = chain[depth] if depth < len(chain) else True
            vals = gen.values(sub, 1) if sub is not _ABSENT else []
            nxt = path[depth + 1]
            want = list if isinstance(nxt, int) else dict
            pick = next((v for v in vals if isinstance(v, want)), want())
            node[key] = copy.deepcopy(pick)
        node = node[key]
    return root


# Candidate values at one location ----------------------------------------------------------


def _num(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _dict_at(d: dict[str, Any], key: str) -> dict[str, Any]:
    """``d[key]`` when it is an object, else an empty one (schemas are untrusted JSON)."""
    v = d.get(key)
    return v if isinstance(v, dict) else {}


def _int_at(d: dict[str, Any], key: str, default: int) -> int:
    """``d[key]`` when it is an integer (as ``isinstance`` says), else ``default``."""
    v = d.get(key)
    return v if isinstance(v, int) else default


def _list_at(d: dict[str, Any], key: str) -> list[Any]:
    """``d[key]`` when it is an array, else an empty one."""
    v = d.get(key)
    return v if isinstance(v, list) else []


def _targeted_values(
    gen: _Gen, o: Any, n: Any, hint: Any, kw: list[str], strategy: Witness
) -> Iterator[Any]:
    """Values to try at the changed location, boundary values first (see module notes)."""
    od = o if isinstance(o, dict) else {}
    nd = n if isinstance(n, dict) else {}
    if strategy in (Witness.OMIT, Witness.OMIT_REQUIRED):
        yield _ABSENT
    ex = gen.values(o, 1)
    first = ex[0] if ex else None

    # lengths: first length the new schema rejects, then the old bound itself
    s0 = first if isinstance(first, str) and first else "a"
    for lo_kw, hi_kw in (("minLength", "maxLength"),):
        for length in _length_probes(od.get(lo_kw), od.get(hi_kw), nd.get(lo_kw), nd.get(hi_kw)):
            yield _stretch(s0, length)
            yield "a" * length
            yield "0" * length
    # counts of items
    item_ex = gen.values(od.get("items"), 1) if isinstance(od.get("items"), (dict, bool)) else []
    x = item_ex[0] if item_ex else (first[0] if isinstance(first, list) and first else "a")
    for length in _length_probes(
        od.get("minItems"), od.get("maxItems"), nd.get("minItems"), nd.get("maxItems")
    ):
        if length <= 1000:
            yield [copy.deepcopy(x) for _ in range(length)]
            if len(item_ex) > 1:
                yield [copy.deepcopy(item_ex[i % len(item_ex)]) for i in range(length)]
    # numbers
    yield from _number_probes(od, nd)
    # enum / const: the dropped values first, then the rest of the old ones
    if isinstance(od.get("enum"), list):
        new_enum = nd.get("enum") if isinstance(nd.get("enum"), list) else None
        dropped = [v for v in od["enum"] if new_enum is None or v not in new_enum]
        yield from dropped
        yield from od["enum"]
    if "const" in od:
        yield od["const"]
    # each type of a type array
    types = od.get("type")
    if isinstance(types, list):
        lost = [t for t in types if t not in _types_of(nd)] + list(types)
        for t in lost:
            yield from gen.values({**od, "type": t}, 1)[:2]
    elif types is None and "type" in nd:
        yield from ("a", 0, 0.5, True, None, {}, [])
    if types == "number" or (isinstance(types, list) and "number" in types):
        yield from (0.5, 1.5, 1.0, -0.5)
    # a branch the pointer names (a removed anyOf alternative), then every old branch
    if hint is not None:
        yield from gen.values(_merge_branch(od, hint), 1)
    for b in _BRANCH_TOKENS:
        if isinstance(od.get(b), list):
            for br in od[b][:8]:
                yield from gen.values(_merge_branch(od, br), 1)[:2]
    # strings for patterns and formats
    if _stringish(od) or _stringish(nd):
        for pat in (od.get("pattern"), nd.get("pattern")):
            if isinstance(pat, str):
                s = _regex_example(pat)
                if s is not None:
                    yield s
                    yield s + s
        yield from STRING_PROBES
    # objects: each optional property set, an extra key, everything set
    if isinstance(first, dict):
        yield from _object_variants(gen, od, first)
    if isinstance(first, list):
        yield []
        yield [copy.deepcopy(x), copy.deepcopy(x)]  # duplicates, for uniqueItems
    yield from ex


def _stretch(s: str, length: int) -> str:
    if length <= len(s):
        return s[:length]
    return s + s[-1] * (length - len(s))


def _length_probes(o_lo: Any, o_hi: Any, n_lo: Any, n_hi: Any) -> list[int]:
    """Lengths just outside the new bounds (the first invalid length), then the old bounds."""
    out: list[int] = []
    if isinstance(n_hi, int) and not isinstance(n_hi, bool):
        out.append(n_hi + 1)
    if isinstance(n_lo, int) and not isinstance(n_lo, bool) and n_lo > 0:
        out.append(n_lo - 1)
    for v in (o_hi, o_lo):
        if isinstance(v, int) and not isinstance(v, bool):
            out.append(v)
    if out:
        out.append(0)
    return [v for v in out if 0 <= v <= 100_000]


def _number_probes(od: dict[str, Any], nd: dict[str, Any]) -> list[Any]:
    """The first value the new bounds reject on the integer grid, a half step beyond, an
    exclusive bound itself; then the old bounds and the old multiples."""
    out: list[Any] = []
    lo, hi = nd.get("minimum"), nd.get("maximum")
    if _num(lo):
        out += [lo - 1 if float(lo).is_integer() else math.floor(lo), lo - 0.5]
    if _num(hi):
        out += [hi + 1 if float(hi).is_integer() else math.ceil(hi), hi + 0.5]
    out += [v for v in (nd.get("exclusiveMinimum"), nd.get("exclusiveMaximum")) if _num(v)]
    for k in ("minimum", "maximum"):
        if _num(od.get(k)):
            out.append(od[k])
    xlo, xhi = od.get("exclusiveMinimum"), od.get("exclusiveMaximum")
    if _num(xlo):
        out += [math.floor(xlo) + 1, xlo + 0.5]
    if _num(xhi):
        out += [math.ceil(xhi) - 1, xhi - 0.5]
    om, nm = od.get("multipleOf"), nd.get("multipleOf")
    if _num(om) and om > 0:
        omin = od.get("minimum")
        base = omin if _num(omin) else 0
        k0 = math.ceil(base / om)
        out += [om * k for k in range(k0, k0 + 6)]
    elif _num(nm) and nm > 0:
        out += [nm / 2, 1, 0.5]
    if {"integer", "number"} & set(_types_of(od)):
        out += [0, 1, -1]
    return [v for v in out if not (isinstance(v, float) and (math.isnan(v) or math.isinf(v)))]


def _types_of(d: dict[str, Any]) -> list[str]:
    t = d.get("type")
    return [t] if isinstance(t, str) else list(t) if isinstance(t, list) else []


def _stringish(d: dict[str, Any]) -> bool:
    t = _types_of(d)
    return "string" in t or any(k in d for k in ("pattern", "format", "minLength", "maxLength"))


def _merge_branch(parent: dict[str, Any], branch: Any) -> Any:
    if not isinstance(branch, dict):
        return branch
    rest = {k: v for k, v in parent.items() if k not in _BRANCH_TOKENS}
    return _merge(rest, branch)


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if k == "properties" and isinstance(out.get(k), dict) and isinstance(v, dict):
            out[k] = {**out[k], **v}
        elif k == "required" and isinstance(out.get(k), list) and isinstance(v, list):
            out[k] = list(dict.fromkeys([*out[k], *v]))
        else:
            out[k] = v
    return out


def _object_variants(gen: _Gen, od: dict[str, Any], first: dict[str, Any]) -> Iterator[Any]:
    props = _dict_at(od, "properties")
    optional = [p for p in props if p not in first]
    for p in optional[:16]:
        for v in gen.values(props[p], 1)[:2]:
            yield {**first, p: v}
    for key in ("extra", "x_extra"):
        if key not in props:
            yield {**first, key: "a"}
            yield {**first, key: 1}
            break
    full = dict(first)
    for p in optional[:16]:
        vals = gen.values(props[p], 1)
        if vals:
            full[p] = vals[0]
    yield full
    # fewer keys: for a raised minProperties the old minimum count itself
    req = _list_at(od, "required")
    yield {k: v for k, v in first.items() if k in req}


# Value generator ----------------------------------------------------------------------------


class _Gen:
    """Proposes simple values for a schema: required properties only, simplest values that
    honour type/enum/const/bounds/lengths/pattern/format, $ref followed, composition branches
    tried. Proposals are checked by the real validator, so this only has to be usually right;
    it must never loop (depth bounded by GEN_DEPTH) nor explode (MAX_ALTERNATIVES per node)."""

    def __init__(self, root: Any):
        self.root = root
        self._leaf: dict[str, SchemaValidator | None] = {}

    def values(self, schema: Any, depth: int) -> list[Any]:
        if depth > GEN_DEPTH or schema is _ABSENT:
            return []
        if schema is True or schema is None or schema == {}:
            return ["a", 0, True, None]
        if schema is False or not isinstance(schema, dict):
            return []
        s = _view(self.root, schema)
        if not isinstance(s, dict):
            return self.values(s, depth + 1)
        if "const" in s:
            return [s["const"]]
        if isinstance(s.get("enum"), list):
            return self._filter(s, list(s["enum"][: MAX_ALTERNATIVES * 2]))
        if isinstance(s.get("allOf"), list):
            merged = {k: v for k, v in s.items() if k != "allOf"}
            for br in s["allOf"][:8]:
                br = _view(self.root, br)
                if isinstance(br, dict):
                    merged = _merge(merged, br)
            return self.values(merged, depth + 1)
        for b in ("anyOf", "oneOf"):
            if isinstance(s.get(b), list):
                out: list[Any] = []
                for br in s[b][:8]:
                    out += self.values(_merge_branch(s, _view(self.root, br)), depth + 1)[:2]
                return out[: MAX_ALTERNATIVES * 2]
        types = _types_of(s) or self._infer_types(s)
        out = []
        for t in types:
            out += self._of_type(s, t, depth)[:MAX_ALTERNATIVES]
        return out[: MAX_ALTERNATIVES * 2]

    @staticmethod
    def _infer_types(s: dict[str, Any]) -> list[str]:
        if any(
            k in s
            for k in (
                "properties",
                "required",
                "additionalProperties",
                "patternProperties",
                "minProperties",
            )
        ):
            return ["object"]
        if any(k in s for k in ("items", "prefixItems", "minItems", "maxItems", "contains")):
            return ["array"]
        if any(k in s for k in ("minLength", "maxLength", "pattern", "format")):
            return ["string"]
        if any(
            k in s
            for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
        ):
            return ["number"]
        return ["string", "integer", "boolean", "null", "object", "array"]

    def _filter(self, s: dict[str, Any], vals: list[Any]) -> list[Any]:
        """Keep the proposals a leaf schema accepts (only for $ref-free leaves)."""
        try:
            key = json.dumps(s, sort_keys=True)
        except (TypeError, ValueError):
            return vals
        if key not in self._leaf:
            try:
                self._leaf[key] = None if "$ref" in key else SchemaValidator(s)
            except SchemaError:
                self._leaf[key] = None
        v = self._leaf[key]
        if v is None:
            return vals
        good = [x for x in vals if v.is_valid(x)]
        return good or vals

    def _of_type(self, s: dict[str, Any], t: str, depth: int) -> list[Any]:
        if t == "null":
            return [None]
        if t == "boolean":
            return [False, True]
        if t in ("integer", "number"):
            return self._filter(s, self._numbers(s, t == "integer"))
        if t == "string":
            return self._filter(s, self._strings(s))
        if t == "array":
            return self._arrays(s, depth)
        if t == "object":
            return self._objects(s, depth)
        return []

    @staticmethod
    def _numbers(s: dict[str, Any], integer: bool) -> list[Any]:
        lo, hi = s.get("minimum"), s.get("maximum")
        xlo, xhi = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
        cands: list[Any] = [0, 1]
        if _num(lo):
            cands = [math.ceil(lo) if integer else lo, *cands]
        if _num(xlo):
            cands = [math.floor(xlo) + 1, xlo + 0.5, *cands]
        if _num(hi):
            cands += [math.floor(hi) if integer else hi]
        if _num(xhi):
            cands += [math.ceil(xhi) - 1, xhi - 0.5]
        m = s.get("multipleOf")
        if _num(m) and m > 0:
            base = lo if _num(lo) else (xlo if _num(xlo) else 0)
            k = math.ceil(base / m)
            cands = [m * k, m * (k + 1), *cands]
        return list(
            dict.fromkeys(
                c for c in cands if not (integer and isinstance(c, float) and not c.is_integer())
            )
        )

    @staticmethod
    def _strings(s: dict[str, Any]) -> list[str]:
        lo = _int_at(s, "minLength", 0)
        hi = s["maxLength"] if isinstance(s.get("maxLength"), int) else None
        out: list[str] = []
        if isinstance(s.get("pattern"), str):
            ex = _regex_example(s["pattern"])
            if ex is not None:
                out.append(ex)
        fmt = s.get("format")
        if isinstance(fmt, str):
            if fmt in _FORMAT_SAMPLES:
                out.append(_FORMAT_SAMPLES[fmt])
            out += STRING_PROBES[5:]
        out += ["a" * max(lo, 1) if hi is None or hi >= 1 else "", "a" * lo, *STRING_PROBES[1:5]]
        if lo > 0:
            out += [_stretch(x, lo) for x in out[:3] if x]
        return list(dict.fromkeys(out))[:12]

    def _arrays(self, s: dict[str, Any], depth: int) -> list[Any]:
        lo = _int_at(s, "minItems", 0)
        lo = min(lo, 1000)
        pre = s.get("prefixItems") if isinstance(s.get("prefixItems"), list) else None
        items = s.get("items")
        if isinstance(items, list):  # draft-07 tuple form
            pre, items = items, s.get("additionalItems", True)
        head: list[Any] = []
        for p in (pre or [])[:lo]:
            vals = self.values(p, depth + 1)
            if not vals:
                return []
            head.append(vals[0])
        vals = self.values(items, depth + 1) if items is not None else ["a"]
        need = lo - len(head)
        out: list[Any] = []
        if need <= 0:
            out.append(head)
        if vals and need > 0:
            if s.get("uniqueItems") is True and len(vals) >= need:
                out.append(head + vals[:need])
            out.append(head + [copy.deepcopy(vals[0]) for _ in range(need)])
        if vals and (need <= 0):
            out.append([*head, vals[0]])
        if isinstance(s.get("contains"), (dict, bool)):
            cv = self.values(s["contains"], depth + 1)
            if cv:
                out.insert(0, [*head, cv[0]] + [copy.deepcopy(cv[0])] * max(0, need - 1))
        return out

    def _objects(self, s: dict[str, Any], depth: int) -> list[Any]:
        props = _dict_at(s, "properties")
        req = (
            [r for r in s.get("required", []) if isinstance(r, str)]
            if isinstance(s.get("required"), list)
            else []
        )
        ap = s.get("additionalProperties", True)
        obj: dict[str, Any] = {}
        alts: list[tuple[str, list[Any]]] = []
        for r in req:
            sub = props.get(r, ap if ap is not False else True)
            vals = self.values(sub, depth + 1)
            if not vals:
                return []
            obj[r] = vals[0]
            if len(vals) > 1:
                alts.append((r, vals[1:3]))
        mp = s.get("minProperties")
        if isinstance(mp, int):
            for p in props:
                if len(obj) >= mp:
                    break
                if p not in obj:
                    vals = self.values(props[p], depth + 1)
                    if vals:
                        obj[p] = vals[0]
        out = [obj]
        for r, vs in alts[:MAX_ALTERNATIVES]:  # vary one property at a time
            for v in vs:
                out.append({**obj, r: v})
        return out[:MAX_ALTERNATIVES]


# Regex -> a matching string -----------------------------------------------------------------


def _regex_example(pattern: str) -> str | None:
    """A short string the pattern probably matches (Python's parser; verified by the caller)."""
    if len(pattern) > 1000:
        return None
    try:
        tree = _sre.parse(pattern)
    except Exception:  # any parse failure: no proposal (re.error, RecursionError, ...)
        return None
    out: list[str] = []
    groups: dict[int, str] = {}
    budget = [200]
    try:
        _emit(tree, out, groups, budget)
    except _Give:
        return None
    return "".join(out)


class _Give(Exception):
    pass


def _emit(items: Any, out: list[str], groups: dict[int, str], budget: list[int]) -> None:
    c = _sre._constants if hasattr(_sre, "_constants") else _sre
    for op, av in items:
        budget[0] -= 1
        if budget[0] < 0 or len(out) > 200:
            raise _Give
        if op is c.LITERAL:
            out.append(chr(av))
        elif op is c.NOT_LITERAL:
            out.append("a" if av != ord("a") else "b")
        elif op is c.ANY:
            out.append("a")
        elif op is c.IN:
            out.append(_in_char(av, c))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            lo, _hi, sub = av
            for _ in range(min(lo, 100)):
                _emit(sub, out, groups, budget)
        elif op is c.SUBPATTERN:
            gid, sub = av[0], av[-1]
            start = len(out)
            _emit(sub, out, groups, budget)
            if gid is not None:
                groups[gid] = "".join(out[start:])
        elif op is getattr(c, "ATOMIC_GROUP", None):
            _emit(av, out, groups, budget)
        elif op is c.BRANCH:
            _emit(av[1][0], out, groups, budget)
        elif op is c.GROUPREF:
            out.append(groups.get(av, ""))
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        elif op is c.CATEGORY:
            out.append(_category_char(av, c))
        else:
            raise _Give


def _category_char(cat: Any, c: Any) -> str:
    if cat is c.CATEGORY_DIGIT:
        return "0"
    if cat is c.CATEGORY_SPACE:
        return " "
    if cat is c.CATEGORY_NOT_DIGIT or cat is c.CATEGORY_WORD or cat is c.CATEGORY_NOT_SPACE:
        return "a"
    if cat is c.CATEGORY_NOT_WORD:
        return "-"
    return "a"


def _in_char(items: list[Any], c: Any) -> str:
    if items and items[0][0] is c.NEGATE:
        banned: set[int] = set()
        for op, av in items[1:]:
            if op is c.LITERAL:
                banned.add(av)
            elif op is c.RANGE:
                banned.update(range(av[0], min(av[1], av[0] + 256) + 1))
        for ch in "a0A_- x":
            if ord(ch) not in banned:
                return ch
        raise _Give
    for op, av in items:
        if op is c.LITERAL:
            return chr(av)
        if op is c.RANGE:
            return chr(av[0])
        if op is c.CATEGORY:
            return _category_char(av, c)
    raise _Give
