"""Substitutions that try a pattern only where a match can start.

``pattern.sub`` tries the pattern at every character of a text: for the call log's secret
formats that is ~150 ms a MiB of source code or prose (most characters start some attempt),
the bulk of what a large recorded call cost. Every secret pattern starts at a fixed piece of
text (``sk-``, ``eyJ``, ``://``...) or a fixed distance after one, and ``str.find`` finds those
at memory speed. :func:`sub_at` then tries the pattern only at those places, in order, with
``re.sub``'s own rules (leftmost match first, alternatives in their order, the text after a
match searched from its end; lookbehinds and ``\\b`` still see the characters before), so it
replaces exactly what ``pattern.sub`` replaces whenever every place a match can start is among
the places given. Where those places are dense the caller falls back to ``pattern.sub``: the
result is the same, only the speed differs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

Repl = str | Callable[[re.Match[str]], str]


Needle = tuple[str | re.Pattern[str], int, int]
"""``(what, offset, anchor)``: a match can start ``offset`` characters after each place ``what``
is found. ``what`` is either a fixed string, looked for by its character at index ``anchor``
alone (rare in ordinary text: an upper-case letter; a one-character ``find`` is a memchr,
~0.07 ms a MiB, where scanning for a whole short string costs ~0.7 ms) and checked around each
hit; or a compiled pattern that starts with one literal character (the regex engine skips to
that character, ~0.3-0.5 ms a MiB) and checks the rest with lookarounds, found where it
starts. ``anchor`` is ignored for a pattern.

A fixed string is looked for by its character with ``find`` while hits are sparse, each hit
checked by a Python loop turn (~0.2 us); once more than one in :data:`DENSE` characters so far
is a hit, the rest of the text is searched by the string's own pattern in C instead (its anchor
character, the rest checked around it), which costs ~0.3 ms a MiB however many hits there
are: the places found are the same either way."""

DENSE = 800
"""One hit in this many characters or more and a needle's character is dense: one loop turn
per hit (~0.25 us) then costs more than the regex engine's pass over the rest (~0.3 ns a
character)."""
SWITCH = 32
"""Hits seen before the density is judged (a few early hits say little)."""


@functools.lru_cache(maxsize=64)
def _literal(what: str, anchor: int) -> re.Pattern[str]:
    """A pattern matching at the ``anchor`` character of every occurrence of ``what``."""
    before, c, after = what[:anchor], what[anchor], what[anchor + 1 :]
    return re.compile(
        re.escape(c)
        + (f"(?<={re.escape(before + c)})" if before else "")
        + (f"(?={re.escape(after)})" if after else "")
    )


def starts_at(s: str, needles: Iterable[Needle], limit: int) -> list[int] | None:
    """The sorted distinct places where a match can start, for every needle; None as soon as
    more than ``limit`` places were looked at (found, or for a fixed string's anchor, checked):
    the text is dense with them."""
    found: set[int] = set()
    looked = 0
    for what, offset, anchor in needles:
        if not isinstance(what, str):
            for m in what.finditer(s):
                found.add(m.start() + offset)
                looked += 1
                if looked > limit:
                    return None
            continue
        c = what[anchor]
        hits = 0
        i = s.find(c, anchor)
        while i >= 0:
            if s.startswith(what, i - anchor):
                found.add(i - anchor + offset)
            looked += 1
            hits += 1
            if looked > limit:
                return None
            if hits >= SWITCH and i < hits * DENSE:  # dense: the rest in C
                for m in _literal(what, anchor).finditer(s, i + 1):
                    found.add(m.start() - anchor + offset)
                    looked += 1
                    if looked > limit:
                        return None
                break
            i = s.find(c, i + 1)
    return sorted(found)


def sub_at(pattern: re.Pattern[str], s: str, starts: Iterable[int], repl: Repl) -> str:
    """``pattern.sub(repl, s)`` when every match of ``pattern`` in ``s`` starts at one of
    ``starts`` (ascending). ``repl``: a literal string (no group references) or a function of
    the match, as for ``re.sub``. The pattern must not match the empty string. A match
    replaced by its own text is left in place, so where none changes ``s`` itself is returned
    (not a copy: a MiB of text with a URL query in it, none of whose names is secret, is not
    copied, which for text beyond Latin-1 costs ~1 ms and fresh pages)."""
    out: list[str] = []
    pos = 0  # where the search goes on (re.sub's rule: from the end of the last match)
    kept = 0  # the end of what ``out`` holds
    for c in starts:
        if c < pos:
            continue  # inside the previous match: re.sub searches on from its end
        m = pattern.match(s, c)
        if m is None:
            continue
        new = repl if isinstance(repl, str) else repl(m)
        pos = m.end()
        if new == m.group(0):
            continue
        out.append(s[kept:c])
        out.append(new)
        kept = pos
    if not out:
        return s
    out.append(s[kept:])
    return "".join(out)


def run_starts(
    s: str, marker: str, run_chars: str, limit: int, finder: re.Pattern[str] | None = None
) -> list[int] | None:
    """For each occurrence of ``marker`` in ``s``, where the run of ``run_chars`` that ends
    just before it begins (the marker itself when none precedes it). ``marker`` must hold no
    character of ``run_chars``, so a run never crosses an earlier marker, nor overlap itself
    (``://`` does not). None when there are more than ``limit`` markers. ``finder``: a pattern
    whose matches start exactly where ``marker`` occurs (``:(?=//)``: the regex engine skips
    to its first character, twice as fast as ``str.find`` of the three on non-Latin-1 text)."""
    out: list[int] = []
    lo = 0
    hits = (m.start() for m in finder.finditer(s)) if finder is not None else None
    i = s.find(marker) if hits is None else next(hits, -1)
    while i >= 0:
        # Runs are short (a URL scheme): look back 64 characters, further only if all are in it.
        j = max(lo, i - 64)
        j += len(s[j:i].rstrip(run_chars))
        if j == i - 64 and j > lo:
            j = lo + len(s[lo:i].rstrip(run_chars))
        out.append(j)
        if len(out) > limit:
            return None
        lo = i + len(marker)
        i = s.find(marker, lo) if hits is None else next(hits, -1)
    return out
