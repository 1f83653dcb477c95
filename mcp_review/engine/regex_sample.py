"""Regex sampling: a short string a pattern probably matches, proposed to the witness search
and the value generator (never trusted: every proposal is checked by the real validator).

Python's regex parser is close enough to ECMA-262 to *propose* strings. ``re._parser`` since
3.11 (the floor we support); typeshed has its stubs under the deprecated public name, so the
checker reads those. Only this module touches the private parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sre_parse as _sre
else:
    import re._parser as _sre


def regex_example(pattern: str) -> str | None:
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
