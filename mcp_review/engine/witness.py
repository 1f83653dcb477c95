"""Witnesses: concrete calls valid under the old schema and rejected by the new, per change.

The search lives here; where a schema location sits in a call is :mod:`engine.locate`'s
(the LIKELY reach), the values tried are :mod:`engine.generate`'s, and pattern samples are
:mod:`engine.regex_sample`'s."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from mcp_review.engine.finite import candidates
from mcp_review.engine.generate import MAX_ALTERNATIVES, Gen, dict_at, targeted_values, view
from mcp_review.engine.locate import likely_paths, split_location
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_tokens
from mcp_review.engine.replay import MAX_ISSUES, Issue, SchemaError, SchemaValidator
from mcp_review.engine.rules import RULES, Witness, quote
from mcp_review.engine.rules.objects import (
    PROPERTY_ADDED_OPTIONAL,
    PROPERTY_ADDED_REQUIRED,
    PROPERTY_REMOVED_CLOSED,
    PROPERTY_REMOVED_OPEN,
    PROPERTY_RENAME_SUSPECTED,
)
from mcp_review.engine.walk import COMBINATORS, MISSING, escape, get, nodes

# attribution and placement live in witness_place (split by job; it never imports this module)
from mcp_review.engine.witness_place import (
    all_locations,
    at_instance,
    best_issue,
    copy_json,
    instance_key,
    keyword_attributable,
    locations,
    patch,
    place,
    plain_keyword_path,
    plain_object_path,
    touches,
)

MAX_VALIDATOR_CALLS = 400
"""Validator calls spent on one change at most (candidates cost 2-3 calls each)."""

MAX_TOOL_VALIDATOR_CALLS = 20_000
"""Validator calls (a schema compilation counts as one) spent on one tool's witnesses at most:
a tool that adds thousands of required properties is classified in time linear in the change,
and the verdict never depends on how fast the machine is."""

MAX_TOOL_WORK = 4_000_000
"""Units of work one tool's witness search may spend. A validator call, or a
compilation, costs 1 + the size of the largest collection (an ``enum``, ``required``,
``properties``, an ``anyOf``/``oneOf`` list, ...) in the schemas it reads, since that is what
it touches: the 20,000 calls of an ordinary schema fit, a 200,000-value ``enum`` buys a handful
of calls, not 20,000 calls of 200,000 comparisons each."""

_ABSENT: Any = MISSING
"""Candidate meaning "leave the property out" (a required property added); also what a schema
location the document lacks reads as (engine.walk.get), so putting it back deletes it."""

_BRANCH_TOKENS = COMBINATORS


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
    """Validator calls (and schema compilations) one tool's witness search may still spend,
    and the units of work they cost (:data:`MAX_TOOL_WORK`).

    Counted in calls and units, never in wall-clock time: a witness promotes a verdict, so the
    verdict must not depend on the machine's speed or load."""

    __slots__ = ("left", "tally", "units")

    def __init__(self, calls: int, units: int = MAX_TOOL_WORK, tally: Tally | None = None):
        self.left = calls
        self.units = units
        self.tally = tally

    def take(self, n: int = 1, weight: int = 1) -> bool:
        """Spend ``n`` calls of ``weight`` units each; False (nothing spent) when fewer are
        left."""
        cost = n * weight
        if self.units < cost:
            self.left = min(self.left, 0)  # the work is spent: nothing more is searched
            return False
        if self.left < n:
            return False
        self.left -= n
        self.units -= cost
        if self.tally is not None:
            self.tally.calls += n
            self.tally.units += cost
        return True

    def work(self, units: int) -> None:
        """Spend ``units`` of work outside a validator call (proposing values); raises
        :class:`_Spent` when they are not there."""
        if self.units < units:
            self.left = min(self.left, 0)
            raise _Spent
        self.units -= units
        if self.tally is not None:
            self.tally.units += units


@dataclasses.dataclass
class Tally:
    """What one witness search spent (a caller that wants to know passes one in): validator
    calls, and units of work (a call costs 1 + the largest collection it reads)."""

    calls: int = 0
    units: int = 0


def weight_of(*schemas: Any) -> int:
    """1 + the size of the largest collection (array, or object's members) in ``schemas``:
    what one validator call against them touches at most, in one keyword. Linear in their
    size (each container is looked at once)."""
    largest = 0
    for s in schemas:
        for node, _ in nodes(s):
            if len(node) > largest:
                largest = len(node)
    return 1 + largest


