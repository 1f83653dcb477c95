"""Composition: ``anyOf``, ``oneOf``, ``allOf``, ``not`` and ``if`` / ``then`` / ``else``.

Its rules, and the handlers the walker (``schema_diff``) calls for its keywords (``HANDLERS``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from mcp_review.engine.model import (
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    NO_CONSTRAINT,
    UNDECIDED,
    Cover,
    Handler,
    Judge,
    Pair,
    accepts_all,
    branch_sig,
    brief,
    ckey,
    covered,
    disjoint,
    has_ref,
    jeq,
    kind_of,
    type_set,
)
from mcp_review.engine.rules.registry import Effect, Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
)

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_I = Direction.INPUT
_N = Effect.NARROW
_W = Effect.WIDEN
_U = Effect.UNKNOWN

RULES: tuple[Rule, ...] = (
    _r(
        "any-of-branch-added",
        _C,
        _I,
        "an anyOf alternative was added",
        "{where}: anyOf alternative added: {branch}",
        _W,
        at_keyword=True,
    ),
    _r(
        "any-of-branch-removed",
        _B,
        _I,
        "an anyOf alternative was removed",
        "{where}: anyOf alternative removed: {branch}",
        _N,
        at_keyword=True,
    ),
    _r(
        "one-of-branch-added",
        _P,
        _I,
        "a oneOf alternative was added (a value matching two now fails)",
        "{where}: oneOf alternative added: {branch} (values matching two alternatives now fail)",
        _U,
        at_keyword=True,
    ),
    _r(
        "one-of-branch-removed",
        _B,
        _I,
        "a oneOf alternative was removed",
        "{where}: oneOf alternative removed: {branch}",
        _N,
        at_keyword=True,
    ),
    _r(
        "all-of-branch-added",
        _B,
        _I,
        "an allOf constraint was added",
        "{where}: allOf constraint added: {branch}",
        _N,
        at_keyword=True,
    ),
    _r(
        "all-of-branch-removed",
        _C,
        _I,
        "an allOf constraint was removed",
        "{where}: allOf constraint removed: {branch}",
        _W,
        at_keyword=True,
    ),
    _r(
        "composition-added",
        _B,
        _I,
        "anyOf/oneOf now constrains a value that was free",
        "{where}: {keyword} added: a value must now match one of its alternatives",
        _N,
        at_keyword=True,
    ),
    _r(
        "composition-removed",
        _C,
        _I,
        "an anyOf/oneOf constraint was dropped",
        "{where}: {keyword} dropped: its alternatives no longer restrict the value",
        _W,
        at_keyword=True,
    ),
    _r(
        "not-added",
        _B,
        _I,
        "a not constraint was added",
        "{where}: not {branch} added",
        _N,
        at_keyword=True,
    ),
    _r(
        "not-removed",
        _C,
        _I,
        "a not constraint was removed",
        "{where}: not {branch} removed",
        _W,
        at_keyword=True,
    ),
    _r(
        "if-changed",
        _P,
        _I,
        "an if condition was added, removed or changed",
        "{where}: if condition {how}; which branch applies to a call may change",
        _U,
        at_keyword=True,
    ),
    _r(
        "conditional-branch-added",
        _B,
        _I,
        "a then/else branch was added",
        "{where}: {keyword} branch added",
        _N,
        at_keyword=True,
    ),
    _r(
        "conditional-branch-removed",
        _C,
        _I,
        "a then/else branch was removed",
        "{where}: {keyword} branch removed",
        _W,
        at_keyword=True,
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_any_of(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    _branches(w, "anyOf", o, n, op, np, pos, depth, "any-of-branch-added", "any-of-branch-removed")


def judge_one_of(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    _branches(w, "oneOf", o, n, op, np, pos, depth, "one-of-branch-added", "one-of-branch-removed")


def judge_all_of(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    _branches(w, "allOf", o, n, op, np, pos, depth, "all-of-branch-added", "all-of-branch-removed")


def _whole_keyword(
    w: Judge,
    kw: str,
    o: dict[str, Any],
    n: dict[str, Any],
    op: str,
    np: str,
    pos: bool,
    ol: Any,
    nl: Any,
) -> bool:
    """Judge the keyword as a whole when its branches cannot be paired (it is not a list on
    one side, or an anyOf/oneOf is on one side only) and say so: its branches are then not
    compared one by one."""
    if not isinstance(ol, list) or not isinstance(nl, list):
        if not jeq(ol, nl):
            side = n if not isinstance(nl, list) else o
            w.emit(
                "schema-invalid",
                pointer_join(np if side is n else op, kw),
                pos,
                kind=Raw(f"{kw} is {kind_of(side[kw])}"),
            )
        return True
    if kw != "allOf" and (kw in o) != (kw in n):
        # Nothing to lift on the other side: the alternatives constrain a free value.
        side, alts = (n, nl) if kw in n else (o, ol)
        present = [x for x in alts if not accepts_all(x)]
        if len(present) == len(alts) and not _siblings_decide(kw, side, alts):
            rule = "composition-added" if kw in n else "composition-removed"
            w.emit(rule, pointer_join(np if kw in n else op, kw), pos, keyword=Raw(kw))
        return True
    return False


def _removed_branches(
    w: Judge,
    kw: str,
    ol: list[Any],
    nl: list[Any],
    gone: list[int],
    optr: Callable[[int], str],
    pos: bool,
    cover: Cover | None,
    removed_rule: str,
) -> None:
    """The old branches with no partner on the new side, each reported unless it changes
    nothing: a duplicate of one still there (anyOf/allOf), an allOf branch that accepts all,
    or (on the input side) one another alternative still covers."""
    # In anyOf/allOf a branch equal to one the other side still has is a duplicate: adding
    # or dropping it changes nothing. (Not in oneOf, where a duplicate rejects its matches.)
    kept_n = {ckey(x) for x in nl} if kw != "oneOf" else set()
    for i in gone:
        if not (kw == "allOf" and accepts_all(ol[i])) and ckey(ol[i]) not in kept_n:
            state = cover.old.get(i) if cover is not None and pos else None
            if state is True:
                continue  # another alternative still accepts everything this one did
            w.emit(
                removed_rule,
                optr(i),
                pos,
                branch=brief(ol[i]),
                cls=ChangeClass.POTENTIALLY_BREAKING if state is UNDECIDED else None,
            )


def _added_branches(
    w: Judge,
    kw: str,
    ol: list[Any],
    nl: list[Any],
    new: list[int],
    nptr: Callable[[int], str],
    pos: bool,
    cover: Cover | None,
    added_rule: str,
) -> None:
    """The new branches with no partner on the old side, each reported unless it changes
    nothing: a duplicate, an allOf branch that accepts all, one an old alternative already
    allowed (output side), or one that takes over an old alternative's values (input side)."""
    kept_o = {ckey(x) for x in ol} if kw != "oneOf" else set()
    # A oneOf alternative that no other can share a value with widens like an anyOf one.
    added_effect = Effect.WIDEN if kw == "oneOf" and new and disjoint(nl) else None
    for j in new:
        if not (kw == "allOf" and accepts_all(nl[j])) and ckey(nl[j]) not in kept_o:
            state = cover.new.get(j) if cover is not None and not pos else None
            if state is True:
                continue  # on the output side: an old alternative already allowed it all
            if cover is not None and pos and j in cover.used:
                continue  # it takes over values an old alternative had: not an addition
            w.emit(
                added_rule,
                nptr(j),
                pos,
                branch=brief(nl[j]),
                effect=added_effect,
                cls=ChangeClass.POTENTIALLY_BREAKING if state is UNDECIDED else None,
            )


