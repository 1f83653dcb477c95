"""The canonical form's fast writer (orjson, engine/canonical._fast_bytes, issue 15 item 4) gives
exactly the reference text (``json.dumps`` of the normalised value) for every value it
handles, and leaves the others (floats that stay floats, big integers, lone surrogates) to the
reference. A digest that moved would re-quarantine every pinned tool."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_review.engine import canonical
from mcp_review.engine.canonical import canonical_bytes, canonical_json, normalize


def reference(value: object) -> str:
    return json.dumps(
        normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


EVERY_SMALL_CHAR = "".join(chr(c) for c in range(0x00, 0x800))
TRICKY = [
    "\u2028\u2029",
    "\ufeff\u200b\u202e\u2066",
    "\U000e0041\U0001f600",
    "\\\"/'",
    "e\u0301",
    "\x7f\x80\x9f",
    "\U0010ffff",
]


@pytest.mark.parametrize(
    "value",
    [
        {"name": "t", "description": EVERY_SMALL_CHAR, "inputSchema": {"type": "object"}},
        {k: i for i, k in enumerate([*TRICKY, "a", "B", "é", "\U0001f600", "\uffff", ""])},
        {"n": [0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 1.0, -0.0, 2.0**52, True, False, None]},
        [[[{"z": {"y": []}}]]],
        "plain",
        7,
        None,
        True,
    ],
)
def test_fast_text_is_the_reference_text(value):
    assert canonical._fast_bytes(value) is not None  # the fast path is the one under test
    assert canonical_json(value) == reference(value)
    assert canonical_bytes(value) == reference(value).encode("utf-8")


@pytest.mark.parametrize(
    "value",
    [
        {"x": 1e-07},
        {"x": 0.1},
        {"x": 1e16},
        {"x": 2**64},
        {"x": -(2**63) - 1},
        {"x": "\ud800"},
        {"\udc00": 1},
    ],
)
def test_values_the_fast_writer_could_get_wrong_take_the_reference(value):
    assert canonical._fast_bytes(value) is None
    assert canonical_json(value) == reference(value)
    assert canonical_bytes(value) == reference(value).encode("utf-8", "surrogatepass")


EXAMPLES = int(os.environ.get("PROP_EXAMPLES", "100"))
"""hypothesis's default per property (a fresh draw every run); PROP_EXAMPLES=3000 for a deeper
run."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(), kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(json_values)
def test_any_json_value_gets_the_reference_text(value):
    assert canonical_json(value) == reference(value)
    assert canonical_bytes(value) == reference(value).encode("utf-8", "surrogatepass")


@settings(max_examples=EXAMPLES, deadline=None)
@given(json_values)
def test_the_scan_for_containers_finds_what_the_full_scan_finds(value):
    """_not_plain skips the ``^`` alternative for an object or an array: inside one, orjson
    writes every number and null right after ``[``, ``:`` or ``,``."""
    import orjson

    try:
        raw = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return
    for doc in (raw, b"[" + raw + b"]", b'{"k":' + raw + b"}"):
        assert (canonical._not_plain(doc) is None) == (canonical._NOT_PLAIN(doc) is None), doc


def test_random_unicode_keys_sort_as_the_reference():
    rng = random.Random(15)
    pool = [
        chr(rng.choice([rng.randrange(0x20, 0xD800), rng.randrange(0xE000, 0x110000)]))
        for _ in range(3000)
    ]
    value = {"".join(rng.sample(pool, 3)): i for i in range(2000)}
    assert canonical._fast_bytes(value) is not None
    assert canonical_json(value) == reference(value)


@pytest.mark.parametrize("depth", [513, 5_000, 200_000])
def test_a_big_document_nested_too_deep_is_refused_with_the_limit_message(depth):
    from mcp_review.engine.errors import InputError

    pad = " " * canonical.BIG_JSON  # measured after parsing, not before
    for text in ("[" * depth + "]" * depth + pad, '{"a":' * depth + "1" + "}" * depth + pad):
        with pytest.raises(InputError, match="nested more than 512 levels deep"):
            canonical.loads(text)


