"""The walks that look for hidden characters in a definition join a node's pointer only when
they need it (issue 15 item 4: they ran over every string of 1,000 changed tools). Held to the
straightforward walk they replaced: the same (pointer, string, is_key) in the same order, the
same counts."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_review.engine.hidden import find_hidden, has_hidden, none_hidden
from mcp_review.engine.model import ToolDef, pointer_join
from mcp_review.engine.policy import _hidden_counts
from mcp_review.engine.rules.hidden import hidden_strings


def reference_hidden_strings(doc: Any):
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, str):
            if has_hidden(node):
                yield ptr, node, False
        elif isinstance(node, dict):
            for k, v in reversed(list(node.items())):
                child = pointer_join(ptr, k)
                if has_hidden(k):
                    yield child, k, True
                stack.append((v, child))
        elif isinstance(node, list):
            stack.extend((v, pointer_join(ptr, i)) for i, v in reversed(list(enumerate(node))))


def reference_counts(doc: Any) -> Counter[tuple[str, str]]:
    def strings(v: Any, ptr: str):
        stack = [(v, ptr)]
        while stack:
            x, p = stack.pop()
            if isinstance(x, str):
                yield p, x
            elif isinstance(x, dict):
                for k, y in x.items():
                    yield pointer_join(p, k), k
                    stack.append((y, pointer_join(p, k)))
            elif isinstance(x, list):
                stack.extend((y, pointer_join(p, i)) for i, y in enumerate(x))

    c: Counter[tuple[str, str]] = Counter()
    for ptr, s in strings(doc, ""):
        for h in find_hidden(s):
            c[(ptr, h.label)] += 1
    return c


DEEP = os.environ.get("HIDDEN_WALK_DEEP") == "1"
"""HIDDEN_WALK_DEEP=1 for the deeper run (400, 400, 1,000 and 500 examples, as the suite ran
before issue 31 item 7: about 10 s of CPU, nearly all of it hypothesis drawing documents); the
suite draws hypothesis's default 100 each (400 in all; 150, 150, 400 and 200 before the
suite's time was cut, issue 46). The same strategies and oracles either way (the
reference walks below); a failing example is kept in hypothesis' database and tried first on the
next run."""


def examples(suite: int, deep: int) -> int:
    return deep if DEEP else suite


# Text with the characters the scan looks for (zero-width, bidi, TAG, C0/C1, ESC) and the
# characters pointers escape (~ and /).
_text = st.text(alphabet=st.sampled_from(list("ab~/ \u200b\u202e\U000e0041\x1b\x07\x9b\n")))
_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_text, kids, max_size=4),
    max_leaves=25,
)


@settings(max_examples=examples(100, 400), deadline=None)
@given(_values)
def test_hidden_strings_is_the_plain_walk(doc):
    assert list(hidden_strings(doc)) == list(reference_hidden_strings(doc))


@settings(max_examples=examples(100, 400), deadline=None)
@given(st.dictionaries(_text, _values, max_size=5))
def test_hidden_counts_are_the_plain_walks(extra):
    wire = {"name": "t", "description": "d", "inputSchema": {"type": "object", **extra}}
    tool = ToolDef(wire=wire)
    assert _hidden_counts(tool) == reference_counts(tool.hashed_projection())


def test_a_hidden_character_is_found_at_its_pointer():
    doc = {"a/b": [{"x~": "ok\u200b"}], "k\u202e": 1}
    assert list(hidden_strings(doc)) == [
        ("/k\u202e", "k\u202e", True),
        ("/a~1b/0/x~0", "ok\u200b", False),
    ]


# Every C0 and C1 control, DEL, the other hidden characters the scan knows, a backslash and
# the letters of JSON's escapes, and plain text.
_EVERY = [chr(c) for c in range(0x00, 0xA1)] + list(
    "\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200f\u202a\u202e\u2060\u2064\u2066\u2069"
    "\u3164\ufeff\uffa0\ufe00\ufe0f\U000e0000\U000e0041\U000e007f\U000e0100\U000e01ef"
    "\u2028\u2029é\U0001f600"
)
_any_text = st.text(alphabet=st.sampled_from(_EVERY), max_size=6)
_any_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _any_text,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_any_text, kids, max_size=4),
    max_leaves=25,
)


@settings(max_examples=examples(100, 1000), deadline=None)
@given(_any_values)
def test_none_hidden_never_misses_a_hidden_character(doc):
    """The one-scan shortcut says "none" only when the walk finds none."""
    if none_hidden(doc):
        assert list(hidden_strings(doc)) == []


@pytest.mark.parametrize("c", [chr(c) for c in range(0x00, 0xA0)])
def test_none_hidden_on_each_control_character(c):
    doc = {"d": f"a{c}b", f"k{c}": 1}
    clean = not list(hidden_strings(doc))
    if c == "\\":
        assert not none_hidden(doc)  # "a\\b" reads like the escape of a backspace: unsure
    else:
        assert none_hidden(doc) == clean


def test_none_hidden_answers_for_plain_definitions():
    """Not vacuous: a plain definition (tabs and newlines included) needs no walk."""
    doc = {"name": "t", "description": "Line one.\n\tLine two: é ü 😀 \u2028", "x": [1, 2.5]}
    assert none_hidden(doc)
    assert not none_hidden({"d": "a\u200bb"})
    assert not none_hidden({"d": "C:\\\\users"})  # an escaped backslash before u: unsure


def reference_skeleton(name: str) -> str:
    import unicodedata

    from mcp_review.engine import hidden as h

    n = unicodedata.normalize("NFKC", h._HIDDEN_RE.sub("", name))
    n = unicodedata.normalize("NFD", n)
    n = unicodedata.normalize("NFD", n.translate(h._uts39_map()))
    return n.casefold().translate(h._EXTRA)


_name_chars = st.sampled_from(
    [*"abcIl10Oo-_.rnm~/ \x00\x1b\x7f", *"еοаі", "\u200b", "ﬁ", "Å", "Å", "ℓ", "①", "ß", "İ", "ｒ"]
)


@settings(max_examples=examples(100, 500), deadline=None)
@given(st.text(alphabet=_name_chars, max_size=12) | st.text(max_size=8))
def test_skeleton_skips_normalising_ascii_only_where_it_changes_nothing(name):
    from mcp_review.engine.hidden import skeleton

    assert skeleton(name) == reference_skeleton(name)


def test_the_ascii_prototypes_are_the_tables_ascii_entries():
    """skeleton reads an ASCII name with the ASCII part of the confusables table only; a new
    generated confusables table that changes that part fails here."""
    from mcp_review.engine import hidden as h

    assert h._ASCII_PROTOTYPES == {k: v for k, v in h._uts39_map().items() if k < 128}


def test_an_ascii_name_does_not_read_the_confusables_table():
    from mcp_review.engine import hidden as h

    h._uts39_map.cache_clear()
    assert h.skeleton("read_fiIe-1") == h.skeleton("read_file_l") == "read_file_l"
    assert h._uts39_map.cache_info().misses == 0
    assert h.skeleton("rеad_file") == "read_file"  # Cyrillic е: the table is read
    assert h._uts39_map.cache_info().misses == 1