def _branches(
    w: Judge,
    kw: str,
    o: dict[str, Any],
    n: dict[str, Any],
    op: str,
    np: str,
    pos: bool,
    depth: int,
    added_rule: str,
    removed_rule: str,
) -> None:
    """An anyOf, oneOf or allOf: its branches paired and compared, the unpaired ones reported
    as added or removed, and the alarms about their shapes dropped when the values allowed
    are the same."""
    ol, nl = o.get(kw, []), n.get(kw, [])
    if _whole_keyword(w, kw, o, n, op, np, pos, ol, nl):
        return
    o_lift, n_lift = id(ol) in w.lifted, id(nl) in w.lifted

    def optr(i: int) -> str:
        return op if o_lift else pointer_join(op, kw, i)

    def nptr(j: int) -> str:
        return np if n_lift else pointer_join(np, kw, j)

    # Meaning before syntax: does every alternative the accepting side allowed still find
    # one on the other side that accepts all of it? (anyOf/oneOf only: allOf was folded.)
    # The node's own ``type`` applies to every alternative (the root's "object", kept beside a
    # lifted union): an alternative is compared with it, so one written without it is not
    # read as admitting every other type too.
    types = (o.get("type", MISSING), n.get("type", MISSING))
    cover = w.coverage(kw, ol, nl, optr, nptr, pos, depth, types) if kw != "allOf" else None
    mark = len(w.out)
    pairs, gone, new = _match(ol, nl)
    for i, j in pairs:
        w.diff(ol[i], nl[j], optr(i), nptr(j), pos, depth + 1)
    _removed_branches(w, kw, ol, nl, gone, optr, pos, cover, removed_rule)
    _added_branches(w, kw, ol, nl, new, nptr, pos, cover, added_rule)
    if cover is not None and cover.complete:
        # Every value the accepting side allowed is still allowed here: alarms about the
        # branches' shapes (a split enum, a type list as alternatives, branches regrouped)
        # are not about values. Text and compatible changes stay; when the other side is
        # covered too, the two mean the same and the branch bookkeeping goes as well.
        same = (
            None
            if w.is_probe  # a probe needs the verdict, not the bookkeeping
            else w.coverage(kw, ol, nl, optr, nptr, not pos, depth, types)
        )
        mine = (
            {optr(i) for i in gone} | {nptr(j) for j in new}
            if same is not None and same.complete
            else set()
        )
        w.out[mark:] = [
            c
            for c in w.out[mark:]
            if c.cls not in _VALUE_ALARMS
            and not (c.rule in (added_rule, removed_rule) and c.pointer in mine)
        ]