def test_a_big_document_at_the_limit_reads_as_json_loads():
    inner = "[" * 511 + '"[[[{{{"' + "]" * 511
    text = json.dumps(
        {"tools": [{"name": f"t{i}", "d": "[" * 600} for i in range(20000)], "deep": "PLACEHOLDER"}
    ).replace('"PLACEHOLDER"', inner)
    assert len(text) >= canonical.BIG_JSON
    assert canonical.loads(text) == json.loads(text)


# The orjson route without the Python walk (a value whose orjson text has no float token and no
# null) and check_json (ToolDef.from_wire's validation) must answer exactly as the walk does.
NON_FINITE = [float("nan"), float("inf"), -float("inf")]


@pytest.mark.parametrize("bad", NON_FINITE)
@pytest.mark.parametrize(
    "wrap",
    [
        lambda v: v,
        lambda v: [v],
        lambda v: {"a": {"b": [1, v]}},
        lambda v: {"description": "x: null, 1.5", "v": v},
    ],
)
def test_nan_and_infinity_are_refused_never_written_as_null(bad, wrap):
    value = wrap(bad)
    with pytest.raises(ValueError):
        canonical_bytes(value)
    with pytest.raises(ValueError):
        canonical_json(value)
    with pytest.raises(ValueError):
        canonical.check_json(value)


def test_a_float_or_null_inside_a_string_still_gets_the_reference_text():
    # the scan matches here (":1.5" and ",null" inside strings): the walk decides, same text
    value = {"d": "ratio:1.5,null,[2e3", "n": None, "x": 1.0}
    assert canonical_json(value) == reference(value)


def _walk_outcome(value):
    try:
        normalize(value)
    except (ValueError, TypeError) as e:
        return type(e)
    return None


def _check_outcome(value):
    try:
        canonical.check_json(value)
    except (ValueError, TypeError) as e:
        return type(e)
    return None


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats()
        | st.text(),
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(), kids, max_size=4),
        max_leaves=20,
    )
)
def test_check_json_refuses_exactly_what_the_walk_refuses(value):
    assert _check_outcome(value) is _walk_outcome(value)


@pytest.mark.parametrize(
    "value",
    [
        {"a": object()},
        [b"bytes"],
        {"d": __import__("datetime").date(2026, 1, 1)},
        {1: "int key"},
        {"deep": json.loads("[" * 300 + "]" * 300)},
        {"deep": json.loads("[" * 600 + "]" * 600)},
        {"s": "\ud800"},
        {"big": 2**80},
    ],
)
def test_check_json_on_values_orjson_refuses_or_the_walk_refuses(value):
    assert _check_outcome(value) is _walk_outcome(value)


def test_one_depth_check_counts_exact_containers_and_subclasses_alike():
    """``canonical.too_deep`` is the one nesting check (canonical reads, the call log, replay,
    the witness search and status use it): exact dicts and lists are tested by type first, a
    subclass is still a container, and a 100,000-deep value is read without recursion."""
    from mcp_review.engine.canonical import MAX_DEPTH, too_deep

    class D(dict):
        pass

    class L(list):
        pass

    def nest(n: int, box) -> object:
        v: object = "leaf"
        for _ in range(n):
            v = box(v)
        return v

    for box in (lambda v: [v], lambda v: {"k": v}, lambda v: L([v]), lambda v: D(k=v)):
        assert not too_deep(nest(MAX_DEPTH, box))
        assert too_deep(nest(MAX_DEPTH + 1, box))
        assert too_deep(nest(100_000, box))
    assert not too_deep("x") and not too_deep(5) and not too_deep(None)
    mixed = [D(a=L([{"b": [1, "s", None, 2.5, True]}]))]  # depth 5
    assert too_deep(mixed, 4) and not too_deep(mixed, 5)
