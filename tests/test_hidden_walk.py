"""The walks that look for hidden characters in a definition join a node's pointer only when
they need it (issue 15 item 4: they ran over every string of 1,000 changed tools). Held to the
straightforward walk they replaced: the same (pointer, string, is_key) in the same order, the
same counts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_review.engine.hidden import find_hidden, has_hidden
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


# Text with the characters the scan looks for (zero-width, bidi, TAG, C0/C1, ESC) and the
# characters pointers escape (~ and /).
_text = st.text(alphabet=st.sampled_from(list("ab~/ \u200b\u202e\U000e0041\x1b\x07\x9b\n")))
_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_text, kids, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_hidden_strings_is_the_plain_walk(doc):
    assert list(hidden_strings(doc)) == list(reference_hidden_strings(doc))


@settings(max_examples=400, deadline=None)
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
