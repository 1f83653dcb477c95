"""Whether orjson read every integer of a JSON text exactly, checked without a second parse.

``orjson.loads`` reads an integer outside [-2**63, 2**64) as the nearest float, without a word
(``123456789012345678901234567890`` becomes ``1.2345678901234568e+29``); it refuses only a
number past the float range (over ~308 digits). Its issues show it doing so in 2020 (orjson
2.x: github.com/ijl/orjson/issues/53), 2022 (issues/308, still open: "Too large integers are
not rejected") and 2024 (issues/517); its README's "int" section gives the 64-bit range and
says nothing of ``loads`` past it; 3.13, installed here, does the same. No release made it
refuse them: code that counted on that was wrong from the start. ``json.loads`` reads them
exactly (up to its 4,300-digit limit, past which it refuses), and a server, a client and a
validator reading the same bytes see the exact integer: the stdlib is the reading to keep.

Such an integer is written with at least 19 digits in a row (-9223372036854775809 has 19,
18446744073709551616 has 20): a text without a run of 19 digits gives the stdlib's values.
Digits inside strings (hashes, timestamps, Unicode tables) make such runs common enough in real
text that a hit proves nothing, and looking for a run costs ~0.6-1 ms a MiB (a translate and a
search; a regex costs ~10 ms). So a long line is judged by its value first: a float is the only
thing a lost integer can become, and a large call is mostly a few strings (a file's content),
whose value holds a handful of nodes: no float among them settles it in microseconds. A value
with many nodes (bulk records) or with a float in it is judged by the digit run after all.
benchmarks/README.md ("Integers past 64 bits") has the figures.
"""

from __future__ import annotations

from typing import Any

LONG_RUN = 19
"""Digits in a row of the shortest integer orjson reads as a float (-9223372036854775809)."""

DIGIT_MASK = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
"""A ``translate`` table: every ASCII digit to "0", every other byte to " ". A run of digits
is then a plain substring search, ~12x faster than a regex over the same bytes."""

_RUN = b"0" * LONG_RUN
_STR_RUN = "0" * LONG_RUN

WALK_FROM = 4096
"""Bytes from which the value is looked at before the text: below it the digit scan costs a
few microseconds, as little as walking a small value."""

WALK_BUDGET = 1024
"""Members a walk looks at before it gives up (~0.15 ms): a value with more is judged by its
text, whose scan costs less than walking 100,000 members. A shorter text allows one member per
128 bytes: a member costs the walk ~140 ns, a byte the scan ~0.8, so giving up never costs
more than the scan it spared."""


def long_digit_run(text: bytes | str) -> bool:
    """Whether ``text`` holds ``LONG_RUN`` ASCII digits in a row (anywhere, strings too)."""
    if isinstance(text, str):
        # str.translate leaves characters past the table (U+0100 on) as they are: none is "0".
        return _STR_RUN in text.translate(DIGIT_MASK)
    return _RUN in text.translate(DIGIT_MASK)


def holds_float(value: Any, budget: int = WALK_BUDGET) -> bool | None:
    """True if ``value`` (a parsed JSON value) holds a float, False if it holds none, None when
    it has more than ``budget`` members and was not looked at to its end."""
    if type(value) is float:
        return True
    stack = [value]
    pop = stack.pop
    push = stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is dict:
            budget -= len(v)
            if budget < 0:
                return None
            push(v.values())
        elif t is list:
            budget -= len(v)
            if budget < 0:
                return None
            push(v)
        elif t is float:
            return True
    return False


def ints_exact(text: bytes | str, value: Any) -> bool:
    """Whether ``value``, orjson's reading of ``text``, holds every integer of ``text`` exactly
    (as ``json.loads`` reads it). False means: read ``text`` with the stdlib instead (it may
    hold no such integer after all: a long digit run inside a string also says False)."""
    n = len(text)
    if n < WALK_FROM:
        if type(text) is bytes:  # every short client line: one call less (~0.2 us of ~1)
            return _RUN not in text.translate(DIGIT_MASK)
    elif holds_float(value, min(WALK_BUDGET, n >> 7)) is False:
        return True
    return not long_digit_run(text)