class _Spent(Exception):
    """The tool's budget ran out in the middle of one change's search."""


def attach_witnesses(
    old: Any,
    new: Any,
    changes: list[Change],
    *,
    budget: int = MAX_TOOL_VALIDATOR_CALLS,
    memo: CompareMemo | None = None,
    tally: Tally | None = None,
) -> list[Change]:
    """Return ``changes`` with a verified witness on each breaking / potentially-breaking
    schema change that has none; a witness promotes potentially-breaking to breaking.

    Input side: a call valid under old ``inputSchema`` and rejected by the new one. Output side
    (cheap, same machinery with the roles swapped): a result the new ``outputSchema`` allows
    and the old one promised never to produce. A witness is attached only if it is
    *attributable*: putting the old value back at the change's pointer (and nothing else)
    makes the new schema accept it, so one change is never promoted by another's breakage.

    Bounded: the whole tool spends at most ``budget`` validator calls (MAX_VALIDATOR_CALLS per
    change) and :data:`MAX_TOOL_WORK` units of work (``tally``, when given, adds up what was
    spent); a change left unsearched, or whose search failed, keeps its class and carries a
    ``note`` saying why it has no witness. Never raises.

    ``memo`` (engine/memo.py): the search's answers already found in this run, reused for the
    same schema documents and the same changes (everything the search reads of them is the
    key: see :func:`_search_key`); a reused witness is a copy.
    """
    key = _search_key(old, new, changes, budget, memo)
    if key is None or memo is None:
        return _apply(changes, _search(old, new, changes, budget, tally))
    hit = memo.get("witnesses", key)
    if hit is None:
        hit = _search(old, new, changes, budget, tally)
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
        f if f is None or "witness" not in f else {**f, "witness": copy_json(f["witness"])}
        for f in found
    ]


def _apply(changes: list[Change], found: list[dict[str, Any] | None]) -> list[Change]:
    """``changes`` with :func:`_search`'s answer for each (None: unchanged)."""
    return [
        ch if f is None else dataclasses.replace(ch, **f)
        for ch, f in zip(changes, found, strict=True)
    ]


def _search(
    old: Any, new: Any, changes: list[Change], budget: int, tally: Tally | None = None
) -> list[dict[str, Any] | None]:
    """:func:`attach_witnesses`' search: for each change, the fields its answer replaces
    (None: the change stays as it is). Reads of each change only what :func:`_search_key`
    keys on."""
    sides: dict[str, _Side | None] = {}
    out: list[dict[str, Any] | None] = [None] * len(changes)
    spent = _Budget(budget, tally=tally)
    # A witness that decides a verdict (it promotes a potentially-breaking change) is searched
    # before one that shows a verdict already reached, so the tool's budget never starves it.
    order = sorted(
        range(len(changes)), key=lambda i: changes[i].cls is not ChangeClass.POTENTIALLY_BREAKING
    )
    # A breaking change that already holds a call breaking there (and elsewhere too) spends
    # at most its share of the tool's work looking for one that breaks for it alone: a tool of
    # 140 changes that block each other (a union of 30 rewritten branches) shows them all.
    share = MAX_TOOL_WORK // max(1, sum(1 for c in changes if _searched(c)))
    for i in order:
        ch = changes[i]
        strategy = strategy_of(ch.rule)
        if (
            ch.has_witness
            or strategy in _NOT_SEARCHED
            or ch.cls not in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
        ):
            if strategy is Witness.HINT and ch.cls is ChangeClass.BREAKING and not ch.note:
                out[i] = {"note": NOTE_HINT}
            else:
                out[i] = None
            continue
        toks = pointer_tokens(ch.pointer)
        field = toks[0] if toks else ""
        if field not in _SEARCHED_FIELDS or ch.direction is Direction.TOOL:
            out[i] = None
            continue
        if spent.left <= 0:
            out[i] = {"note": NOTE_BUDGET}
            continue
        try:
            if field not in sides:
                sides[field] = _Side.build(old, new, field, spent)
            side = sides[field]
            found = (
                side.find(
                    toks[1:], strategy, share=share if ch.cls is ChangeClass.BREAKING else None
                )
                if side is not None
                else None
            )
        except _Spent:
            out[i] = {"note": NOTE_BUDGET}
            continue
        except Exception as e:
            out[i] = {"note": f"no witness: the witness search failed ({type(e).__name__})"}
            continue
        out[i] = _found(ch, found) if found is not None else _not_found(ch, side)
    _rename_witnesses(changes, out)
    return out


