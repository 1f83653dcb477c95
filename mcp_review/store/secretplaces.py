"""Where the call log's URL query pattern can match, found in linear time.

``calllog._URL_QUERY`` (``([?&])([^=&#\\s]+)=([^&#\\s]*)``) is tried only at the places
:func:`query_starts` gives (textscan.sub_at): the fewer places that cannot match, the fewer
Python loop turns a large string costs, and no place is looked at twice.
"""

from __future__ import annotations

import re

from mcp_review.store.textscan import DENSE, SWITCH

_RUNS = tuple((c, re.compile(re.escape(c) + r"(?:([^=&#\s]++)(?==)|[^=&#\s]*+)")) for c in "?&")
"""Per first character, its run: the name characters after it, possessively, to the first
``=``, ``&``, ``#`` or white space; group 1 is set when that is an ``=`` after at least one
of them (a query's name), and the run is then a place where ``_URL_QUERY`` matches."""


def query_starts(s: str) -> list[int]:
    """Ascending places in ``s`` that hold every match ``_URL_QUERY.sub`` makes.

    A ``?`` or ``&`` starts a match exactly where its name (the run of characters other than
    ``=&#`` and white space after it) is not empty and ends at an ``=``. Every ``?`` inside
    one run shares that end: the first of them decides for all, and where it starts a match
    that match (name, ``=`` and value) covers the others, as does any match that covers it
    (a name runs to the same ``=``; a value runs past it), so ``re.sub`` starts none there.
    Each run is read once: a text of ``?`` and letters costs one pass, where trying every
    ``?`` costs the length of its run each (a crafted MiB of ``?aaaaaaaaaaaaaaa``: minutes).
    A run's first character is found by memchr while they are sparse (a MiB of prose holds
    ~30 ``?``), by the regex engine once dense (the package's source ~2,400, ~40 of them
    queries): ``textscan.DENSE``."""
    found: list[int] = []
    for c, run in _RUNS:
        hits = 0
        i = s.find(c)
        while i >= 0:
            m = run.match(s, i)
            assert m is not None  # (its run may be empty: it always matches)
            if m.group(1) is not None:
                found.append(i)
            hits += 1
            if hits >= SWITCH and i < hits * DENSE:  # dense: the rest in C
                found += [m.start() for m in run.finditer(s, m.end()) if m.group(1) is not None]
                break
            i = s.find(c, m.end())
    return sorted(found)
