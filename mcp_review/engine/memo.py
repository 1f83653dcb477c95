"""Answers of the schema comparison reused across the tools of one run.

A fleet repeats itself: the same server deployed fifty times, or one server whose tools share
a schema, changes the same schema pair in the same way on hundreds of tools. The schema walk
(``schema_diff._walk``) and the witness search (``witness.attach_witnesses``) are functions of
the two schema documents (and, for the witness search, of the changes it is handed) and of
nothing else: no tool name, no description, no clock. A :class:`CompareMemo` keeps their
answers for one run, keyed by the exact JSON text of the documents, so a repeated pair is
computed once.

The key is exact, not canonical: orjson's text of the value as it is, keys in their order (the
witness search tries properties in document order), ``1`` apart from ``1.0`` and from
``true``. A document orjson cannot write, or whose text holds a ``null`` token (a NaN is
written as ``null`` too), gets no key and is computed every time. ``tests/engine/test_memo.py``
holds the answers with the memo against the answers without it on the corpus.
"""

from __future__ import annotations

import re
from typing import Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a declared dependency
    _orjson = None  # type: ignore[assignment]

MAX_ENTRIES = 4096
"""Answers kept per kind; past it the memo starts again empty (a run is short-lived)."""

MAX_KEY_BYTES = 64 * 1024 * 1024
"""Bytes of keys kept per kind at most (big schemas rarely repeat; memory stays bounded)."""

_NULL = re.compile(rb"(?:^|[\[:,])null").search


class CompareMemo:
    """Per-run memo of schema walks and witness searches (see the module doc). Not shared
    between threads: each run (``compute_status``) makes its own."""

    __slots__ = ("_bytes", "hits", "misses", "walks", "witnesses")

    def __init__(self) -> None:
        self.walks: dict[tuple[Any, ...], Any] = {}
        self.witnesses: dict[tuple[Any, ...], Any] = {}
        self._bytes = {"walks": 0, "witnesses": 0}
        self.hits = 0
        self.misses = 0

    def key(self, value: Any) -> bytes | None:
        """The exact JSON text of ``value`` (``b""`` for None: an absent field), or None when
        it has none this memo trusts."""
        if value is None:
            return b""
        if _orjson is None:
            return None
        try:
            raw: bytes = _orjson.dumps(value)
        except TypeError:  # a big integer, a lone surrogate, a non-JSON value, too deep
            return None
        if b"null" in raw and _NULL(raw) is not None:
            return None
        return raw

    def get(self, kind: str, key: tuple[Any, ...]) -> Any:
        table: dict[tuple[Any, ...], Any] = getattr(self, kind)
        hit = table.get(key)
        if hit is None:
            self.misses += 1
        else:
            self.hits += 1
        return hit

    def put(self, kind: str, key: tuple[Any, ...], answer: Any) -> None:
        table: dict[tuple[Any, ...], Any] = getattr(self, kind)
        size = sum(len(k) for k in key if isinstance(k, bytes))
        if len(table) >= MAX_ENTRIES or self._bytes[kind] + size > MAX_KEY_BYTES:
            table.clear()
            self._bytes[kind] = 0
        table[key] = answer
        self._bytes[kind] += size