def _found(ch: Change, found: tuple[Any, Issue]) -> dict[str, Any]:
    """The answer for a change with a witness of its own: the call and why the new schema
    rejects it; a potentially-breaking change is promoted to breaking, since the call proves it."""
    instance, issue = found
    promoted = ch.cls is ChangeClass.POTENTIALLY_BREAKING
    return {
        "witness": instance,
        "witness_error": f"{issue.path or '(root)'}: {issue.message}",
        "cls": ChangeClass.BREAKING if promoted else ch.cls,
        "promoted": promoted or ch.promoted,
    }


def _not_found(ch: Change, side: _Side | None) -> dict[str, Any] | None:
    """The answer for a change the search found no witness of its own for: the shared call
    that still shows its break, a breaking verdict disproved by an exhaustive search, or a
    note saying why there is no witness (None: a potentially-breaking change stays as it is)."""
    if ch.cls is ChangeClass.BREAKING and side is not None and side.shared:
        # No call breaks for this change alone (another change of the tool rejects every
        # call this one does): the call valid under old and rejected by new, aimed here,
        # is still the evidence of the break. It promotes nothing.
        instance, issue = side.shared
        return {
            "witness": instance,
            "witness_error": f"{issue.path or '(root)'}: {issue.message}",
            "note": ch.note or NOTE_SHARED,
        }
    if not (ch.cls is ChangeClass.BREAKING and not ch.note):  # replay's evidence stays
        return None
    proof = side.exhaustive() if side is not None and not side.blocked else None
    if side is not None and proof is not None and proof[1] is None:
        # Every call the old schema accepts was tried, and the new one accepts
        # them all: no witness exists, so the verdict has no proof.
        return {
            "cls": ChangeClass.POTENTIALLY_BREAKING,
            "note": NOTE_EXHAUSTIVE.format(n=proof[0], what=side.what),
            "disproved": True,
        }
    why = (
        NOTE_UNCOMPILED
        if side is None
        else NOTE_BLOCKED
        if side.blocked
        else NOTE_NONE
        if proof is not None
        else NOTE_NONE + NOTE_NOT_EXHAUSTIVE
    )
    return {"note": why}


def _searched(ch: Change) -> bool:
    """The search looks for a witness of ``ch`` (what :func:`_search` skips, it does not)."""
    return (
        not ch.has_witness
        and strategy_of(ch.rule) not in _NOT_SEARCHED
        and ch.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
        and ch.direction is not Direction.TOOL
    )


_REMOVED = frozenset({PROPERTY_REMOVED_CLOSED, PROPERTY_REMOVED_OPEN})
_ADDED = frozenset({PROPERTY_ADDED_REQUIRED, PROPERTY_ADDED_OPTIONAL})


def _rename_witnesses(changes: list[Change], out: list[dict[str, Any] | None]) -> None:
    """A suspected rename is a hint over a removed and an added property: when it is breaking,
    the removed property's witness (a call that still sends the old name) is its evidence."""
    for i, ch in enumerate(changes):
        if ch.rule != PROPERTY_RENAME_SUSPECTED or ch.cls is not ChangeClass.BREAKING:
            continue
        params = dict(ch.params)
        parent = ch.pointer.rsplit("/", 2)[0]
        for j, other in enumerate(changes):
            found = out[j]
            if (
                other.rule in _REMOVED
                and found is not None
                and "witness" in found
                and other.pointer.rsplit("/", 2)[0] == parent
                and quote(pointer_tokens(other.pointer)[-1]) == params.get("old")
            ):
                out[i] = {
                    "witness": found["witness"],
                    "witness_error": found.get("witness_error"),
                    "note": "the witness of the removed property: a call that still sends it",
                }
                break
        else:
            # None for the old name (on the output side a dropped property breaks nothing):
            # the new name's witness, a result that carries it where the old schema refused it.
            for j, other in enumerate(changes):
                found = out[j]
                if (
                    other.rule in _ADDED
                    and other.pointer == ch.pointer
                    and found is not None
                    and "witness" in found
                ):
                    out[i] = {
                        "witness": found["witness"],
                        "witness_error": found.get("witness_error"),
                        "note": "the witness of the added property: "
                        + (
                            "a result that carries it"
                            if other.direction is Direction.OUTPUT
                            else "a call without it"
                        ),
                    }
                    break