def _implied(siblings: dict[str, Any], branch: Any) -> bool:
    """Every value the keywords beside the union accept passes ``branch``: each of its
    keywords is prose, written the same beside it, or a ``type`` that admits every type the
    siblings allow."""
    if not isinstance(branch, dict):
        return branch is True
    s_types = type_set(siblings.get("type", MISSING))
    for k, v in branch.items():
        if k in NO_CONSTRAINT or (k in siblings and jeq(v, siblings[k])):
            continue
        if k == "type":
            b_types = type_set(v)
            if (
                s_types is not None
                and b_types is not None
                and all(covered(t, b_types) for t in s_types)
            ):
                continue
        return False
    return True


def _excluded(siblings: dict[str, Any], branch: Any) -> bool:
    """No value the siblings' ``type`` allows passes ``branch``'s own ``type``."""
    s_types = type_set(siblings.get("type", MISSING))
    b_types = type_set(branch.get("type", MISSING)) if isinstance(branch, dict) else None
    if s_types is None or b_types is None:
        return False
    return not any(covered(t, b_types) or covered(u, s_types) for t in s_types for u in b_types)


def _siblings_decide(kw: str, siblings: dict[str, Any], alts: list[Any]) -> bool:
    """A union written beside keywords that already decide it (``type: array, items: X,
    anyOf: [{type: array, items: X}, {type: null}]``): one alternative admits every value the
    siblings do, so the union rules nothing out (for ``oneOf`` the others must admit none of
    them, else a value matching two fails). Adding or dropping it is no change."""
    implied = [i for i, b in enumerate(alts) if _implied(siblings, b)]
    if not implied:
        return False
    if kw == "anyOf":
        return True
    return len(implied) == 1 and all(
        _excluded(siblings, b) for i, b in enumerate(alts) if i != implied[0]
    )


