"""The engine's cues of a tool definition, computed once per test module that asks again.

Reading a definition's texts for cues (``engine.cues.tool_cues``) is most of what `check` and
`status` spend on a real server's listing (about 85 % of the CPU of a run on a corpus capture
such as mapbox's), and the tests that hold several commands to one answer ask it the very same
question again and again: tests/e2e/test_corpus_agreement.py runs ten commands on each release
pair, under three tiers that change the policy's outcome but not one cue. ``tool_cues`` is a
pure function of its arguments (two wire documents, the names a text may refer to, the server):
:func:`memoize_tool_cues` answers a call whose arguments equal an earlier call's with the
earlier answer (a fresh list of the same cues) and computes every other call, so each command
still computes its own status, policy, exit code and output from them.

The key is the arguments' whole content: each document as JSON in its own key order (the
order the walk reads texts in), the names with their servers. What a memoized test can no
longer catch is ``tool_cues`` giving two answers to one question, which the engine's own cue
tests (tests/engine/test_cues*.py) read directly, unmemoized.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest

import mcp_review.engine.status as status_mod
from mcp_review.engine.cues import KnownNames

Key = tuple[str, str, tuple[Any, ...], tuple[str, ...], str]


def _key(old: Mapping[str, Any] | None, new: Mapping[str, Any], names: Any, server: str) -> Key:
    tools: tuple[Any, ...] = ()
    servers: tuple[str, ...] = ()
    if isinstance(names, KnownNames):
        tools = tuple((k, tuple(sorted(v))) for k, v in names.tools.items())
        servers = tuple(sorted(names.servers))
    elif names is not None:  # not a type this memo knows how to compare: never a hit
        tools = (object(),)
    return (json.dumps(old), json.dumps(new), tools, servers, server)


@contextmanager
def memoize_tool_cues() -> Iterator[dict[Key, tuple[Any, ...]]]:
    """While open, ``compute_status`` reads each definition's cues through the memo (yielded:
    key -> cues, to count what it holds); on exit the engine's own function is back."""
    memo: dict[Key, tuple[Any, ...]] = {}
    real: Callable[..., list[Any]] = status_mod.tool_cues

    def tool_cues(
        old: Mapping[str, Any] | None,
        new: Mapping[str, Any],
        *,
        names: Any = None,
        server: str = "",
    ) -> list[Any]:
        key = _key(old, new, names, server)
        hit = memo.get(key)
        if hit is None:
            kw: dict[str, Any] = {"server": server}
            if names is not None:
                kw["names"] = names
            hit = memo[key] = tuple(real(old, new, **kw))
        return list(hit)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(status_mod, "tool_cues", tool_cues)
        yield memo