NOTE_BLOCKED = (
    "no witness: every generated call that breaks here also breaks because of "
    "another change in this tool, so none shows this change alone"
)
NOTE_SHARED = (
    "the witness also breaks because of another change in this tool: no call valid under "
    "the old schema breaks for this change alone"
)
NOTE_NONE = (
    "no witness: no generated call valid under the old schema is rejected by the new "
    "one here (the verdict stands on the schema change itself)"
)
NOTE_UNCOMPILED = "no witness: the validator cannot compile one of the two schemas"
NOTE_NOT_EXHAUSTIVE = (
    "; the search could not be exhaustive (the old schema accepts unboundedly many calls, or "
    "more than it can try)"
)
NOTE_EXHAUSTIVE = (
    "no witness exists: the search tried every one of the {n} {what} the old schema accepts "
    "(over its declared properties) and the new one accepts them all; the structural change "
    "alone stands as potentially breaking"
)
NOTE_HINT = "a hint, not a change of its own: the changes it pairs carry the evidence"

NOTE_BUDGET = (
    "no witness searched: this tool's witness budget "
    f"({MAX_TOOL_VALIDATOR_CALLS} validator calls, {MAX_TOOL_WORK} units of work: a call "
    "costs 1 + the largest enum, required, properties or list of alternatives it reads) "
    "was spent"
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
        weight: int | None = None,
    ):
        self.acc, self.rej = acc, rej
        self.acc_v, self.rej_v = acc_v, rej_v
        self.blocked = 0
        self.shared: tuple[Any, Issue] | None = None
        self.objects = False
        """Only JSON objects are witnesses (set for a tool's inputSchema and outputSchema)."""
        self.budget = budget or _Budget(MAX_TOOL_VALIDATOR_CALLS)
        self.gen = Gen(acc, self.budget.work)
        self.rej_gen = Gen(rej, self.budget.work)
        self.weight = weight if weight is not None else weight_of(acc, rej)
        self._acc_ok: dict[str, bool] = {}
        self._rej_ok: dict[str, bool] = {}
        self._rej_err: dict[str, tuple[list[Issue], set[str] | None]] = {}
        self._bases_memo: list[Any] | None = None
        self._where_memo: dict[str, set[str]] = {}
        self._exhaustive: tuple[int, Any] | bool | None = False  # False: not yet tried
        self.what = "values"
        """What the witnesses are, in a note's words (calls, results)."""

    @classmethod
    def build(cls, old: Any, new: Any, field: str, budget: _Budget | None = None) -> _Side | None:
        a, b = _wire(old).get(field), _wire(new).get(field)
        if field == "outputSchema" and (a is None) != (b is None):
            # No outputSchema promises no shape: every object is a result it allows.
            a, b = (a if a is not None else {}), (b if b is not None else {})
        # Output side flips: a result the new schema allows and the old one did not.
        side = (
            cls.from_schemas(a, b, budget)
            if field == "inputSchema"
            else cls.from_schemas(b, a, budget)
        )
        if side is not None:
            # tools/call arguments and structuredContent are JSON objects (MCP): a witness
            # that is not one is a call no client can send, or a result no server returns.
            side.objects = True
            side.what = "calls" if field == "inputSchema" else "results"
        return side

    @classmethod
    def from_schemas(cls, acc: Any, rej: Any, budget: _Budget | None = None) -> _Side | None:
        if acc is None or rej is None:
            return None
        weight = weight_of(acc, rej)
        if budget is not None and not budget.take(2, weight):
            raise _Spent
        try:
            return cls(acc, rej, SchemaValidator(acc), SchemaValidator(rej), budget, weight)
        except SchemaError:
            return None

    # -- validator calls, cached and counted
    def _call(self, n: int = 1) -> None:
        if not self.budget.take(n, self.weight):
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

    def exhaustive(self) -> tuple[int, Any] | None:
        """The search's proof of absence on a finite schema: (how many values the accepting
        schema takes, the first of them the rejecting one refuses, or None when it refuses
        none); None when that set is not finite (engine.finite) or the budget cannot try it
        all. Counted validator calls, like every other part of the search."""
        if self._exhaustive is not False:
            return self._exhaustive  # type: ignore[return-value]
        self._exhaustive = None
        cands = candidates(self.acc, objects=self.objects)
        if cands is None:
            return None
        # At most half of what the tool has left (two validator calls a value): the proof
        # never takes the budget another change's search needs.
        if 2 * len(cands) > self.budget.left // 2 or (
            2 * len(cands) * self.weight > self.budget.units // 2
        ):
            return None
        taken = 0
        try:
            for inst in cands:
                if self.objects and not isinstance(inst, dict):
                    continue
                key = instance_key(inst)
                if key is None:
                    return None
                if not self.accepts(inst, key):
                    continue
                taken += 1
                if self.rejects(inst, key):
                    self._exhaustive = (taken, inst)
                    return self._exhaustive
        except _Spent:
            return None
        self._exhaustive = (taken, None)
        return self._exhaustive

    # -- attribution
    @staticmethod
    def _targets(toks: list[str], strategy: Witness) -> list[list[str]]:
        """The schema locations that undo this one change when acc's value is put back."""
        loc, kw = split_location(toks)
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
            patched = patch(patched, t, get(self.acc, t))
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
        if not all(st in exact and plain_keyword_path(st) for st in err):
            return False
        for t in targets:
            if tuple(t) in err or plain_keyword_path(tuple(t)):
                continue  # a local keyword: putting acc's value back is safe
            if not (len(t) >= 2 and t[-2] == "properties" and plain_object_path(t[:-2])):
                return False
            parent = get(inst, t[:-2][1::2]) if t[:-2] else inst
            if not isinstance(parent, dict) or t[-1] in parent:
                return False
        return True

    def find(
        self, toks: list[str], strategy: Witness, share: int | None = None
    ) -> tuple[Any, Issue] | None:
        """A call valid under acc and rejected by rej for this change alone (None: none
        found; :attr:`shared` then holds the first call that breaks here and elsewhere too).
        ``share``: the change is breaking already, so once a shared call is found and the
        search has spent ``share`` units of work, it stops (the shared call is its
        evidence)."""
        self.blocked = 0  # candidates that broke, but not for this change alone
        self.shared = None  # the first of them
        shared_at: int | None = None
        units_at = self.budget.units
        targets = self._targets(toks, strategy)
        loc, kw = split_location(toks)
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
            if (
                share is not None
                and shared_at is not None
                and units_at - self.budget.units >= share
            ):
                return None
            if self.objects and not isinstance(inst, dict):
                continue
            self.budget.work(self.weight)  # building, copying and keying a call as big
            key = instance_key(inst)
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
                ok = keyword_attributable(issues, paths, kw)
            elif self._plainly_attributable(inst, paths, targets):
                ok = True
            else:
                if reverted is False:
                    reverted = self._reverted(targets)
                if reverted is None:
                    # The change cannot be undone in the new schema (its location is the old
                    # schema's only): attributed by nothing, the call may still be shared.
                    ok = False
                else:
                    self._call()
                    ok = reverted.is_valid(inst)  # type: ignore[union-attr]
            if ok:
                if strategy is Witness.OMIT_REQUIRED:
                    inst, issues = self._narrow(inst, issues, toks)
                return inst, best_issue(issues, toks)
            # It breaks, but also because of another change: satisfy the new schema's other
            # requirements (a property another change made required) and try that call too.
            self.blocked += 1
            if self.shared is None and (
                touches(issues, paths, toks) or at_instance(issues, self._where(loc))
            ):
                self.shared = (inst, best_issue(issues, toks))
                if share is not None:
                    shared_at = self.budget.left
            fixed = self._repair(inst, issues, targets)
            if fixed is not None:
                pending.append(fixed)

    def _where(self, loc: list[str]) -> set[str]:
        """The instance locations (JSON pointers, never the root) the change's location maps
        to in a call, as the search places values there."""
        key = "/".join(loc)
        hit = self._where_memo.get(key)
        if hit is None:
            hit = set()
            for path, _chain, _hint in likely_paths(self.acc, loc):
                if path:
                    hit.add("".join("/" + escape(str(p)) for p in path))
            self._where_memo[key] = hit
        return hit

    def _narrow(self, inst: Any, issues: list[Issue], toks: list[str]) -> tuple[Any, list[Issue]]:
        """For a property made required: ``inst`` with the object's other newly required
        properties filled in from the rejecting schema, when that call still passes the old
        schema and fails the new one, so the evidence fails for this property alone (``{}``
        against two added requirements names whichever the validator reports first)."""
        if len(toks) < 2 or toks[-2] != "properties" or not plain_object_path(toks[:-2]):
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
        fixed = copy_json(inst)
        target = get(fixed, node_path) if node_path else fixed
        changed = False
        for other in req[:32]:
            if isinstance(other, str) and other != name and other not in target and other in props:
                vals = [v for v in self.rej_gen.values(props[other], 1) if v is not _ABSENT]
                if not vals:
                    return inst, issues
                target[other] = copy_json(vals[0])
                changed = True
        key = instance_key(fixed) if changed else None
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
        fixed = copy_json(inst)
        changed = False
        for i in issues:
            st = pointer_tokens(i.schema_path)
            if st[-1:] != ["required"] or tuple(st) in mine or not plain_object_path(st[:-1]):
                continue
            obj_schema = get(self.rej, st[:-1])
            node = get(fixed, pointer_tokens(i.path)) if i.path else fixed
            if not isinstance(obj_schema, dict) or not isinstance(node, dict):
                continue
            req = obj_schema.get("required")
            props = obj_schema.get("properties")
            if not isinstance(req, list) or not isinstance(props, dict):
                continue
            self.budget.work(len(req))  # a pass over the required names
            for name in req:
                if isinstance(name, str) and name not in node and name in props:
                    vals = self.rej_gen.values(props[name], 1)
                    if vals:
                        node[name] = copy_json(vals[0])
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
        out = [
            b
            for b in self.gen.values(self.acc, 0)
            if b is not _ABSENT and (isinstance(b, dict) or not self.objects)
        ][:MAX_ALTERNATIVES]
        if self.objects and not out:
            out = [{}]
        root = view(self.acc, self.acc)
        if out and isinstance(out[0], dict) and isinstance(root, dict):
            full = dict(out[0])
            props = dict_at(root, "properties")
            for p, sub in list(props.items())[:32]:
                if p not in full:
                    vals = self.gen.values(sub, 1)
                    if vals:
                        full[p] = vals[0]
            if full != out[0]:
                out.append(full)
        return out + self._common_bases(out)

    def _common_bases(self, bases: list[Any]) -> list[Any]:
        """When every base breaks under the new schema (another change made the call invalid:
        a format asserted, a requirement added), the rejecting schema's own minimal calls that
        the accepting one also takes: a value placed there breaks for its own change, or not
        at all. Empty when some base is valid under both (the search is then as it was)."""
        if not bases:
            return []
        for b in bases:
            k = instance_key(b)
            if k is not None and self.accepts(b, k) and not self.rejects(b, k):
                return []
        out: list[Any] = []
        seen = {instance_key(b) for b in bases}
        for b in self.rej_gen.values(self.rej, 0)[:MAX_ALTERNATIVES]:
            if b is _ABSENT or (self.objects and not isinstance(b, dict)):
                continue
            k = instance_key(b)
            if k is None or k in seen:
                continue
            seen.add(k)
            if self.accepts(b, k) and not self.rejects(b, k):
                out.append(b)
        return out[:2]

    def _candidates(self, toks: list[str], strategy: Witness) -> Iterator[Any]:
        bases = self._bases() or [{}]
        for path, o_chain, o_sub, n_sub, hint, kw in locations(self.acc, self.rej, toks):
            values = list(targeted_values(self.gen, o_sub, n_sub, hint, kw, strategy))
            # A schema that accepts anything proposes scalars first; a location inside the
            # call needs a container to hold it.
            want = list if path and isinstance(path[0], int) else dict
            placed = bases if any(isinstance(b, want) for b in bases) else [*bases, want()]
            for value in values:
                for base in placed:
                    inst = place(base, path, value, o_chain, self.gen)
                    if inst is not None:
                        yield inst
        # The plain minimal calls (they witness an added requirement on their own), after the
        # boundary values so those win when both would do.
        yield from bases
        # Generic fallback: a bounded walk over every location of the accepting schema.
        for path, o_chain, o_sub, n_sub in all_locations(self.acc, self.rej):
            for value in targeted_values(self.gen, o_sub, n_sub, None, [], strategy):
                inst = place(bases[0], path, value, o_chain, self.gen)
                if inst is not None:
                    yield inst
