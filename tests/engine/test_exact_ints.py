"""engine/exactints.py: when orjson's reading of a JSON text may be taken, held to the stdlib.

The truth is ``json.loads`` (exact integers) and a regex over the bytes; orjson itself is what
is judged, so these tests also fail if a future orjson changes what it does past 64 bits in a
way the module does not expect (a refusal would be caught by its callers' fallbacks; a float
from an integer of fewer than 19 digits would be caught here).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import orjson

from mcp_review.engine.exactints import (
    LONG_RUN,
    WALK_BUDGET,
    WALK_FROM,
    holds_float,
    ints_exact,
    long_digit_run,
)


def typed(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    return (type(v).__name__, v)


def _value(rnd: random.Random, depth: int = 0) -> Any:
    r = rnd.random()
    if depth < 4 and r < 0.25:
        return {f"k{i}": _value(rnd, depth + 1) for i in range(rnd.randint(0, 5))}
    if depth < 4 and r < 0.4:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 5))]
    if r < 0.55:
        e = rnd.choice([62, 63, 64, 65, 70, 100])
        return rnd.randrange(-(2**e), 2**e)
    if r < 0.6:
        return rnd.choice([2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 10**18, 10**19])
    if r < 0.7:
        return rnd.choice([0.5, -0.0, 1e30, 1.2345678901234568e29, 12345678901234567890.5])
    if r < 0.85:
        return "".join(rnd.choice("0123456789 ab") for _ in range(rnd.randint(0, 60)))
    return "x" * rnd.choice([0, 10, 5000])


def test_a_text_is_taken_only_when_orjson_reads_it_as_the_stdlib_does():
    """Over random values (integers on both sides of orjson's 64-bit limits, floats, strings
    of digits, short and long texts, compact and spaced): whenever ``ints_exact`` says yes,
    orjson's value is the stdlib's, types and all; whenever they differ, it says no."""
    rnd = random.Random(19)
    differ = taken = long = 0
    for _ in range(3000):
        v = _value(rnd)
        text = json.dumps(v, separators=rnd.choice([(",", ":"), (", ", ": ")])).encode()
        fast, want = orjson.loads(text), json.loads(text)
        same = typed(fast) == typed(want)
        verdict = ints_exact(text, fast)
        assert verdict is False or same, text[:300]
        assert ints_exact(text.decode(), fast) == verdict
        differ += not same
        taken += verdict
        long += len(text) >= WALK_FROM
    assert differ > 300 and taken > 1000 and long > 100, (differ, taken, long)


def test_the_digit_run_is_the_regexs():
    rnd = random.Random(3)
    run = re.compile(rb"[0-9]{%d}" % LONG_RUN)
    hits = 0
    for _ in range(2000):
        pieces = [b"/", b":", b"a", b"\xc3\xa9", b"\xe2\x80\x94", b" "]
        pieces += [b"7" * rnd.randint(1, 22), b"0123456789"[: rnd.randint(1, 10)]]
        text = b"".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        want = run.search(text) is not None
        assert long_digit_run(text) == want, text
        assert long_digit_run(text.decode("utf-8", "replace")) == want, text
        hits += want
    assert 50 < hits < 1950


def test_the_walk_finds_a_float_anywhere_and_gives_up_past_its_budget():
    assert holds_float(1.5) is True
    assert holds_float([1, "a", {"b": [None, True, {"c": 2**70}]}]) is False
    assert holds_float({"a": [[{"b": [0.0]}]]}) is True
    assert holds_float(list(range(WALK_BUDGET))) is False
    assert holds_float(list(range(WALK_BUDGET + 1))) is None
    assert holds_float({"a": list(range(WALK_BUDGET))}) is None  # members counted at every level


def test_a_long_text_whose_value_holds_no_float_is_taken_without_a_scan():
    """A 1 MiB string of digits (a run everywhere) in a value with no float: orjson's value,
    integers included, is exact, and the walk says so; with a float beside it, the run
    decides, and sends it to the stdlib."""
    text = json.dumps({"content": "1" * (1 << 20), "n": 2**64 - 1}).encode()
    assert long_digit_run(text)
    assert ints_exact(text, orjson.loads(text))
    text = json.dumps({"content": "1" * (1 << 20), "f": 0.5}).encode()
    assert not ints_exact(text, orjson.loads(text))
    text = json.dumps({"content": "x" * (1 << 20), "f": 0.5, "n": 2**64}).encode()
    assert not ints_exact(text, orjson.loads(text))