def judge_not(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    ov, nv = o.get("not", MISSING), n.get("not", MISSING)
    if ov is MISSING:
        w.emit("not-added", pointer_join(np, "not"), pos, branch=brief(nv))
    elif nv is MISSING:
        w.emit("not-removed", pointer_join(op, "not"), pos, branch=brief(ov))
    else:
        # Inside not, accepting more means the whole accepts less.
        w.diff(ov, nv, pointer_join(op, "not"), pointer_join(np, "not"), not pos, depth + 1)


def judge_conditional(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, depth = at
    oi, ni = o.get("if", MISSING), n.get("if", MISSING)
    if oi is MISSING and ni is MISSING:
        return  # then/else without if have no effect
    if oi is MISSING or ni is MISSING or not jeq(oi, ni) or has_ref(oi):
        if jeq(oi, ni) and w.refs_same(oi, ni, op, np, pos, depth):
            pass
        else:
            how = "added" if oi is MISSING else "removed" if ni is MISSING else "changed"
            w.emit(
                "if-changed", pointer_join(np if ni is not MISSING else op, "if"), pos, how=Raw(how)
            )
            return
    for kw in ("then", "else"):
        ov, nv = o.get(kw, MISSING), n.get(kw, MISSING)
        if ov is MISSING and nv is MISSING:
            continue
        if ov is MISSING:
            if not accepts_all(nv):
                w.emit("conditional-branch-added", pointer_join(np, kw), pos, keyword=Raw(kw))
        elif nv is MISSING:
            if not accepts_all(ov):
                w.emit("conditional-branch-removed", pointer_join(op, kw), pos, keyword=Raw(kw))
        else:
            w.diff(ov, nv, pointer_join(op, kw), pointer_join(np, kw), pos, depth + 1)


_VALUE_ALARMS = frozenset({ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING})


def _match(ol: list[Any], nl: list[Any]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair branches: equal ones first, then same type/ref, then by position if the counts of
    what is left agree; the rest are removed (old) or added (new). Each new branch, in order,
    takes the first old one left with its key: linear (a dict of queues), so 200,000
    alternatives in any order cost 200,000 lookups, not their square."""
    left_o, left_n = list(range(len(ol))), list(range(len(nl)))
    pairs: list[tuple[int, int]] = []
    for key in (ckey, branch_sig):
        waiting: dict[Any, deque[int]] = {}
        for i in left_o:
            waiting.setdefault(key(ol[i]), deque()).append(i)
        taken: set[int] = set()
        unmatched: list[int] = []
        for j in left_n:
            queue = waiting.get(key(nl[j]))
            if queue:
                i = queue.popleft()
                pairs.append((i, j))
                taken.add(i)
            else:
                unmatched.append(j)
        left_o = [i for i in left_o if i not in taken]
        left_n = unmatched
    if len(left_o) == len(left_n):
        pairs += list(zip(left_o, left_n, strict=True))
        left_o, left_n = [], []
    return pairs, left_o, left_n


HANDLERS: dict[str, Handler] = {
    "anyOf": judge_any_of,
    "oneOf": judge_one_of,
    "allOf": judge_all_of,
    "not": judge_not,
    "if": judge_conditional,
    "then": judge_conditional,
    "else": judge_conditional,
}
"""The keywords this family judges, and the handler the walker calls for each."""

ENTRY_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf"})
"""Keywords whose pointer may name one entry (an alternative)."""
INTERACTING = (frozenset({"if", "then", "else"}),)
"""Keywords whose meaning depends on each other: never split across an allOf."""
