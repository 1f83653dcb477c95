"""Hidden characters (every invisible code point by Unicode property: default-ignorables, format
characters, variation selectors, the TAG block, blank letters; and ANSI/C0/C1 controls)
anywhere in a definition.

Its rules, and the functions that judge them (``schema_diff.diff_tools`` calls them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_review.engine.hidden import has_hidden
from mcp_review.engine.model import (
    Change,
    ChangeClass,
    Direction,
    pointer_join,
)
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
    hidden_tokens,
    make,
    quote,
)

_TR = ChangeClass.TRUST
_T = Direction.TOOL

HIDDEN_ADDED = "hidden-characters-added"
"""A string now carries hidden characters it did not have (blocks, never held)."""
HIDDEN_PRESENT = "hidden-characters-present"
"""A string of a new tool or a first pin carries hidden characters."""

RULES: tuple[Rule, ...] = (
    _r(
        HIDDEN_ADDED,
        _TR,
        _T,
        "a string now carries invisible or control characters it did not have",
        "hidden characters added in {where}: {tokens}{decoded}",
        hidden=True,
        withheld="hidden characters appeared",
    ),
    _r(
        HIDDEN_PRESENT,
        _TR,
        _T,
        "a string carries invisible or control characters (new tool or first pin)",
        "hidden characters in {where}: {tokens}{decoded}",
    ),
)


# Judging ------------------------------------------------------------------------------------------


_HIDDEN_CAP = 100
"""Most hidden-character changes reported per definition; the rest are summarised in one."""


def hidden_strings(doc: Any) -> Iterator[tuple[str, str, bool]]:
    """(pointer, string, is_key) for every string containing hidden characters, iteratively
    (a 512-deep definition must not recurse)."""
    # (node, its parent's pointer, its key or index there; None for the root): a node's own
    # pointer is joined only when it is needed (a container, or a string that has hidden
    # characters), not for every string of every definition.
    stack: list[tuple[Any, str, str | int | None]] = [(doc, "", None)]
    while stack:
        node, parent, at = stack.pop()
        if isinstance(node, str):
            if has_hidden(node):
                yield (parent if at is None else pointer_join(parent, at)), node, False
        elif isinstance(node, dict):
            ptr = parent if at is None else pointer_join(parent, at)
            for k, v in reversed(list(node.items())):
                if has_hidden(k):
                    yield pointer_join(ptr, k), k, True
                stack.append((v, ptr, k))
        elif isinstance(node, list):
            ptr = parent if at is None else pointer_join(parent, at)
            stack.extend((v, ptr, i) for i, v in reversed(list(enumerate(node))))


def hidden_added(old: Any, new: Any) -> list[Change]:
    # A string with hidden characters that existed verbatim in old is not news, wherever it
    # moved; any other one is, even if old had other hidden characters elsewhere.
    seen = {s for _, s, _ in hidden_strings(old)}
    return hidden_changes(hidden_strings(new), HIDDEN_ADDED, seen)


def hidden_changes(
    found: Iterator[tuple[str, str, bool]], rule: str, seen: set[str]
) -> list[Change]:
    out: list[Change] = []
    extra = 0
    for ptr, s, is_key in found:
        if s in seen:
            continue
        if len(out) >= _HIDDEN_CAP:
            extra += 1
            continue
        tokens, decoded = hidden_tokens(s)
        label = ("the key at " if is_key else "") + quote(ptr or "/")
        out.append(make(rule, ptr, where=Raw(label), tokens=tokens, decoded=decoded))
    if extra:
        out.append(
            make(
                rule,
                "",
                where=Raw(f"{extra} more strings"),
                tokens=Raw("(not listed)"),
                decoded=Raw(""),
            )
        )
    return out
