"""The call log's redaction of arguments the caller owns, in place (the record-only proxy's
recorder process, ``services/proxy/recorder_child.py``: it parses each line it is handed, and
nothing else holds the value).

``calllog.Redactor``'s walk copies every dict and list of a value and calls the secret formats'
prefilter once per short string: ~19 ms for a MiB of JSON records (~100,000 nodes, ~18,000
strings), most of the recorder's work on such a call (benchmarks/README.md, "large calls,
sixth pass"). Here, with the same result:

1. **The walk visits containers only**, breadth first without recursion, and copies nothing:
   it notes the value of every secret-named key (replaced afterwards by the copying walk's own
   hidden walk, so a hidden value is written exactly as before), each long string (``_SHORT``
   characters or more, given to ``_text`` afterwards as the copying walk gives it, and put
   back where it stood when that changes it), the distinct short ones, and a NaN or an
   infinity outside hidden values, as the copying walk notes it. A dict whose keys are all
   names already judged not secret (:data:`_CLEAN`, one ``set.issuperset`` call) has only its
   values looked at.
2. **The short strings are screened at once**: joined with NUL between them and searched with
   ``_PREFILTER``, one call per string that matches instead of one per string. A match in the
   joined text is a match in one string and every string's matches are matches there: each of
   the prefilter's alternatives, lookarounds included, is made of fixed characters, none of
   them NUL, so no match starts at, ends past or looks across a NUL between strings (a NUL
   inside a string is that string's own). The search goes on after the end of each string it
   hit, so every string with a match is found. A string without one is not changed by
   ``scrub_text`` (the copying walk returns it as it is, the prefilter's own promise); those
   with one are given to ``_text``, and only those it changes are replaced (by value: a second
   pass, only when some string changes).

Whether anything changed is the replacements' own comparison, what ``red != raw`` compared
(the rest is the same objects). Not done here (None: the caller uses the copying walk): a
redactor with a by-value scrubber (the server's configured secrets, which also rewrite keys),
a value that is not a dict or list, or one nested deeper than :data:`DEEPEST`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, repeat
from operator import add
from typing import Any

DEEPEST = 100
"""Deeper values take the copying walk (which may give up on them: calllog.record_call)."""

_CLEAN: dict[tuple[str, ...], set[str]] = {}
"""Per set of key patterns, key names known not to be secret: a dict whose every key is one
(``set.issuperset``, one call) needs no key judged, only its values looked at."""
_CLEAN_MAX = 4096

Found = tuple[list[tuple[Any, Any]], dict[str, None], list[tuple[Any, str]], bool]
"""(secret-named keys' places, the distinct short strings, each long one with its container,
whether a NaN or an infinity was seen)."""


def redact_owned(
    redactor: Any, value: Any, prefilter: re.Pattern[str], short: int
) -> tuple[Any, bool] | None:
    """``(redactor(value), redactor(value) != value)``, ``value`` (JSON as a parser reads it:
    exact types, string keys; held by no one else) redacted in place; None where this does not
    do it (the module's docstring): the copying walk then does."""
    if redactor._scrub is not None or type(value) not in (dict, list):
        return None
    found = _walk(redactor, value, short)
    if found is None:
        return None
    hide, shorts, longs, nonfinite = found
    fix = _changed(redactor, shorts, prefilter)
    swap = _places(value, fix, short) if fix else []
    done: dict[str, str] = {}  # (one long string alone is not hashed: a MiB read once more)
    for c, s in longs:
        new = done.get(s) if len(longs) > 1 else None
        if new is None:
            new = redactor._text(s)
            if len(longs) > 1:
                done[s] = new
        if new != s:
            pairs = c.items() if type(c) is dict else enumerate(c)
            swap += [(c, k, new) for k, x in pairs if x is s]
    changed = bool(swap)
    for c, k, new in swap:
        c[k] = new
    for c, k in hide:
        old = c[k]
        new = redactor._walk(old, True)
        if new != old:
            changed = True
        c[k] = new
    redactor.nonfinite = nonfinite
    return value, changed


def _walk(redactor: Any, root: Any, short: int) -> Found | None:
    """Step 1 of the module's docstring; None past :data:`DEEPEST` levels."""
    names, secret = redactor._names, redactor._secret_name
    clean = _CLEAN.setdefault(redactor.patterns, set())
    known = clean.issuperset
    hide: list[tuple[Any, Any]] = []
    shorts: dict[str, None] = {}  # (a large call repeats its strings: each is screened once)
    longs: list[tuple[Any, str]] = []
    nonfinite = False
    level = [root]
    depth = 0
    while level:
        depth += 1
        if depth > DEEPEST:
            return None
        nxt: list[Any] = []
        push = nxt.append
        for c in level:
            if type(c) is dict and not known(c):
                for k, x in c.items():
                    h = names.get(k)
                    if h is None:
                        h = secret(k)
                    if h:
                        hide.append((c, k))
                        continue
                    if len(clean) < _CLEAN_MAX:
                        clean.add(k)
                    t = type(x)
                    if t is str:
                        if len(x) < short:
                            shorts[x] = None
                        else:
                            longs.append((c, x))
                    elif t is dict or t is list:
                        push(x)
                    elif t is float and x - x != 0:
                        nonfinite = True
                continue
            for x in c.values() if type(c) is dict else c:
                t = type(x)
                if t is str:
                    if len(x) < short:
                        shorts[x] = None
                    else:
                        longs.append((c, x))
                elif t is dict or t is list:
                    push(x)
                elif t is float and x - x != 0:
                    nonfinite = True
        level = nxt
    return hide, shorts, longs, nonfinite


def _changed(redactor: Any, strs: dict[str, None], prefilter: re.Pattern[str]) -> dict[str, str]:
    """Step 2: the short strings ``_text`` changes, each with what it becomes."""
    joined = "\x00".join(strs)
    m = prefilter.search(joined)
    if m is None:
        return {}
    ends: list[int] | None = None
    if joined.count("\x00") != len(strs) - 1:  # some string holds a NUL of its own
        ends = list(accumulate(map(add, map(len, strs), repeat(1))))
        listed = list(strs)
    fix: dict[str, str] = {}
    while m is not None:
        if ends is None:  # the NULs are the joints
            start = joined.rfind("\x00", 0, m.start()) + 1
            end = joined.find("\x00", m.start())
            end = len(joined) if end < 0 else end
            s = joined[start:end]
        else:  # (where each string's NUL ends, the next one starts)
            i = bisect_right(ends, m.start())
            end, s = ends[i] - 1, listed[i]
        new = redactor._text(s)
        if new != s:
            fix[s] = new
        m = prefilter.search(joined, end + 1)
    return fix


def _places(root: Any, fix: dict[str, str], short: int) -> list[tuple[Any, Any, str]]:
    """Every place a short string of ``fix`` stands, with its replacement (inside a
    secret-named key's value too: that value is replaced whole afterwards all the same)."""
    out: list[tuple[Any, Any, str]] = []
    level = [root]
    while level:
        nxt: list[Any] = []
        for c in level:
            pairs = c.items() if type(c) is dict else enumerate(c)
            for k, x in pairs:
                t = type(x)
                if t is str:
                    if len(x) < short and x in fix:
                        out.append((c, k, fix[x]))
                elif t is dict or t is list:
                    nxt.append(x)
        level = nxt
    return out
