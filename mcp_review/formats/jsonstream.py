"""JSON reports written as they go: a document whose per-call lists are produced by iterators.

A report marks the containers that hold a stream (:class:`Doc`, :class:`DocList`) and the
streamed arrays themselves (:class:`Stream`); everything else is serialised whole. A stream's
entries are built, written (one compact entry per line) and dropped one at a time, so a
100,000-call replay never holds its report in memory. The text is the same JSON value as
``json.dumps`` of the materialised document, with every hidden or terminal-active character
escaped (``hidden.escape_hidden_json``), as ``json_dumps_safe`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

from mcp_review.engine.hidden import escape_hidden_json, json_dumps_safe

_orjson: ModuleType | None  # None only where orjson is missing: the stdlib is the fallback
try:  # 5-10x faster than the stdlib writer; the stdlib is the exact fallback
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency
    _orjson = None


class Doc(dict[str, Any]):
    """A JSON object that holds a :class:`Stream` somewhere below: written member by member."""


class DocList(list[Any]):
    """A JSON array whose items may be :class:`Doc`: written item by item."""


class Stream:
    """A JSON array whose items come from an iterator, each turned into JSON by ``to_json``.

    ``texts``: the same items already written, each exactly ``dumps(to_json(item),
    indent=False)``, for a writer quicker than the dict it would build (formats/replay_json.py);
    ``iter_dump`` takes them, ``materialise`` the items. Only the one read is consumed."""

    __slots__ = ("items", "texts", "to_json")

    def __init__(
        self,
        items: Iterable[Any],
        to_json: Callable[[Any], Any] = lambda x: x,
        texts: Iterable[str] | None = None,
    ):
        self.items = items
        self.to_json = to_json
        self.texts = texts

    def materialise(self) -> list[Any]:
        return [self.to_json(x) for x in self.items]


def dumps(value: Any, *, indent: bool = True) -> str:
    """``json_dumps_safe(value, indent=2 if indent else None)``, through orjson when it can
    represent the value (it cannot: integers beyond 64 bits)."""
    if _orjson is not None:
        try:
            opt = _orjson.OPT_INDENT_2 if indent else 0
            return escape_hidden_json(_orjson.dumps(value, option=opt).decode("utf-8"))
        except (TypeError, ValueError):
            pass
    return json_dumps_safe(value, indent=2) if indent else json_dumps_safe(value)


def plain(value: Any) -> Any:
    """The document with every stream materialised (for callers that want one value)."""
    if isinstance(value, Stream):
        return value.materialise()
    if isinstance(value, Doc):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, DocList):
        return [plain(v) for v in value]
    return value


def iter_dump(value: Any, depth: int = 0) -> Iterator[str]:
    """``value`` as indented JSON text in pieces (no final newline)."""
    pad = "  " * depth
    if isinstance(value, Stream):
        first = True
        inner = "\n" + pad + "  "
        if value.texts is not None:
            for text in value.texts:
                yield ("[" + inner if first else "," + inner) + text
                first = False
        else:
            for item in value.items:
                yield ("[" + inner if first else "," + inner) + dumps(
                    value.to_json(item), indent=False
                )
                first = False
        yield "[]" if first else "\n" + pad + "]"
    elif isinstance(value, Doc):
        if not value:
            yield "{}"
            return
        sep = "{\n"
        for k, v in value.items():
            yield f"{sep}{pad}  {dumps(k)}: "
            yield from iter_dump(v, depth + 1)
            sep = ",\n"
        yield "\n" + pad + "}"
    elif isinstance(value, DocList):
        if not value:
            yield "[]"
            return
        sep = "[\n"
        for v in value:
            yield sep + pad + "  "
            yield from iter_dump(v, depth + 1)
            sep = ",\n"
        yield "\n" + pad + "]"
    else:
        # Dumped JSON has no raw newline inside strings: re-indenting by lines is exact.
        text = dumps(value)
        yield text.replace("\n", "\n" + pad) if depth else text
